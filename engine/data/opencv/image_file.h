#pragma once
// Decoding one image file for the datasets: JPEG, PNG, WebP or BMP through OpenCV.
#include <ATen/core/Tensor.h>

#include <string>

namespace adala {

// Whether a path names a file the image datasets read (by extension, case-insensitive:
// .jpg .jpeg .png .webp .bmp) and is not hidden (no leading '.').
bool is_dataset_image_path(const std::string& path);

// (channels, H, W) uint8: channels 3 gives RGB (grey and RGBA become RGB, alpha dropped),
// channels 1 gives grey. Throws BadImageError naming the file when it is missing, empty, not
// decodable, zero-sized, or a JPEG without its end marker (truncated).
at::Tensor decode_image_file(const std::string& path, int64_t channels);

}  // namespace adala
