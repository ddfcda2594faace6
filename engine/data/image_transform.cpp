#include "engine/data/image_transform.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace adala {

namespace {

// Python's round(): halves go to the even neighbour (the default FE_TONEAREST mode).
int64_t round_half_even(double x) { return static_cast<int64_t>(std::nearbyint(x)); }

// One axis of a resample: for each output pixel, the first source pixel and its weights.
struct AxisTaps {
  std::vector<int64_t> first, count;
  std::vector<float> weights;  // count.size() rows of `stride` entries
  int64_t stride = 0;
};

double bicubic_kernel(double x) {
  constexpr double a = -0.5;
  x = std::abs(x);
  if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
  if (x < 2.0) return (((x - 5.0) * x + 8.0) * x - 4.0) * a;
  return 0.0;
}

// PIL's precompute_coeffs, antialiased when shrinking: the filter is widened by the scale.
AxisTaps axis_taps(int64_t in_size, double box_start, double box_length, int64_t out_size,
                   Interpolation interpolation) {
  const double scale = box_length / double(out_size);
  const double filter_scale = std::max(scale, 1.0);
  const double support = resample_support(interpolation) * filter_scale;
  AxisTaps t;
  t.stride = int64_t(std::ceil(support)) * 2 + 1;
  t.first.resize(size_t(out_size));
  t.count.resize(size_t(out_size));
  t.weights.assign(size_t(out_size * t.stride), 0.0f);
  std::vector<double> w(size_t(t.stride));
  for (int64_t o = 0; o < out_size; ++o) {
    const double center = box_start + (double(o) + 0.5) * scale;
    const int64_t lo = std::max<int64_t>(static_cast<int64_t>(center - support + 0.5), 0);
    const int64_t hi = std::min<int64_t>(static_cast<int64_t>(center + support + 0.5), in_size);
    const int64_t n = std::min(std::max<int64_t>(hi - lo, 0), t.stride);
    double total = 0.0;
    for (int64_t k = 0; k < n; ++k) {
      w[size_t(k)] = resample_kernel(interpolation, (double(k + lo) - center + 0.5) / filter_scale);
      total += w[size_t(k)];
    }
    for (int64_t k = 0; k < n; ++k)
      t.weights[size_t(o * t.stride + k)] = float(total != 0.0 ? w[size_t(k)] / total : 0.0);
    t.first[size_t(o)] = lo;
    t.count[size_t(o)] = n;
  }
  return t;
}

void check_image(const at::Tensor& image) {
  if (image.dim() != 3 || image.scalar_type() != at::kByte || !image.is_contiguous())
    throw std::invalid_argument("image transform: expected a contiguous (C, H, W) uint8 image");
}

std::vector<float> per_channel(const std::vector<double>& values, int64_t channels,
                               const char* what) {
  if (values.size() == 1) return std::vector<float>(size_t(channels), float(values[0]));
  if (int64_t(values.size()) != channels)
    throw std::invalid_argument(std::string("image transform: ") + what + " has " +
                                std::to_string(values.size()) + " entries for " +
                                std::to_string(channels) + "-channel images");
  return std::vector<float>(values.begin(), values.end());
}

bool is_identity(const std::vector<double>& mean, const std::vector<double>& std) {
  return std::all_of(mean.begin(), mean.end(), [](double m) { return m == 0.0; }) &&
         std::all_of(std.begin(), std.end(), [](double s) { return s == 1.0; });
}

}  // namespace

const char* to_string(Interpolation interpolation) {
  return interpolation == Interpolation::Bicubic ? "bicubic" : "bilinear";
}

Interpolation interpolation_from_string(const std::string& name) {
  if (name == "bilinear") return Interpolation::Bilinear;
  if (name == "bicubic") return Interpolation::Bicubic;
  throw std::invalid_argument("unknown interpolation \"" + name +
                              "\" (allowed: bilinear, bicubic)");
}

double resample_kernel(Interpolation interpolation, double x) {
  if (interpolation == Interpolation::Bicubic) return bicubic_kernel(x);
  return std::max(0.0, 1.0 - std::abs(x));
}

double resample_support(Interpolation interpolation) {
  return interpolation == Interpolation::Bicubic ? 2.0 : 1.0;
}

const char* to_string(CropMode mode) { return mode == CropMode::Squash ? "squash" : "center"; }

CropMode crop_mode_from_string(const std::string& name) {
  if (name == "center") return CropMode::Center;
  if (name == "squash") return CropMode::Squash;
  throw std::invalid_argument("unknown crop mode \"" + name + "\" (allowed: center, squash)");
}

CropBox random_resized_crop_box(int64_t height, int64_t width, std::array<double, 2> scale,
                                std::array<double, 2> ratio,
                                const std::function<double()>& uniform) {
  const double area = double(height) * double(width);
  const double log_lo = std::log(ratio[0]), log_hi = std::log(ratio[1]);
  for (int attempt = 0; attempt < 10; ++attempt) {
    const double target_area = area * (scale[0] + (scale[1] - scale[0]) * uniform());
    const double aspect = std::exp(log_lo + (log_hi - log_lo) * uniform());
    const int64_t w = round_half_even(std::sqrt(target_area * aspect));
    const int64_t h = round_half_even(std::sqrt(target_area / aspect));
    const double u_top = uniform(), u_left = uniform();
    if (w > 0 && w <= width && h > 0 && h <= height) {
      const int64_t top = std::min(int64_t(u_top * double(height - h + 1)), height - h);
      const int64_t left = std::min(int64_t(u_left * double(width - w + 1)), width - w);
      return {top, left, h, w};
    }
  }
  const double in_ratio = double(width) / double(height);
  int64_t w = width, h = height;
  if (in_ratio < std::min(ratio[0], ratio[1])) {
    h = round_half_even(double(w) / std::min(ratio[0], ratio[1]));
  } else if (in_ratio > std::max(ratio[0], ratio[1])) {
    w = round_half_even(double(h) * std::max(ratio[0], ratio[1]));
  }
  return {(height - h) / 2, (width - w) / 2, h, w};
}

EvalGeometry eval_resize_crop_geometry(int64_t height, int64_t width, int64_t res, double crop_pct,
                                       CropMode mode) {
  const int64_t size = static_cast<int64_t>(std::floor(double(res) / crop_pct));
  EvalGeometry g;
  // Squash: torchvision's Resize((size, size)). Center: Resize(int), the shorter side becomes
  // `size`, the longer int(size * long / short).
  if (mode == CropMode::Squash) {
    g.resized_height = g.resized_width = size;
  } else if (width <= height) {
    g.resized_width = size;
    g.resized_height = static_cast<int64_t>(double(size) * double(height) / double(width));
  } else {
    g.resized_height = size;
    g.resized_width = static_cast<int64_t>(double(size) * double(width) / double(height));
  }
  g.crop = {round_half_even(double(g.resized_height - res) / 2.0),
            round_half_even(double(g.resized_width - res) / 2.0), res, res};
  return g;
}

at::Tensor resize_box(const at::Tensor& image, double top, double left, double box_height,
                      double box_width, int64_t out_height, int64_t out_width,
                      Interpolation interpolation) {
  check_image(image);
  const int64_t c = image.size(0), h = image.size(1), w = image.size(2);
  const AxisTaps xs = axis_taps(w, left, box_width, out_width, interpolation);
  const AxisTaps ys = axis_taps(h, top, box_height, out_height, interpolation);
  const int64_t row_lo = ys.first.empty() ? 0 : *std::min_element(ys.first.begin(), ys.first.end());
  int64_t row_hi = row_lo;
  for (size_t o = 0; o < ys.first.size(); ++o) row_hi = std::max(row_hi, ys.first[o] + ys.count[o]);
  const uint8_t* src = image.data_ptr<uint8_t>();
  // Bicubic's negative lobes overshoot. PIL's 8-bit resample clips (and rounds) to [0, 255]
  // after each pass, so each pass's output is clamped to [0, 255] here too, without the
  // rounding; a no-op for bilinear (non-negative weights) beyond float round-off.
  const auto clamp = [](float v) { return std::min(std::max(v, 0.0f), 255.0f); };
  // Horizontal pass over the rows the vertical taps touch, then the vertical pass. The buffer
  // stays with the decode thread (every element is written before it is read).
  thread_local std::vector<float> rows;
  rows.resize(size_t(c * (row_hi - row_lo) * out_width));
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t y = row_lo; y < row_hi; ++y) {
      const uint8_t* in = src + (ch * h + y) * w;
      float* out = rows.data() + (ch * (row_hi - row_lo) + (y - row_lo)) * out_width;
      for (int64_t x = 0; x < out_width; ++x) {
        const float* k = xs.weights.data() + x * xs.stride;
        const uint8_t* p = in + xs.first[size_t(x)];
        float acc = 0.0f;
        for (int64_t t = 0; t < xs.count[size_t(x)]; ++t) acc += k[t] * float(p[t]);
        out[x] = clamp(acc);
      }
    }
  at::Tensor result = at::empty({c, out_height, out_width}, at::kFloat);
  float* dst = result.data_ptr<float>();
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t y = 0; y < out_height; ++y) {
      const float* k = ys.weights.data() + y * ys.stride;
      float* out = dst + (ch * out_height + y) * out_width;
      std::fill(out, out + out_width, 0.0f);
      for (int64_t t = 0; t < ys.count[size_t(y)]; ++t) {
        const float* in =
            rows.data() + (ch * (row_hi - row_lo) + (ys.first[size_t(y)] + t - row_lo)) * out_width;
        for (int64_t x = 0; x < out_width; ++x) out[x] += k[t] * in[x];
      }
      for (int64_t x = 0; x < out_width; ++x) out[x] = clamp(out[x]);
    }
  return result;
}

std::vector<double> imagenet_mean() { return {0.485, 0.456, 0.406}; }
std::vector<double> imagenet_std() { return {0.229, 0.224, 0.225}; }

at::Tensor apply_transform(const at::Tensor& image, const TransformSpec& spec, bool training,
                           SplitMix64& rng) {
  if (image.dim() != 3) throw std::invalid_argument("image transform: expected a (C, H, W) image");
  const int64_t c = image.size(0), h = image.size(1), w = image.size(2);
  const std::vector<float> mean = per_channel(spec.mean, c, "mean");
  const std::vector<float> std = per_channel(spec.std, c, "std");
  const int64_t res = spec.resolution;
  if (spec.preprocess == "none") {
    if (h != res || w != res)
      throw std::invalid_argument("image is " + std::to_string(h) + "x" + std::to_string(w) +
                                  ", preprocess \"none\" needs " + std::to_string(res) + "x" +
                                  std::to_string(res));
    const bool identity = is_identity(spec.mean, spec.std);
    // uint8: the same operation as load_fashion_mnist, so the values match it bit for bit.
    // float (in-memory, already in [0, 1]): as it is, copied before normalising in place.
    at::Tensor x = image.scalar_type() == at::kByte ? image.to(at::kFloat).div_(255.0)
                                                    : image.to(at::kFloat, false, !identity);
    if (identity) return x;
    for (int64_t ch = 0; ch < c; ++ch) x[ch].sub_(mean[size_t(ch)]).div_(std[size_t(ch)]);
    return x;
  }
  if (spec.preprocess != "timm")
    throw std::invalid_argument("unknown preprocess \"" + spec.preprocess + "\"");
  check_image(image);
  at::Tensor x;
  bool flip = false;
  if (training) {
    const CropBox box =
        random_resized_crop_box(h, w, spec.scale, spec.ratio, [&] { return rng.uniform(); });
    x = resize_box(image, double(box.top), double(box.left), double(box.height), double(box.width),
                   res, res, spec.interpolation);
    flip = rng.uniform() < spec.hflip;
  } else {
    const EvalGeometry g = eval_resize_crop_geometry(h, w, res, spec.crop_pct, spec.crop_mode);
    // The crop of the resized image, resampled directly: output pixel (i, j) of the crop is
    // pixel (top + i, left + j) of the full resize.
    const double sy = double(h) / double(g.resized_height),
                 sx = double(w) / double(g.resized_width);
    x = resize_box(image, double(g.crop.top) * sy, double(g.crop.left) * sx, double(res) * sy,
                   double(res) * sx, res, res, spec.interpolation);
  }
  float* p = x.data_ptr<float>();
  for (int64_t ch = 0; ch < c; ++ch) {
    const float scale = 1.0f / (255.0f * std[size_t(ch)]),
                shift = mean[size_t(ch)] / std[size_t(ch)];
    float* plane = p + ch * res * res;
    for (int64_t i = 0; i < res * res; ++i) plane[i] = plane[i] * scale - shift;
    if (flip)
      for (int64_t y = 0; y < res; ++y) std::reverse(plane + y * res, plane + (y + 1) * res);
  }
  return x;
}

SplitMix64 sample_generator(uint64_t seed, int64_t step, int64_t index_in_batch) {
  return SplitMix64(SplitMix64::mix(seed ^ 0x5DEECE66Dull) ^ uint64_t(step),
                    uint64_t(index_in_batch));
}

}  // namespace adala
