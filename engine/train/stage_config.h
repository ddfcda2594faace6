#pragma once
#include <cstdint>

namespace adala {

// Optimisation budget and hyper-parameters of one stage.
struct StageConfig {
  bool enabled = true;
  int64_t epochs = 1;
  int64_t max_steps = 0;  // > 0 caps the steps (takes precedence over epochs)
  int64_t batch_size = 64;
  double lr = 1e-3;
  double min_lr = 0.0;
  double weight_decay = 0.05;
  int64_t warmup_steps = 0;
  double grad_clip = 1.0;  // 0 disables clipping
  double label_smoothing = 0.0;
  bool augment = false;
  int64_t checkpoint_every = 0;  // 0: only at the end (and on cancel)
  int64_t log_every = 1;
};

}  // namespace adala
