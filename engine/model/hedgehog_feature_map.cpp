#include "engine/model/hedgehog_feature_map.h"

#include <torch/autograd.h>

namespace adala {

HedgehogFeatureMapImpl::HedgehogFeatureMapImpl(int64_t num_heads, int64_t head_dim) {
  weight = register_parameter("weight", torch::empty({num_heads, head_dim, head_dim}));
  reset_to_identity();
}

void HedgehogFeatureMapImpl::reset_to_identity() {
  torch::NoGradGuard no_grad;
  weight.copy_(torch::eye(weight.size(1), weight.options()).expand_as(weight));
}

torch::Tensor HedgehogFeatureMapImpl::forward(const torch::Tensor& x) {
  // (B, H, N, d) @ (H, d_in, d_out) broadcasts over the batch: y[..., f] = sum_i W[h, f, i] x_i.
  auto y = torch::matmul(x, weight.to(x.scalar_type()).transpose(-2, -1));
  return torch::cat({torch::softmax(y, -1), torch::softmax(-y, -1)}, -1);
}

}  // namespace adala
