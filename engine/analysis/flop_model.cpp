#include "engine/analysis/flop_model.h"

namespace adala {

ModelFlops model_flops(const ViTConfig& c, AttentionMode mode, int64_t height, int64_t width) {
  ModelFlops f;
  const double patches = double(height / c.patch_size) * double(width / c.patch_size);
  const double n = patches + double(c.num_prefix_tokens());
  const double d_model = double(c.embed_dim), d_head = double(c.head_dim());
  f.tokens = static_cast<int64_t>(n);
  f.depth = c.depth;
  f.patch_embed = patches * double(c.in_chans * c.patch_size * c.patch_size) * d_model;
  f.per_layer.qkv = 3.0 * n * d_model * d_model;
  f.per_layer.proj = n * d_model * d_model;
  f.per_layer.mlp = 2.0 * n * d_model * double(c.mlp_hidden());
  if (mode == AttentionMode::Softmax) {
    f.per_layer.attention = 2.0 * n * n * d_model;  // Q K^T and A V
  } else {
    // phi(K)^T [V | 1] and phi(Q) (that): the ones column is the normaliser.
    f.per_layer.attention = 2.0 * n * d_model * (d_head + 1.0);
  }
  f.head = c.num_classes > 0 ? d_model * double(c.num_classes) : 0.0;
  return f;
}

}  // namespace adala
