#pragma once
// Cells of the Markdown tables the comparison commands print: "-" where nothing was measured.
#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace adala::cli {

// A fraction in 0..1 as a percentage with two decimals: 0.8931 -> "89.31".
inline std::string percent_cell(double fraction) {
  return std::isnan(fraction) ? "-" : fmt::format("{:.2f}", 100.0 * fraction);
}

// Bytes as megabytes (1 MB = 1e6 bytes) with one decimal; negative = not measured.
inline std::string megabytes_cell(int64_t bytes) {
  return bytes < 0 ? "-" : fmt::format("{:.1f}", double(bytes) / 1e6);
}

}  // namespace adala::cli
