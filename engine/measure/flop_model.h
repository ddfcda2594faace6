#pragma once
// Analytic operation counts of a ViT forward pass, in multiply-accumulates (1 MAC = one
// multiply plus one add). Multiply by 2 for the "2 FLOPs per MAC" convention of
// torch.utils.flop_counter; fvcore/mmengine and the ViT-AdaLA paper count 1 MAC as 1 FLOP.
// Counted: every matmul and convolution (patch embed, qkv, Q K^T, A V or the two linear-
// attention products, proj, MLP, head). Not counted: elementwise work (softmax, GELU,
// LayerNorm, phi, the normaliser division, residual adds), as fvcore does not count it.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/attention_plan.h"
#include "engine/model/vit_config.h"

namespace adala {

struct LayerFlops {
  double qkv = 0, attention = 0, proj = 0, mlp = 0;
  double attention_sublayer() const { return qkv + attention + proj; }
  double total() const { return qkv + attention + proj + mlp; }
};

struct ModelFlops {
  int64_t tokens = 0;
  double patch_embed = 0;
  LayerFlops per_layer;
  int64_t depth = 0;
  double head = 0;
  double total() const { return patch_embed + per_layer.total() * depth + head; }
  // The paper's convention (our reconstruction): attention sub-layers + patch embedding.
  double attention_only() const { return patch_embed + per_layer.attention_sublayer() * depth; }
};

// MACs of one forward pass of one image of side height x width. Window+linear blocks count
// window_linear_attention_macs (window_linear_attention.h) with a `window` x `window` window,
// phi of head_dim features (elu1).
ModelFlops model_flops(const ViTConfig& config, AttentionMode mode, int64_t height, int64_t width,
                       int64_t window = kDefaultAttentionWindow);
// The same for a plan (attention_plan.h): per_layer is the mean over its blocks.
ModelFlops model_flops(const ViTConfig& config, const AttentionPlan& plan, int64_t height,
                       int64_t width);

// MACs of one attention kernel call on (batch_heads, n, head_dim) q, k, v: softmax
// 2 * BH * N^2 * d (Q K^T and A V); linear 2 * BH * N * d * (d + 1) (phi(K)^T [V | 1] and
// phi(Q) times that; the ones column is the normaliser). Throws std::invalid_argument for
// window+linear, whose count needs the grid (window_linear_attention_macs).
double attention_kernel_macs(AttentionMode mode, int64_t batch_heads, int64_t n, int64_t head_dim);

// The ViT-AdaLA paper's ViT-L figures at 1024^2 (GFLOPs, 1 MAC = 1 FLOP).
constexpr double kPaperViTL1024SoftmaxGFlops = 1241.0;
constexpr double kPaperViTL1024LinearGFlops = 429.35;

// What `adala bench flops` prints: per-layer breakdown, whole-model and attention-only
// totals for both modes in both conventions, and the paper's figures where they apply.
std::string format_flops_report(const ViTConfig& config, int64_t height, int64_t width);

}  // namespace adala
