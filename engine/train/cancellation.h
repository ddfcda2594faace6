#pragma once
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace adala {

// Cooperative control of a running job: the training loop polls it once per step.
class JobControl {
 public:
  void request_cancel() { cancel_ = true; }
  void set_paused(bool paused) { paused_ = paused; }
  bool cancel_requested() const { return cancel_; }
  bool paused() const { return paused_; }
  void reset() {
    cancel_ = false;
    paused_ = false;
  }
  // Blocks while paused; returns true when the job should stop.
  bool wait_while_paused() const {
    if (paused_ && !cancel_) holding_ = true;
    while (paused_ && !cancel_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    holding_ = false;
    return cancel_;
  }
  // True while the job is held in wait_while_paused (between two steps, nothing in flight).
  bool holding() const { return holding_; }

 private:
  std::atomic<bool> cancel_{false};
  std::atomic<bool> paused_{false};
  mutable std::atomic<bool> holding_{false};
};

// Thrown out of a stage after it has saved a checkpoint in response to a cancel request.
class JobCancelled : public std::runtime_error {
 public:
  explicit JobCancelled(const std::string& stage)
      : std::runtime_error("cancelled during " + stage), stage_(stage) {}
  const std::string& stage() const { return stage_; }

 private:
  std::string stage_;
};

}  // namespace adala
