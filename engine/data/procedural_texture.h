#pragma once
// Deterministic procedural backgrounds for the synthetic segmentation scenes. Every length is
// a fraction of the image side, so one spec renders the same picture at any resolution.
#include <ATen/ATen.h>

#include <array>
#include <cstdint>
#include <string>

namespace adala {

class SplitMix64;

enum class TextureKind { Plain, Noise, Stripes, Gradient, Checker };
const char* to_string(TextureKind kind);

struct TextureSpec {
  TextureKind kind = TextureKind::Plain;
  std::array<float, 3> color_a{0.f, 0.f, 0.f};  // RGB in [0, 1]
  std::array<float, 3> color_b{0.f, 0.f, 0.f};
  double angle = 0.0;    // radians: stripe normal / gradient direction
  double period = 0.25;  // stripes and checker cells, fraction of the side
  double phase = 0.0;    // stripes, radians
  int64_t lattice = 4;   // noise: lattice cells per side (value noise, bicubic)
  uint64_t noise_seed = 0;
};

// (3, height, width) float in [0, 1].
at::Tensor render_texture(const TextureSpec& spec, int64_t height, int64_t width);

// A random texture of any kind with colours in [min_value, max_value].
TextureSpec random_texture(SplitMix64& rng, double min_value, double max_value);

}  // namespace adala
