#pragma once
// PNG files at the level of their chunks (8-byte signature, then length, type, data, CRC).
// Used to drop the embedded colour profile before decoding: the decoders ignore it anyway, and
// libpng prints "iCCP: known incorrect sRGB profile" on stderr for many common files (once per
// file and thread), with no way to silence it through OpenCV.
#include <cstdint>
#include <vector>

namespace adala {

// The bytes without their iCCP chunk when they are a PNG whose chunks up to it are well formed
// (lengths within the file); otherwise the bytes unchanged, for the decoder to judge.
std::vector<uint8_t> without_png_colour_profile(const std::vector<uint8_t>& bytes);

}  // namespace adala
