#pragma once
// PNG files through OpenCV: RGB images and 8-bit single-channel label maps.
#include <ATen/ATen.h>

#include <string>

namespace adala {

// image: (3, H, W) float RGB in [0, 1] (clamped) or uint8. Creates no folders.
void write_rgb_png(const std::string& path, const at::Tensor& image);
// labels: (H, W) integers in 0..255, stored as an 8-bit grey PNG.
void write_label_png(const std::string& path, const at::Tensor& labels);
// (H, W) uint8; throws std::runtime_error naming the file when it cannot be read or is not
// an 8-bit single-channel image.
at::Tensor read_label_png(const std::string& path);
// (3, H, W) uint8 RGB.
at::Tensor read_rgb_image(const std::string& path);

}  // namespace adala
