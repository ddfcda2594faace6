#include "engine/data/idx_file.h"

#include <stdexcept>
#include <utility>

namespace adala {

namespace {

uint32_t be32(const std::vector<uint8_t>& b, size_t at) {
  return (uint32_t(b[at]) << 24) | (uint32_t(b[at + 1]) << 16) | (uint32_t(b[at + 2]) << 8) |
         b[at + 3];
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

constexpr size_t kImageHeader = 16;

}  // namespace

IdxImages parse_idx_image_header(const std::vector<uint8_t>& bytes, const std::string& path) {
  constexpr size_t kHeader = kImageHeader;
  if (bytes.size() < kHeader || be32(bytes, 0) != 0x00000803)
    fail(path, "not an idx3 image file (bad magic number)");
  IdxImages out;
  out.count = be32(bytes, 4);
  out.rows = be32(bytes, 8);
  out.cols = be32(bytes, 12);
  if (out.count == 0) fail(path, "the header says it holds 0 images");
  for (const auto& [name, side] : {std::pair{"rows", out.rows}, std::pair{"columns", out.cols}})
    if (side < 1 || side > kMaxIdxImageSide)
      fail(path, "images of " + std::to_string(side) + " " + name + " (expected 1.." +
                     std::to_string(kMaxIdxImageSide) + ")");
  return out;
}

IdxImages parse_idx_images(const std::vector<uint8_t>& bytes, const std::string& path) {
  constexpr size_t kHeader = kImageHeader;
  IdxImages out = parse_idx_image_header(bytes, path);
  // rows * cols <= 2^24 and count < 2^32: the product fits in 2^56.
  const uint64_t needed = static_cast<uint64_t>(out.count) * static_cast<uint64_t>(out.rows) *
                          static_cast<uint64_t>(out.cols);
  if (bytes.size() - kHeader < needed)
    fail(path, "truncated (header promises " + std::to_string(out.count) + " images of " +
                   std::to_string(out.rows) + "x" + std::to_string(out.cols) + ", " +
                   std::to_string(needed) + " bytes; the file has " +
                   std::to_string(bytes.size() - kHeader) + ")");
  out.pixels = bytes.data() + kHeader;
  return out;
}

IdxLabels parse_idx_labels(const std::vector<uint8_t>& bytes, const std::string& path,
                           int64_t max_label) {
  constexpr size_t kHeader = 8;
  if (bytes.size() < kHeader || be32(bytes, 0) != 0x00000801)
    fail(path, "not an idx1 label file (bad magic number)");
  IdxLabels out;
  out.count = be32(bytes, 4);
  if (out.count == 0) fail(path, "the header says it holds 0 labels");
  if (bytes.size() - kHeader < static_cast<uint64_t>(out.count))
    fail(path, "truncated (header promises " + std::to_string(out.count) +
                   " labels; the file has " + std::to_string(bytes.size() - kHeader) + ")");
  out.labels = bytes.data() + kHeader;
  for (int64_t i = 0; i < out.count; ++i)
    if (out.labels[i] > max_label)
      fail(path, "label " + std::to_string(out.labels[i]) + " at index " + std::to_string(i) +
                     " is outside 0.." + std::to_string(max_label));
  return out;
}

}  // namespace adala
