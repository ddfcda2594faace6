#pragma once
// The machine's speed over a benchmark run: every benchmark times a short reference matmul
// before and after each point, and a run whose rate moved by more than kUnsteadyRateMove
// (max / min - 1) is flagged: on a shared or throttled machine the rate can swing several
// fold within minutes, and figures measured across such a swing are not to be trusted. Plain
// C++ (no LibTorch), so the widgets read it too.
#include <limits>
#include <string>

namespace adala {

constexpr double kUnsteadyRateMove = 0.25;

// The lowest and highest rate read, GFLOP/s; NaN while none was.
struct RateRange {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  double lo = kNone, hi = kNone;

  // Ignores a reading that is not a finite positive number (a probe that failed).
  void add(double gflops);
  void merge(const RateRange& other);
  bool empty() const { return !(lo > 0); }
  // max / min - 1 (0.26: the fastest reading was 26 % above the slowest); 0 when empty.
  double moved() const;
  bool unsteady() const { return !empty() && moved() > kUnsteadyRateMove; }
};

// "95.1-120.3 GFLOP/s" ("-" when empty).
std::string rate_range_text(const RateRange& range);
// A table cell: "95-120", "95-130!" where the range is unsteady, "-" when empty.
std::string rate_range_cell(const RateRange& range);
// "unsteady: matmul rate moved 26 % (95.1-120.3 GFLOP/s)" when the range is unsteady, else "".
std::string unsteady_rate_text(const RateRange& range);

}  // namespace adala
