#include "engine/train/lr_schedule.h"

#include <algorithm>
#include <cmath>

namespace adala {

CosineSchedule::CosineSchedule(double peak_lr, int64_t warmup_steps, int64_t total_steps,
                               double min_lr)
    : peak_(peak_lr),
      min_(min_lr),
      warmup_(std::max<int64_t>(0, warmup_steps)),
      total_(std::max<int64_t>(1, total_steps)) {}

double CosineSchedule::lr_at(int64_t step) const {
  if (step < warmup_) return peak_ * double(step + 1) / double(warmup_ + 1);
  const double span = double(std::max<int64_t>(1, total_ - warmup_));
  const double progress = std::clamp(double(step - warmup_) / span, 0.0, 1.0);
  return min_ + 0.5 * (peak_ - min_) * (1.0 + std::cos(M_PI * progress));
}

}  // namespace adala
