#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace adala {

// Optimisation budget and hyper-parameters of one stage.
struct StageConfig {
  bool enabled = true;
  int64_t epochs = 1;
  int64_t max_steps = 0;  // > 0 caps the steps (takes precedence over epochs)
  int64_t batch_size = 64;
  double lr = 1e-3;
  double min_lr = 0.0;
  double weight_decay = 0.05;
  int64_t warmup_steps = 0;
  double grad_clip = 1.0;  // 0 disables clipping
  double label_smoothing = 0.0;
  bool augment = false;
  int64_t checkpoint_every = 0;  // 0: only at the end (and on cancel)
  int64_t log_every = 1;
  // Numerics (engine/runtime/precision.h): "fp32", "bf16" or "fp16" autocast for the forward
  // passes; the linear-attention kernels stay in float32 either way.
  std::string precision = "fp32";
  double linear_eps = 0.0;  // > 0: the linear-attention eps in this stage; 0: by precision
  // "auto": dynamic loss scaling for fp16 only; "dynamic": always; "off": never.
  std::string loss_scaling = "auto";
  double loss_scale_init = 65536.0;
  int64_t loss_scale_growth_interval = 2000;
  // The numerical-health monitor flags normalisers phi(q) . sum phi(k) below this value.
  double normaliser_threshold = 1e-4;
  // What the stage updates: "all" (the stage's default set) or, for Stage 2 only, "qkv" (the
  // student's linear-attention q/k/v projections alone: the paper's "tuning only QKV" row).
  std::string trainable = "all";
  // Stage 2 only: the blocks (1-based) whose outputs, through the final norm as the heads read
  // them, the feature loss matches, averaged over the blocks. Empty: the last block alone (the
  // paper's final-layer features). A dense head that reads earlier blocks (Mask2Former's
  // feature_blocks) is served by aligning those too.
  std::vector<int64_t> align_blocks;
};

}  // namespace adala
