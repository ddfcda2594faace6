#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>

#include "engine/model/feature_map.h"
#include "engine/model/lora_linear.h"
#include "engine/model/vit_config.h"

namespace adala {

// Per-head projections of one token sequence, each (B, heads, N, head_dim).
struct HeadProjections {
  torch::Tensor q, k, v;
};

// The learned mixing of a window+linear branch: gamma_h = exp(log_gamma[h]) > 0, one per head,
// 1 at initialisation. LoLCATS weighs the window's softmax terms by f = sigmoid(p) and the
// linear ones by 1 - f; under the one normaliser that is gamma = (1 - f) / f = exp(-p) on the
// linear terms alone (window_linear_attention.h), so log_gamma = -p. Saved as
// blocks.{i}.attn.linear.window_mixing.log_gamma (heads).
class WindowMixingImpl : public torch::nn::Module {
 public:
  explicit WindowMixingImpl(int64_t num_heads);
  torch::Tensor gamma() const { return log_gamma.exp(); }
  torch::Tensor log_gamma;
};
TORCH_MODULE(WindowMixing);

// The Stage-1 module: its own qkv/proj, trained to reproduce the softmax attention output
// with phi(Q)(phi(K)^T V) normalised by phi(Q)(phi(K)^T 1) + eps. Under autocast the
// projections run in the lower precision and the kernel in float32 (precision.h). With elu1
// (the default) phi is fused into the kernels and the module has no "feature_map"; any other
// map is a "feature_map" submodule (feature_map.h) and runs the generic kernel
// (linear_attention_features.h), phi included in the float32 region.
// With a window (set_window, a window+linear block of the plan, attention_plan.h) the same
// q, k, v and phi run window_linear_attention instead: softmax on the k x k window of the patch
// grid, linear attention elsewhere, mixed by the "window_mixing" submodule's gamma.
class LinearAttentionImpl : public torch::nn::Module {
 public:
  LinearAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double eps,
                      FeatureMapKind feature_map = FeatureMapKind::Elu1,
                      const PerformerOptions& performer = {});
  torch::Tensor forward(const torch::Tensor& x);
  HeadProjections project(const torch::Tensor& x);
  double eps() const { return eps_; }
  // The stage's eps may differ from the model's (a larger one in half precision).
  void set_eps(double eps) { eps_ = eps; }
  // The block this module belongs to, as the numerical-health probe reports it (-1: none);
  // performer's random features are drawn from the block's own stream.
  int64_t block_index() const { return block_index_; }
  void set_block_index(int64_t index);
  FeatureMapKind feature_map_kind() const {
    return feature_map ? feature_map->kind() : FeatureMapKind::Elu1;
  }

  // window > 0 (odd): window+linear attention with that k, "window_mixing" registered (gamma = 1)
  // when absent; 0: plain linear attention, "window_mixing" removed. Throws
  // std::invalid_argument for an even or negative window, or with performer's feature map (its
  // per-query stabiliser would weigh the linear part arbitrarily against the window).
  void set_window(int64_t window);
  int64_t window() const { return window_; }
  // Where the patch grid is in the token sequence: `prefix` tokens (class, registers), then
  // grid_height x grid_width patches row by row. VisionTransformer::prepare_tokens sets the
  // input's grid; a sequence of another length is read as a square grid after the prefix.
  void set_token_grid(int64_t prefix, int64_t grid_height, int64_t grid_width);

  // LoRA on qkv and proj (LoLCATs' Stage 3, lora_linear.h). While present, the wrappers hold
  // the names "qkv" and "proj" (the layers' own weight and bias keep theirs, the factors are
  // qkv.lora_A, qkv.lora_B, proj.lora_A, proj.lora_B) and forward() runs through them.
  // merge_lora() folds B A into qkv/proj in place and removes the wrappers.
  void add_lora(int64_t rank, double alpha);
  void merge_lora();
  bool has_lora() const { return !qkv_lora.is_empty(); }

  torch::nn::Linear qkv{nullptr};
  torch::nn::Linear proj{nullptr};
  FeatureMap feature_map{nullptr};  // null for elu1
  LoraLinear qkv_lora{nullptr};     // null without LoRA
  LoraLinear proj_lora{nullptr};
  WindowMixing window_mixing{nullptr};  // null without a window

 private:
  torch::Tensor qkv_forward(const torch::Tensor& x);
  torch::Tensor proj_forward(const torch::Tensor& x);
  // Any feature map but elu1: the generic kernel (h in float32 under autocast).
  torch::Tensor forward_with_feature_map(const HeadProjections& h);
  // window > 0: window_linear_attention (h in float32 under autocast).
  torch::Tensor forward_with_window(const HeadProjections& h);
  // The output projection, reported to the numerical-health probe when one is installed.
  torch::Tensor project_output(const torch::Tensor& merged, const HeadProjections& h);

  int64_t num_heads_;
  double eps_;
  int64_t block_index_ = -1;
  int64_t window_ = 0;
  int64_t prefix_tokens_ = 0, grid_height_ = 0, grid_width_ = 0;
};
TORCH_MODULE(LinearAttention);

// Multi-head self-attention with a softmax path (timm's qkv/proj, the teacher's weights) and
// a linear path (the "linear" submodule, with or without a window). The mode says which one
// forward() runs: Softmax the softmax path, Linear and WindowLinear the linear path, which
// set_mode gives a window (the window() k) or takes it away. Setting Softmax leaves the linear
// path as it is, so a Stage-1 student keeps its window+linear branches while it runs softmax.
class AttentionImpl : public torch::nn::Module {
 public:
  AttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias, double linear_eps,
                FeatureMapKind feature_map = FeatureMapKind::Elu1,
                const PerformerOptions& performer = {});

  torch::Tensor forward(const torch::Tensor& x);
  torch::Tensor forward_softmax(const torch::Tensor& x);
  torch::Tensor forward_linear(const torch::Tensor& x) { return linear->forward(x); }
  HeadProjections project_softmax(const torch::Tensor& x);

  AttentionMode mode() const;
  void set_mode(AttentionMode mode);
  // The k that WindowLinear gives the linear path (default 3); a windowed path takes it now.
  void set_window(int64_t window);
  int64_t window() const { return window_; }
  // Softmax queries are chunked to this many rows when > 0 (memory-lean exact softmax).
  void set_softmax_chunk(int64_t chunk) { softmax_chunk_ = chunk; }
  // Copies qkv/proj into the linear path: the Stage-1 starting point.
  void init_linear_from_softmax();

  int64_t num_heads() const { return num_heads_; }
  double scale() const { return scale_; }

  torch::nn::Linear qkv{nullptr};
  torch::nn::Linear proj{nullptr};
  LinearAttention linear{nullptr};

 private:
  int64_t num_heads_;
  double scale_;
  bool linear_path_ = false;  // which path forward() runs
  int64_t window_ = 3;
  int64_t softmax_chunk_ = 0;
};
TORCH_MODULE(Attention);

// Splits a (B, N, 3D) qkv projection into per-head q, k, v (rows [Q | K | V], head-major).
HeadProjections split_heads(const torch::Tensor& qkv, int64_t num_heads);
// (B, heads, N, d) -> (B, N, heads * d)
torch::Tensor merge_heads(const torch::Tensor& x);

}  // namespace adala
