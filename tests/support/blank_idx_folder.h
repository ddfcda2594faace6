#pragma once
// A Fashion-MNIST-shaped data folder for tests that need one to exist but not to teach
// anything: train and t10k idx files of `count` blank side x side images, all labelled 0.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace adala_test {

// `v` as 4 big-endian bytes, as idx headers store their numbers.
inline std::string be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// Writes the four idx files into `root` (created if missing) and returns `root`.
inline std::string write_blank_idx_folder(const std::string& root, uint32_t side = 28,
                                          uint32_t count = 4) {
  std::filesystem::create_directories(root);
  for (const std::string prefix : {"train", "t10k"}) {
    std::ofstream(root + "/" + prefix + "-images-idx3-ubyte", std::ios::binary | std::ios::trunc)
        << be32(0x803) + be32(count) + be32(side) + be32(side) +
               std::string(size_t(count) * side * side, '\0');
    std::ofstream(root + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary | std::ios::trunc)
        << be32(0x801) + be32(count) + std::string(count, '\0');
  }
  return root;
}

}  // namespace adala_test
