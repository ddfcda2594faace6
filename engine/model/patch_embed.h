#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/conv.h>

namespace adala {

// Image (B, C, H, W) -> patch tokens (B, (H/p)(W/p), D) through one strided convolution.
class PatchEmbedImpl : public torch::nn::Module {
 public:
  PatchEmbedImpl(int64_t in_chans, int64_t embed_dim, int64_t patch_size);
  torch::Tensor forward(const torch::Tensor& images);
  int64_t patch_size() const { return patch_size_; }

 private:
  int64_t patch_size_;
  torch::nn::Conv2d proj{nullptr};
};
TORCH_MODULE(PatchEmbed);

}  // namespace adala
