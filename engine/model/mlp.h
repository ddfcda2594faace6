#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>

namespace adala {

// fc1 -> GELU -> fc2, as timm's Mlp.
class MlpImpl : public torch::nn::Module {
 public:
  MlpImpl(int64_t dim, int64_t hidden);
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::Linear fc1{nullptr};
  torch::nn::Linear fc2{nullptr};
};
TORCH_MODULE(Mlp);

// Per-channel scale (timm's LayerScale, parameter "gamma").
class LayerScaleImpl : public torch::nn::Module {
 public:
  LayerScaleImpl(int64_t dim, double init);
  torch::Tensor forward(const torch::Tensor& x) { return x * gamma; }

 private:
  torch::Tensor gamma;
};
TORCH_MODULE(LayerScale);

}  // namespace adala
