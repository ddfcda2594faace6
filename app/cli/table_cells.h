#pragma once
// Cells of the tables the commands print and write: Markdown numbers ("-" where nothing was
// measured), CSV fields, joined lists.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

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

// An RFC 4180 CSV field: quoted when it holds a comma, a quote or a line break, quotes doubled.
inline std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

inline std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string joined;
  for (const auto& part : parts) joined += (joined.empty() ? "" : separator) + part;
  return joined;
}

}  // namespace adala::cli
