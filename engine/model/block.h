#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/normalization.h>

#include "engine/model/attention.h"
#include "engine/model/mlp.h"
#include "engine/model/vit_config.h"

namespace adala {

// What a block produces when asked for both attention paths at once (Stage 1).
struct BlockAlignmentOutput {
  torch::Tensor next;          // block output along the softmax (teacher) path
  torch::Tensor softmax_attn;  // target: softmax attention output on norm1(x)
  torch::Tensor linear_attn;   // prediction: linear attention output on the same input
};

// Pre-norm transformer block: x + ls1(attn(norm1 x)); x + ls2(mlp(norm2 x)).
class BlockImpl : public torch::nn::Module {
 public:
  explicit BlockImpl(const ViTConfig& config);
  torch::Tensor forward(const torch::Tensor& x);
  // Teacher path without gradients; the linear path keeps its graph so Stage 1 can train it.
  BlockAlignmentOutput forward_alignment(const torch::Tensor& x);
  // The block along its softmax (teacher) path, whatever its mode.
  torch::Tensor forward_softmax(const torch::Tensor& x);
  torch::Tensor attention_input(const torch::Tensor& x) { return norm1->forward(x); }
  // The block's position in its model, reported with its numerical health (numerical_health.h).
  void set_index(int64_t index);
  int64_t index() const { return index_; }

  torch::nn::LayerNorm norm1{nullptr};
  Attention attn{nullptr};
  LayerScale ls1{nullptr};
  torch::nn::LayerNorm norm2{nullptr};
  Mlp mlp{nullptr};
  LayerScale ls2{nullptr};

 private:
  int64_t index_ = -1;
  torch::Tensor residual_attn(const torch::Tensor& x, const torch::Tensor& attn_out);
  torch::Tensor residual_mlp(const torch::Tensor& x);
};
TORCH_MODULE(Block);

}  // namespace adala
