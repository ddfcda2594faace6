#pragma once
// The lead-in of a training run, the same for every front end (`adala run` and the commands
// built on it, app/cli/tracked_run.h; the workbench's engine worker, app/gui/engine_worker.h):
// check the inputs, make the run folder, record the run with its tags, open its session.
// No Qt, no torch types.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/run/run_session.h"

namespace adala {

// What a front end adds to the training run it opens.
struct RunTracking {
  std::string database;  // as RunSession takes it: a path, "" (the workspace's) or kNoDatabase
  std::vector<std::string> tags;  // recorded with the run
};

// The run could not be recorded: its database could not be opened or written, another session
// writes its folder (RunFolderBusy), or its device is not one this build can use. what() is the
// cause's; the cause itself is nested (std::rethrow_if_nested).
class RunRecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// In order:
//  1. check_run_inputs (engine/train/run_preflight.h): a ConfigError before a folder or a
//     database row exists;
//  2. on a data-parallel rank other than 0: returns nullptr; rank 0 records the run and the
//     rank trains quietly in the folder rank 0 makes (run_pipeline passes its path on). Every
//     rank calls this function: the ranks' hosts are gathered from all of them.
//  3. options.run_dir, when empty, becomes a new folder (make_run_dir);
//  4. the run is recorded (training_run_record) with tracking.tags, then, for a data-parallel
//     run, its processes and hosts; returns its session. A failure here is a RunRecordError.
std::unique_ptr<RunSession> open_training_run(const ExperimentConfig& config,
                                              PipelineOptions& options,
                                              const RunTracking& tracking);

}  // namespace adala
