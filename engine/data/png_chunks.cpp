#include "engine/data/png_chunks.h"

#include <cstring>

namespace adala {

namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
constexpr size_t kChunkOverhead = 12;  // length, type, CRC
// PNG limits a chunk's length to 2^31 - 1.
constexpr uint64_t kMaxChunkLength = 0x7FFFFFFFu;

uint32_t big_endian(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

}  // namespace

std::vector<uint8_t> without_png_colour_profile(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < sizeof kSignature || std::memcmp(bytes.data(), kSignature, 8) != 0)
    return bytes;
  size_t at = sizeof kSignature;
  while (bytes.size() - at >= kChunkOverhead) {
    const uint64_t length = big_endian(bytes.data() + at);
    if (length > kMaxChunkLength || length > bytes.size() - at - kChunkOverhead) return bytes;
    const uint8_t* type = bytes.data() + at + 4;
    const size_t end = at + kChunkOverhead + size_t(length);
    if (std::memcmp(type, "iCCP", 4) == 0) {
      std::vector<uint8_t> out(bytes.begin(), bytes.begin() + std::ptrdiff_t(at));
      out.insert(out.end(), bytes.begin() + std::ptrdiff_t(end), bytes.end());
      return out;
    }
    // The profile comes before the image data; past IDAT there is none to drop.
    if (std::memcmp(type, "IDAT", 4) == 0 || std::memcmp(type, "IEND", 4) == 0) return bytes;
    at = end;
  }
  return bytes;
}

}  // namespace adala
