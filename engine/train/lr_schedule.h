#pragma once
#include <cstdint>

namespace adala {

// Linear warm-up from 0 to peak over warmup_steps, then cosine decay to min_lr at total_steps.
class CosineSchedule {
 public:
  CosineSchedule(double peak_lr, int64_t warmup_steps, int64_t total_steps, double min_lr = 0.0);
  double lr_at(int64_t step) const;

 private:
  double peak_, min_;
  int64_t warmup_, total_;
};

}  // namespace adala
