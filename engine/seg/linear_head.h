#pragma once
// DINOv2's linear segmentation probe: BatchNorm + 1x1 convolution on the patch tokens laid
// out on the patch grid, logits upsampled bilinearly to the image size.
#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>

namespace adala {

class LinearSegmentationHeadImpl : public torch::nn::Module {
 public:
  LinearSegmentationHeadImpl(int64_t embed_dim, int64_t num_classes);
  // tokens: (B, gh * gw, D) patch tokens (no prefix). Returns (B, C, out_h, out_w) logits.
  torch::Tensor forward(const torch::Tensor& tokens, int64_t grid_h, int64_t grid_w, int64_t out_h,
                        int64_t out_w);
  // The logits on the patch grid, before upsampling: (B, C, gh, gw).
  torch::Tensor grid_logits(const torch::Tensor& tokens, int64_t grid_h, int64_t grid_w);

  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Conv2d conv{nullptr};
};
TORCH_MODULE(LinearSegmentationHead);

// (B, gh * gw, D) -> (B, D, gh, gw)
torch::Tensor tokens_to_grid(const torch::Tensor& tokens, int64_t grid_h, int64_t grid_w);
// Bilinear resize of (B, C, h, w) maps, align_corners = false.
torch::Tensor resize_bilinear(const torch::Tensor& maps, int64_t out_h, int64_t out_w);

}  // namespace adala
