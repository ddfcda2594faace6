#pragma once
// The one place training events become database rows: StepMetrics -> metrics ("loss", "lr",
// "images_per_second", extras, and "block_mse" per block), EvalMetrics -> evaluations,
// StageEvent -> stage rows (a resumed stage first drops its metrics past the checkpoint),
// ArtifactEvent -> artifacts. One transaction per step.
#include <cstdint>

#include "engine/store/run_store.h"
#include "engine/train/events.h"
#include "engine/train/stage_catalog.h"

namespace adala::store {

class RunStoreSink : public EventSink {
 public:
  RunStoreSink(RunStore& store, int64_t run) : store_(store), run_(run) {}
  void on_event(const Event& event) override;

 private:
  RunStore& store_;
  int64_t run_;
};

}  // namespace adala::store
