#pragma once
// `adala run --progress jsonl` (app/cli/progress_events.h): the run's JSON lines on stderr,
// written by rank 0 alone (the other ranks of a data-parallel run stay quiet).
#include <functional>
#include <memory>
#include <string>

#include "app/cli/progress_events.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/pipeline.h"

namespace adala::cli {

// Runs `body`; with `events` (jsonl), an exception it throws is also written as an error event
// before it goes on to the caller. By any rank, not only rank 0: the first rank to fail ends
// the run (the launcher stops the others, rank 0 perhaps before it could say why).
int with_progress_errors(ProgressEvents* events, const std::function<int()>& body);

// Before the run: checks its inputs, makes its folder when it has none yet (so the recorded
// run can be found by it), writes the run event and returns the sink for the engine's events.
std::unique_ptr<JsonlProgressSink> start_run_progress(ProgressEvents& events,
                                                      const ExperimentConfig& config,
                                                      PipelineOptions& options,
                                                      const std::string& db_path);

}  // namespace adala::cli
