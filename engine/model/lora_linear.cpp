#include "engine/model/lora_linear.h"

#include <torch/autograd.h>
#include <torch/nn/functional/linear.h>
#include <torch/nn/init.h>

#include <cmath>
#include <stdexcept>

namespace adala {

LoraLinearImpl::LoraLinearImpl(const torch::nn::Linear& wrapped, int64_t rank, double alpha)
    : rank_(rank), alpha_(alpha) {
  if (rank <= 0) throw std::invalid_argument("LoRA rank must be > 0, got " + std::to_string(rank));
  const int64_t out = wrapped->weight.size(0), in = wrapped->weight.size(1);
  weight = register_parameter("weight", wrapped->weight, wrapped->weight.requires_grad());
  if (wrapped->bias.defined())
    bias = register_parameter("bias", wrapped->bias, wrapped->bias.requires_grad());
  const auto options = wrapped->weight.options();
  lora_A = register_parameter("lora_A", torch::empty({rank, in}, options));
  lora_B = register_parameter("lora_B", torch::zeros({out, rank}, options));
  torch::NoGradGuard no_grad;
  torch::nn::init::kaiming_uniform_(lora_A, std::sqrt(5.0));
}

torch::Tensor LoraLinearImpl::forward(const torch::Tensor& x) {
  namespace F = torch::nn::functional;
  auto base = F::linear(x, weight, bias);
  return base + F::linear(F::linear(x, lora_A), lora_B) * scaling();
}

torch::nn::Linear LoraLinearImpl::merge() const {
  torch::NoGradGuard no_grad;
  torch::nn::Linear merged(
      torch::nn::LinearOptions(weight.size(1), weight.size(0)).bias(bias.defined()));
  merged->to(weight.device(), weight.scalar_type());
  merged->weight.copy_(weight + torch::matmul(lora_B, lora_A) * scaling());
  if (bias.defined()) merged->bias.copy_(bias);
  return merged;
}

}  // namespace adala
