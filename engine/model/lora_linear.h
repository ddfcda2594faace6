#pragma once
// LoRA (Hu et al. 2021) on a torch::nn::Linear: y = x W^T + b + (alpha / r) x A^T B^T, with
// A (r x in) drawn like a Linear's weight (Kaiming-uniform, a = sqrt(5), as PEFT does) and
// B (out x r) zero, so a fresh wrapper computes exactly what the wrapped layer does.
// The wrapper registers the wrapped layer's own tensors under their own names and the two
// factors beside them, so wrapping qkv in place of the Linear keeps every existing name:
//   <layer>.weight, <layer>.bias (the wrapped layer's tensors, shared, not copied)
//   <layer>.lora_A (r x in), <layer>.lora_B (out x r)
// Freezing W and b (and anything else) is the caller's choice; the wrapper changes no
// requires_grad flag of the wrapped tensors.
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

namespace adala {

class LoraLinearImpl : public torch::nn::Module {
 public:
  LoraLinearImpl(const torch::nn::Linear& wrapped, int64_t rank, double alpha);

  torch::Tensor forward(const torch::Tensor& x);
  // A plain Linear with weight W + (alpha / r) B A and the same bias (new tensors; the wrapper
  // is unchanged).
  torch::nn::Linear merge() const;

  int64_t rank() const { return rank_; }
  double alpha() const { return alpha_; }
  double scaling() const { return alpha_ / static_cast<double>(rank_); }

  torch::Tensor weight;  // the wrapped layer's (out x in)
  torch::Tensor bias;    // the wrapped layer's (out), undefined when it has none
  torch::Tensor lora_A;  // (rank x in)
  torch::Tensor lora_B;  // (out x rank)

 private:
  int64_t rank_;
  double alpha_;
};
TORCH_MODULE(LoraLinear);

}  // namespace adala
