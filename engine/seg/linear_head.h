#pragma once
// DINOv2's linear segmentation probe: BatchNorm + 1x1 convolution on the patch tokens laid
// out on the patch grid, logits upsampled bilinearly to the image size. With upsample u > 1
// each token's linear map gives u x u sub-patch logits (pixel shuffle), so the head can draw
// boundaries inside a patch: still one linear map per token, u^2 times as many outputs.
#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>

namespace adala {

// The largest sub-patch factor a head may predict at (a 16 px patch drawn pixel by pixel).
inline constexpr int64_t kMaxHeadUpsample = 16;
// Throws std::invalid_argument naming `what` unless 1 <= upsample <= kMaxHeadUpsample.
void check_head_upsample(int64_t upsample, const char* what);

class LinearSegmentationHeadImpl : public torch::nn::Module {
 public:
  // Throws std::invalid_argument unless 1 <= upsample <= kMaxHeadUpsample.
  LinearSegmentationHeadImpl(int64_t embed_dim, int64_t num_classes, int64_t upsample = 1);
  // tokens: (B, gh * gw, D) patch tokens (no prefix). Returns (B, C, out_h, out_w) logits.
  torch::Tensor forward(const torch::Tensor& tokens, int64_t grid_h, int64_t grid_w, int64_t out_h,
                        int64_t out_w);
  // The logits on the patch grid (u x finer), before bilinear resizing: (B, C, gh u, gw u).
  torch::Tensor grid_logits(const torch::Tensor& tokens, int64_t grid_h, int64_t grid_w);

  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Conv2d conv{nullptr};

 private:
  int64_t upsample_ = 1;
};
TORCH_MODULE(LinearSegmentationHead);

// (B, gh * gw, D) -> (B, D, gh, gw)
torch::Tensor tokens_to_grid(const torch::Tensor& tokens, int64_t grid_h, int64_t grid_w);
// Bilinear resize of (B, C, h, w) maps, align_corners = false.
torch::Tensor resize_bilinear(const torch::Tensor& maps, int64_t out_h, int64_t out_w);

}  // namespace adala
