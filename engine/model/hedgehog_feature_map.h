#pragma once
// Hedgehog's learned feature map (Zhang et al. 2024; LoLCATs uses it per layer):
//   phi(x) = [softmax(W_h x), softmax(-W_h x)]   (softmax over the feature dimension)
// one W_h (head_dim x head_dim, no bias) per head h, initialised to the identity. The features
// are positive and sum to 2 per token, so the normaliser phi(q) . sum_n phi(k_n) never reaches 0.
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

namespace adala {

class HedgehogFeatureMapImpl : public torch::nn::Module {
 public:
  HedgehogFeatureMapImpl(int64_t num_heads, int64_t head_dim);
  // x: (B, heads, N, head_dim) -> (B, heads, N, 2 * head_dim), in x's type (W converted to it).
  torch::Tensor forward(const torch::Tensor& x);
  // W back to the identity for every head.
  void reset_to_identity();

  torch::Tensor weight;  // (heads, head_dim out, head_dim in): y = W_h x
};
TORCH_MODULE(HedgehogFeatureMap);

}  // namespace adala
