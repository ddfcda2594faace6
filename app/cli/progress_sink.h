#pragma once
#include <chrono>
#include <cstdio>
#include <string>

#include "engine/train/events.h"

namespace adala::cli {

// Draws one progress bar per stage on stderr (ETA, loss, lr, img/s, and the share of the step
// time spent waiting for data, "data 12%"). On a terminal the bar redraws in place; otherwise
// it prints a line every 5% so logs stay readable. The stage's end line reports its mean
// data-wait share: each report's share weighted by the steps it covers.
class ProgressBarSink : public EventSink {
 public:
  explicit ProgressBarSink(std::FILE* out = stderr);
  void on_event(const Event& event) override;

 private:
  void draw(const StepMetrics& m);
  void count_data_wait(const StepMetrics& m);
  std::FILE* out_;
  bool tty_;
  int last_percent_ = -1;
  std::chrono::steady_clock::time_point last_draw_{};
  // The running stage's data wait: sum of share x steps covered, and the steps covered.
  int64_t last_step_ = 0;
  double waited_steps_ = 0.0;
  int64_t counted_steps_ = 0;
};

std::string format_duration(double seconds);
// "12%": a share in [0, 1] as a whole percentage.
std::string format_share(double share);

}  // namespace adala::cli
