#include "engine/model/vit_lora.h"

namespace adala {

void add_linear_attention_lora(VisionTransformer& model, int64_t rank, double alpha) {
  for (int64_t b = 0; b < model->depth(); ++b) model->block(b)->attn->linear->add_lora(rank, alpha);
}

std::vector<at::Tensor> linear_attention_lora_parameters(VisionTransformer& model) {
  std::vector<at::Tensor> out;
  for (int64_t b = 0; b < model->depth(); ++b) {
    auto& linear = model->block(b)->attn->linear;
    if (!linear->has_lora()) continue;
    for (auto* l : {&linear->qkv_lora, &linear->proj_lora}) {
      out.push_back((*l)->lora_A);
      out.push_back((*l)->lora_B);
    }
  }
  return out;
}

void merge_linear_attention_lora(VisionTransformer& model) {
  for (int64_t b = 0; b < model->depth(); ++b) model->block(b)->attn->linear->merge_lora();
}

}  // namespace adala
