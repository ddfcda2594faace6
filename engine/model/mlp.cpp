#include "engine/model/mlp.h"

#include <ATen/ATen.h>

namespace adala {

MlpImpl::MlpImpl(int64_t dim, int64_t hidden) {
  fc1 = register_module("fc1", torch::nn::Linear(dim, hidden));
  fc2 = register_module("fc2", torch::nn::Linear(hidden, dim));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x) {
  return fc2->forward(at::gelu(fc1->forward(x)));
}

LayerScaleImpl::LayerScaleImpl(int64_t dim, double init) {
  gamma = register_parameter("gamma", torch::full({dim}, init));
}

}  // namespace adala
