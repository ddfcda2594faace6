#pragma once
// Non-finite values in the gradients of the trained parameters, counted per transformer block
// (parameters named "blocks.<i>.…"; everything else - patch embedding, tokens, final norm,
// head - counts as block -1). One device-to-host copy per call.
#include <torch/nn/module.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace adala {

class GradientHealth {
 public:
  // `trained` are the parameters the optimiser updates; their names come from `named`.
  GradientHealth(torch::nn::Module& named, const std::vector<torch::Tensor>& trained);
  // Non-finite gradient values per block (only blocks with trained parameters appear).
  std::map<int64_t, double> nonfinite_counts() const;

 private:
  std::map<int64_t, std::vector<torch::Tensor>> by_block_;
};

// The block index of a dotted parameter name ("blocks.3.attn.qkv.weight" -> 3), -1 otherwise.
int64_t block_of_parameter(const std::string& name);

// "block 3" or "outside the blocks (patch embedding, tokens, final norm or head)".
std::string block_label(int64_t block);

}  // namespace adala
