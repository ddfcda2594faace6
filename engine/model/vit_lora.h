#pragma once
// LoRA on every block's linear attention (LoLCATs' Stage 3): the q/k/v and output projections
// of each blocks.{i}.attn.linear get LoraLinear wrappers (lora_linear.h) under their own names,
// so the factors are blocks.{i}.attn.linear.qkv.lora_A ... proj.lora_B.
#include <ATen/ATen.h>

#include <vector>

#include "engine/model/vision_transformer.h"

namespace adala {

void add_linear_attention_lora(VisionTransformer& model, int64_t rank, double alpha);
// The LoRA factors of every block, block order, qkv before proj, A before B.
std::vector<at::Tensor> linear_attention_lora_parameters(VisionTransformer& model);
// Folds every block's factors into its projections (W += alpha / r * B A) and removes them.
void merge_linear_attention_lora(VisionTransformer& model);

}  // namespace adala
