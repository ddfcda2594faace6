#pragma once
// Ctrl-C (SIGINT) and SIGTERM ask a running job to stop after its current step: the training
// loop then checkpoints and throws JobCancelled. One handler at a time, for its scope.
#include "engine/train/cancellation.h"

namespace adala::cli {

class ScopedInterruptHandler {
 public:
  explicit ScopedInterruptHandler(JobControl& control);
  ~ScopedInterruptHandler();
  ScopedInterruptHandler(const ScopedInterruptHandler&) = delete;
  ScopedInterruptHandler& operator=(const ScopedInterruptHandler&) = delete;

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

}  // namespace adala::cli
