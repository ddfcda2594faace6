#pragma once
// Analytic operation counts of a ViT forward pass, in multiply-accumulates (1 MAC = one
// multiply plus one add). Multiply by 2 for the "2 FLOPs per MAC" convention of
// torch.utils.flop_counter; fvcore/mmengine and the ViT-AdaLA paper count 1 MAC as 1 FLOP.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/vit_config.h"

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

// MACs of one forward pass of one image of side height x width.
ModelFlops model_flops(const ViTConfig& config, AttentionMode mode, int64_t height, int64_t width);

}  // namespace adala
