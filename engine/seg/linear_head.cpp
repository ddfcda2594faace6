#include "engine/seg/linear_head.h"

#include <stdexcept>
#include <string>

#include <torch/nn/functional/pixelshuffle.h>
#include <torch/nn/functional/upsampling.h>
#include <torch/nn/init.h>

namespace adala {

torch::Tensor tokens_to_grid(const torch::Tensor& tokens, int64_t grid_h, int64_t grid_w) {
  if (tokens.dim() != 3 || tokens.size(1) != grid_h * grid_w)
    throw std::invalid_argument("tokens_to_grid: expected (B, " + std::to_string(grid_h * grid_w) +
                                ", D) patch tokens");
  return tokens.transpose(1, 2).reshape({tokens.size(0), tokens.size(2), grid_h, grid_w});
}

torch::Tensor resize_bilinear(const torch::Tensor& maps, int64_t out_h, int64_t out_w) {
  if (maps.size(-2) == out_h && maps.size(-1) == out_w) return maps;
  namespace F = torch::nn::functional;
  return F::interpolate(maps, F::InterpolateFuncOptions()
                                  .size(std::vector<int64_t>{out_h, out_w})
                                  .mode(torch::kBilinear)
                                  .align_corners(false));
}

void check_head_upsample(int64_t upsample, const char* what) {
  if (upsample < 1 || upsample > kMaxHeadUpsample)
    throw std::invalid_argument(std::string(what) + ": upsample " + std::to_string(upsample) +
                                " outside 1.." + std::to_string(kMaxHeadUpsample));
}

LinearSegmentationHeadImpl::LinearSegmentationHeadImpl(int64_t embed_dim, int64_t num_classes,
                                                       int64_t upsample)
    : upsample_(upsample) {
  check_head_upsample(upsample, "LinearSegmentationHead");
  bn = register_module("bn", torch::nn::BatchNorm2d(embed_dim));
  conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(
                                     embed_dim, num_classes * upsample * upsample, 1)));
  torch::NoGradGuard no_grad;
  torch::nn::init::normal_(conv->weight, 0.0, 0.01);
  conv->bias.zero_();
}

torch::Tensor LinearSegmentationHeadImpl::grid_logits(const torch::Tensor& tokens, int64_t grid_h,
                                                      int64_t grid_w) {
  auto logits = conv->forward(bn->forward(tokens_to_grid(tokens, grid_h, grid_w)));
  // Channel c * u^2 + i * u + j is class c at sub-position (i, j) of its patch.
  namespace F = torch::nn::functional;
  return upsample_ == 1 ? logits : F::pixel_shuffle(logits, F::PixelShuffleFuncOptions(upsample_));
}

torch::Tensor LinearSegmentationHeadImpl::forward(const torch::Tensor& tokens, int64_t grid_h,
                                                  int64_t grid_w, int64_t out_h, int64_t out_w) {
  return resize_bilinear(grid_logits(tokens, grid_h, grid_w), out_h, out_w);
}

}  // namespace adala
