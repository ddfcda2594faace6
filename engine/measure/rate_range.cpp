#include "engine/measure/rate_range.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace adala {

void RateRange::add(double gflops) {
  if (!std::isfinite(gflops) || gflops <= 0) return;
  lo = empty() ? gflops : std::min(lo, gflops);
  hi = std::isnan(hi) ? gflops : std::max(hi, gflops);
}

void RateRange::merge(const RateRange& other) {
  if (other.empty()) return;
  add(other.lo);
  add(other.hi);
}

double RateRange::moved() const { return empty() ? 0.0 : hi / lo - 1.0; }

std::string rate_range_text(const RateRange& range) {
  if (range.empty()) return "-";
  return fmt::format("{:.1f}-{:.1f} GFLOP/s", range.lo, range.hi);
}

std::string rate_range_cell(const RateRange& range) {
  if (range.empty()) return "-";
  return fmt::format("{:.0f}-{:.0f}{}", range.lo, range.hi, range.unsteady() ? "!" : "");
}

std::string unsteady_rate_text(const RateRange& range) {
  if (!range.unsteady()) return "";
  // One decimal just above the threshold, where a whole number would read "25 %".
  const double percent = 100.0 * range.moved();
  return fmt::format("unsteady: matmul rate moved {:.{}f} % ({})", percent, percent < 25.5 ? 1 : 0,
                     rate_range_text(range));
}

}  // namespace adala
