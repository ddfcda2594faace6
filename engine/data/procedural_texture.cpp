#include "engine/data/procedural_texture.h"

#include <cmath>
#include <vector>

#include <ATen/ops/upsample_bicubic2d.h>

#include "engine/data/split_mix.h"

namespace adala {

namespace {

at::Tensor color(const std::array<float, 3>& c) {
  return at::tensor(std::vector<float>(c.begin(), c.end())).view({3, 1, 1});
}

// Pixel-centre coordinates as fractions of the side: u along x, v along y, each (H, W).
std::pair<at::Tensor, at::Tensor> coordinates(int64_t height, int64_t width) {
  auto v = (at::arange(height, at::kFloat) + 0.5f) / float(height);
  auto u = (at::arange(width, at::kFloat) + 0.5f) / float(width);
  return {u.view({1, width}).expand({height, width}), v.view({height, 1}).expand({height, width})};
}

// Blends the two colours with weight t (H, W) in [0, 1] towards color_b.
at::Tensor blend(const TextureSpec& s, const at::Tensor& t) {
  auto w = t.unsqueeze(0);
  return color(s.color_a) * (1 - w) + color(s.color_b) * w;
}

at::Tensor value_noise(const TextureSpec& s, int64_t height, int64_t width) {
  const int64_t g = std::max<int64_t>(1, s.lattice) + 3;  // margin for the bicubic support
  SplitMix64 rng(s.noise_seed);
  std::vector<float> values(size_t(g * g));
  for (auto& v : values) v = float(rng.uniform());
  auto lattice = at::tensor(values).view({1, 1, g, g});
  // Sample the lattice's inner cells bicubically: upsample the whole lattice, crop the margin.
  const double cell_h = double(height) / double(g - 3), cell_w = double(width) / double(g - 3);
  const auto big_h = int64_t(std::ceil(cell_h * double(g))),
             big_w = int64_t(std::ceil(cell_w * double(g)));
  auto big = at::upsample_bicubic2d(lattice, {big_h, big_w}, false);
  const auto top = int64_t(std::llround(1.5 * cell_h)), left = int64_t(std::llround(1.5 * cell_w));
  auto t = big.view({big_h, big_w}).narrow(0, top, height).narrow(1, left, width);
  return blend(s, t.clamp(0.0, 1.0));
}

}  // namespace

const char* to_string(TextureKind kind) {
  switch (kind) {
    case TextureKind::Plain:
      return "plain";
    case TextureKind::Noise:
      return "noise";
    case TextureKind::Stripes:
      return "stripes";
    case TextureKind::Gradient:
      return "gradient";
    case TextureKind::Checker:
      return "checker";
  }
  return "?";
}

at::Tensor render_texture(const TextureSpec& s, int64_t height, int64_t width) {
  if (height <= 0 || width <= 0) throw std::invalid_argument("render_texture: empty image");
  if (s.kind == TextureKind::Plain) return color(s.color_a).expand({3, height, width}).contiguous();
  if (s.kind == TextureKind::Noise) return value_noise(s, height, width).contiguous();
  auto [u, v] = coordinates(height, width);
  const auto ca = float(std::cos(s.angle)), sa = float(std::sin(s.angle));
  const double period = std::max(s.period, 1e-3);
  at::Tensor t;
  if (s.kind == TextureKind::Stripes) {
    auto along = (u * ca + v * sa) * float(2.0 * M_PI / period) + float(s.phase);
    t = (at::sin(along) + 1) * 0.5f;
  } else if (s.kind == TextureKind::Gradient) {
    // Projection onto the direction, rescaled so the unit square spans [0, 1].
    const float lo = std::min(0.f, ca) + std::min(0.f, sa),
                hi = std::max(0.f, ca) + std::max(0.f, sa);
    t = ((u * ca + v * sa) - lo) / std::max(hi - lo, 1e-6f);
  } else {
    auto cells = at::floor(u / float(period)) + at::floor(v / float(period));
    t = at::remainder(cells, 2.0);
  }
  return blend(s, t).contiguous();
}

TextureSpec random_texture(SplitMix64& rng, double min_value, double max_value) {
  TextureSpec s;
  s.kind = static_cast<TextureKind>(rng.integer(0, 4));
  for (auto& c : s.color_a) c = float(rng.uniform(min_value, max_value));
  for (auto& c : s.color_b) c = float(rng.uniform(min_value, max_value));
  s.angle = rng.uniform(0.0, M_PI);
  s.period = rng.uniform(0.05, 0.3);
  s.phase = rng.uniform(0.0, 2.0 * M_PI);
  s.lattice = rng.integer(2, 8);
  s.noise_seed = rng.next();
  return s;
}

}  // namespace adala
