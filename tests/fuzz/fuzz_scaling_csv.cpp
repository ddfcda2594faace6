// libFuzzer target: the scaling benchmark's CSV reader (engine/bench/scaling_csv.h), which
// reads files a user opens in the workbench. Whatever the bytes, it returns rows or throws
// ScalingCsvError (never anything else, never crashes); every row it accepts has a resolution
// in range, a mode, no negative or non-finite number and spreads that hold their medians; and
// the rows it accepts, written again, read back the same.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "engine/bench/scaling_csv.h"

using namespace adala;

namespace {

bool bad_number(double v) { return !std::isnan(v) && (!std::isfinite(v) || v < 0); }

// min <= median <= max, where present.
bool holds(double lo, double mid, double hi) { return !(lo > mid) && !(hi < mid) && !(lo > hi); }

void check(const ScalingCsvRow& r) {
  if (r.resolution < 1 || r.resolution > kScalingCsvMaxResolution || r.mode.empty())
    __builtin_trap();
  for (double v : {r.gmacs_model, r.ms_per_img, r.ms_per_img_min, r.ms_per_img_max, r.peak_rss_mb,
                   r.peak_rss_mb_min, r.peak_rss_mb_max, r.train_ms, r.train_ms_min, r.train_ms_max,
                   r.load_1m})
    if (bad_number(v)) __builtin_trap();
  if (!holds(r.ms_per_img_min, r.ms_per_img, r.ms_per_img_max) ||
      !holds(r.peak_rss_mb_min, r.peak_rss_mb, r.peak_rss_mb_max) ||
      !holds(r.train_ms_min, r.train_ms, r.train_ms_max))
    __builtin_trap();
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<ScalingCsvRow> rows;
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    rows = read_scaling_csv(in, "fuzz.csv");
  } catch (const ScalingCsvError&) {
    return 0;
  }
  for (const auto& r : rows) check(r);
  std::ostringstream out;
  write_scaling_csv(out, rows);
  std::istringstream again(out.str());
  const auto back = read_scaling_csv(again, "again.csv");  // throws (aborts) if it cannot
  if (back.size() != rows.size()) __builtin_trap();
  for (size_t i = 0; i < rows.size(); ++i)
    if (back[i].resolution != rows[i].resolution || back[i].mode != rows[i].mode ||
        !same(back[i].ms_per_img_min, rows[i].ms_per_img_min) ||
        !same(back[i].load_1m, rows[i].load_1m) || back[i].note != rows[i].note)
      __builtin_trap();
  return 0;
}
