#pragma once
// Per-sample transforms with timm / DINOv2 conventions: training RandomResizedCrop + horizontal
// flip, evaluation resize (shorter side, or both sides for "squash") to res / crop_pct then
// centre crop, then normalisation. The geometry follows torchvision (integer boxes, Python's
// round-half-even); resampling is PIL's antialiased bilinear or bicubic. Plain C++ loops: no
// intra-op threads inside decode threads.
#include <ATen/core/Tensor.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/data/split_mix.h"

namespace adala {

// The resampling filter, as PIL's: bilinear (triangle, support 1) or bicubic (Keys' cubic with
// a = -0.5, support 2); both widened by the scale factor when shrinking (antialiasing).
enum class Interpolation { Bilinear, Bicubic };
const char* to_string(Interpolation interpolation);  // "bilinear" | "bicubic"
// Throws std::invalid_argument naming the allowed values.
Interpolation interpolation_from_string(const std::string& name);
// The filter's kernel at offset x (in source pixels at scale one) and its support.
double resample_kernel(Interpolation interpolation, double x);
double resample_support(Interpolation interpolation);

// timm's evaluation crop_mode: "center" resizes the shorter side to floor(res / crop_pct)
// (aspect kept), "squash" both sides (aspect lost); then a res x res centre crop. At crop_pct
// 1 squash is the whole image resized to res x res.
enum class CropMode { Center, Squash };
const char* to_string(CropMode mode);  // "center" | "squash"
CropMode crop_mode_from_string(const std::string& name);

// A box in pixels of the source image.
struct CropBox {
  int64_t top = 0, left = 0, height = 0, width = 0;
  bool operator==(const CropBox& o) const {
    return top == o.top && left == o.left && height == o.height && width == o.width;
  }
};

// torchvision's RandomResizedCrop.get_params: up to ten draws of an area fraction in `scale`
// and a log-uniform aspect ratio in `ratio`, then the central fallback. `uniform` returns
// numbers in [0, 1); each attempt takes four (area, log ratio, top, left).
CropBox random_resized_crop_box(int64_t height, int64_t width, std::array<double, 2> scale,
                                std::array<double, 2> ratio,
                                const std::function<double()>& uniform);

// timm's evaluation geometry: Center: the shorter side resized to floor(res / crop_pct) (the
// longer side as torchvision's Resize computes it); Squash: both sides to floor(res /
// crop_pct). Then a res x res centre crop of that.
struct EvalGeometry {
  int64_t resized_height = 0, resized_width = 0;
  CropBox crop;  // in the resized image
};
EvalGeometry eval_resize_crop_geometry(int64_t height, int64_t width, int64_t res, double crop_pct,
                                       CropMode mode = CropMode::Center);

// Resamples `box` of a (C, H, W) uint8 image to (C, out_h, out_w) float in [0, 255] with
// PIL's antialiased filter (taps clamped to the whole image, as PIL's box resize).
at::Tensor resize_box(const at::Tensor& image, double top, double left, double box_height,
                      double box_width, int64_t out_height, int64_t out_width,
                      Interpolation interpolation = Interpolation::Bilinear);

struct TransformSpec {
  // "timm": training RandomResizedCrop + flip, evaluation resize (`crop_mode`) + centre crop,
  // both to `resolution` with `interpolation`. "none": the image as it is (its size must equal
  // `resolution`), only scaled to [0, 1] and normalised; the stages' batch augmentation (shifts
  // and flips) applies instead.
  std::string preprocess = "timm";
  Interpolation interpolation = Interpolation::Bilinear;
  CropMode crop_mode = CropMode::Center;
  int64_t resolution = 224;
  double crop_pct = 0.875;
  std::array<double, 2> scale{0.08, 1.0};
  std::array<double, 2> ratio{3.0 / 4.0, 4.0 / 3.0};
  double hflip = 0.5;
  std::vector<double> mean{0.485, 0.456, 0.406};  // ImageNet
  std::vector<double> std{0.229, 0.224, 0.225};
};

// The ImageNet mean/std, and the identity that Fashion-MNIST uses (its pixels in [0, 1]).
std::vector<double> imagenet_mean();
std::vector<double> imagenet_std();

// (C, H, W) uint8 -> (C, res, res) float: the training or evaluation transform, then
// (x / 255 - mean) / std per channel. A one-entry mean/std applies to every channel.
// "none" also takes float images already in [0, 1] (used as they are, then normalised).
// `rng` draws the crop and the flip (training only). Throws std::invalid_argument naming the
// problem when the image does not fit the spec (wrong size for "none", channel count).
at::Tensor apply_transform(const at::Tensor& image, const TransformSpec& spec, bool training,
                           SplitMix64& rng);

// The generator of sample `index_in_batch` of global step `step`: the same numbers whatever
// thread decodes it and whenever.
SplitMix64 sample_generator(uint64_t seed, int64_t step, int64_t index_in_batch);

}  // namespace adala
