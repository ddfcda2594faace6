#pragma once
// The idx format of (Fashion-)MNIST: a big-endian u32 magic (0x00000803 images, 0x00000801
// labels), big-endian u32 dimensions, then the bytes row-major. These readers validate bytes
// already in memory; every error is a std::runtime_error starting with the file's path.
#include <cstdint>
#include <string>
#include <vector>

namespace adala {

// Sides above this are refused: idx image sets are small pictures, and the bound keeps every
// size computation far from overflow.
constexpr int64_t kMaxIdxImageSide = 4096;

struct IdxImages {
  int64_t count = 0, rows = 0, cols = 0;
  const uint8_t* pixels = nullptr;  // count * rows * cols bytes inside the parsed buffer
};

struct IdxLabels {
  int64_t count = 0;
  const uint8_t* labels = nullptr;  // count bytes inside the parsed buffer
};

// The 16-byte header alone (pixels stays null): at least one image of 1..kMaxIdxImageSide
// rows and columns.
IdxImages parse_idx_image_header(const std::vector<uint8_t>& bytes, const std::string& path);
// The header, and all the pixels it promises present.
IdxImages parse_idx_images(const std::vector<uint8_t>& bytes, const std::string& path);
// At least one label, each at most max_label.
IdxLabels parse_idx_labels(const std::vector<uint8_t>& bytes, const std::string& path,
                           int64_t max_label);

}  // namespace adala
