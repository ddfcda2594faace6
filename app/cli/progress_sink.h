#pragma once
#include <chrono>
#include <cstdio>
#include <string>

#include "engine/train/events.h"

namespace adala::cli {

// Draws one progress bar per stage on stderr (ETA, loss, lr, img/s). On a terminal the bar
// redraws in place; otherwise it prints a line every 5% so logs stay readable.
class ProgressBarSink : public EventSink {
 public:
  explicit ProgressBarSink(std::FILE* out = stderr);
  void on_event(const Event& event) override;

 private:
  void draw(const StepMetrics& m);
  std::FILE* out_;
  bool tty_;
  int last_percent_ = -1;
  std::chrono::steady_clock::time_point last_draw_{};
};

std::string format_duration(double seconds);

}  // namespace adala::cli
