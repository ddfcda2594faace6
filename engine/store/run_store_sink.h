#pragma once
// The one place training events become database rows: StepMetrics -> metrics ("loss", "lr",
// "images_per_second", extras, and "block_mse" per block), EvalMetrics -> evaluations,
// StageEvent -> stage rows (a resumed stage first drops its metrics past the checkpoint),
// ArtifactEvent -> artifacts. One transaction per step.
//
// A busy database never stops a run: when another process holds the write lock past the
// busy timeout, the sink holds the events back in memory (in order) and retries with
// exponential back-off, each retry waiting only briefly for the lock, until the database
// takes them; drain() waits for that at the end of a run.
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "engine/store/run_store.h"
#include "engine/train/events.h"
#include "engine/train/stage_catalog.h"

namespace adala::store {

struct BusyPolicy {
  std::chrono::milliseconds first_wait{250};      // before the first retry
  std::chrono::milliseconds max_wait{8000};       // the back-off doubles up to this
  std::chrono::milliseconds retry_lock_wait{50};  // busy timeout while retrying
};

class RunStoreSink : public EventSink {
 public:
  using Notice = std::function<void(const std::string&)>;  // default: stderr
  RunStoreSink(RunStore& store, int64_t run, BusyPolicy policy = {}, Notice notice = {});
  void on_event(const Event& event) override;

  // Writes the events held back for a busy database, retrying with back-off for up to
  // `patience`. Returns true when nothing is held back any more.
  bool drain(std::chrono::milliseconds patience);
  size_t held_events() const { return held_.size(); }

 private:
  using Clock = std::chrono::steady_clock;
  void write(const Event& event);
  void try_held();  // writes held events in order while the database takes them
  void became_busy(const StoreError& error);

  RunStore& store_;
  int64_t run_;
  BusyPolicy policy_;
  Notice notice_;
  std::deque<Event> held_;
  std::chrono::milliseconds wait_{0};
  Clock::time_point next_try_{};
  Clock::time_point busy_since_{};
};

}  // namespace adala::store
