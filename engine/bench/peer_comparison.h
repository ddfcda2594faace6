#pragma once
// `adala bench peer`: the same ViT in this engine and in a plain PyTorch peer
// (scripts/peer_vit.py on Debian's python3-torch), on identical weights, input and threads.
// The engine writes weights + input (+ config and settings as metadata) to a safetensors
// file, runs the peer as a subprocess, reads its outputs back (safetensors again) and compares:
//   inference: teacher (softmax) features and student (linear attention) features;
//   one Stage-2 step: MSE between student linear features and teacher softmax features,
//   backward, AdamW - the loss, every gradient, every parameter update, and the student's
//   features after the step.
#include <cstdint>
#include <string>

namespace adala {

struct PeerOptions {
  std::string preset = "vit_small";
  int64_t resolution = 224;  // input side; the model keeps its preset img_size (interpolated)
  int64_t batch = 2;
  int repeats = 5, warmup = 1;
  uint64_t seed = 1234;
  double lr = 1e-4, weight_decay = 0.05;
  // The student's linear branch starts as the teacher's q/k/v/proj plus this much Gaussian
  // noise, so a peer that used the wrong tensors could not agree by accident.
  double linear_noise = 0.01;
  std::string python = "/usr/bin/python3";
  // "cpu" or "cuda[:N]": both sides run there (on CUDA without TF32, so float32 is compared
  // with float32); the peer's Python needs a torch that sees that device.
  std::string device = "cpu";
  std::string script;    // scripts/peer_vit.py
  std::string work_dir;  // empty: a fresh temporary directory
  bool keep_files = false;
  double timeout_s = 1800;
};

struct PeerReport {
  // relative differences ||engine - peer|| / ||peer||
  double softmax_features_rel = -1, linear_features_rel = -1;
  double loss_engine = 0, loss_peer = 0, loss_rel = -1;
  double grads_rel = -1, updates_rel = -1, post_step_features_rel = -1;
  // AdamW's first step moves each parameter by lr * g / (|g| + eps): where |g| is near eps
  // (1e-8) the update amplifies rounding differences in g, so the updates are also compared
  // over the elements with |g| > 100 eps, where that amplification is below 1%.
  double updates_rel_large_grads = -1;
  double small_grad_fraction = 0;  // share of elements with |g| <= 100 eps
  // milliseconds: median and fastest run (the engine's over a round before the peer and one
  // after it)
  double engine_softmax_ms = 0, peer_softmax_ms = 0;
  double engine_linear_ms = 0, peer_linear_ms = 0;
  double engine_train_ms = 0, peer_train_ms = 0;
  double engine_softmax_min_ms = 0, peer_softmax_min_ms = 0;
  double engine_linear_min_ms = 0, peer_linear_min_ms = 0;
  double engine_train_min_ms = 0, peer_train_min_ms = 0;
  int threads = 0;
  std::string peer_torch_version;
  std::string work_dir;
  double tolerance = 1e-5;
  bool agrees = false;  // every relative difference < tolerance (updates: large-gradient part)
};

PeerReport run_peer_comparison(const PeerOptions& options);
std::string format_peer_report(const PeerReport& report, const PeerOptions& options);

// scripts/peer_vit.py next to the running executable's source tree (../../scripts from
// build/bin), else ./scripts/peer_vit.py; throws when neither exists.
std::string find_peer_script();

}  // namespace adala
