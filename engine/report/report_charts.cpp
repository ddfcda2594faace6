#include "engine/report/report_charts.h"

#include <algorithm>
#include <cmath>

namespace adala::report {

namespace {

// 1, 2, 2.5 or 5 times a power of ten, the smallest not below `step`.
double nice_step(double step) {
  const double power = std::pow(10.0, std::floor(std::log10(step)));
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (m * power >= step * (1 - 1e-9)) return m * power;
  return 10 * power;
}

}  // namespace

AxisRange bar_value_range(const std::vector<double>& values) {
  double lo = INFINITY, hi = -INFINITY;
  int count = 0;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    ++count;
  }
  if (count == 0 || hi <= 0) return {0, 1};
  const AxisRange from_zero{0, hi * 1.15};
  // From 0 the bars' differences are visible when they are at least a quarter of the tallest.
  if (count < 2 || lo <= 0 || (hi - lo) >= 0.25 * hi) return from_zero;
  // The difference takes up about half of the axis, at least 1% of the values' size.
  const double pad = std::max(0.6 * (hi - lo), 0.005 * hi);
  const double step = nice_step((hi - lo + 2 * pad) / 5);
  AxisRange r{std::floor((lo - pad) / step) * step, std::ceil((hi + pad) / step) * step};
  if (r.lower <= 0) return from_zero;
  return r;
}

}  // namespace adala::report
