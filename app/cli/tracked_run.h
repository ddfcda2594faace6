#pragma once
// Runs the pipeline with a progress bar and, when the run database is built in, records the
// run there (status, stages, metrics, evaluations, artifacts). Ctrl-C cancels cooperatively:
// the stage checkpoints, the run is marked interrupted and can be resumed.
#include <string>
#include <vector>

#include "engine/train/events.h"
#include "engine/train/pipeline.h"

namespace adala::cli {

struct TrackedRunOptions {
  std::string db_path;     // "" = the default workspace database; "none" = do not record
  std::string resume_run;  // run id or name in the database, or a run folder
  std::vector<std::string> tags;
  EventSink* extra_sink = nullptr;  // also receives every event (e.g. a recorder)
};

struct TrackedRunResult {
  PipelineResult pipeline;
  int64_t run_id = -1;  // -1 when not recorded
  bool cancelled = false;
  std::string summary_path;
};

// Resolves --resume: a folder is taken as is; otherwise the database's run of that id/name.
std::string resolve_run_dir(const std::string& db_path, const std::string& run);

// Opens the run as every front end does (engine/run/open_training_run.h), then runs it with a
// progress bar (and tracking.extra_sink); Ctrl-C cancels after the current step.
TrackedRunResult run_tracked(ExperimentConfig config, PipelineOptions options,
                             const TrackedRunOptions& tracking);

// One variant of a multi-run command (ablate, compare-methods): `stages` into out_dir/key on
// `device`, recorded with tracking's tags plus `tag`. Throws std::runtime_error naming `what`
// and the variant when it is interrupted (the finished variants stay in out_dir).
TrackedRunResult run_tracked_variant(const ExperimentConfig& config, const std::vector<int>& stages,
                                     const std::string& out_dir, const std::string& key,
                                     const std::string& device, TrackedRunOptions tracking,
                                     const std::string& tag, const std::string& what);

}  // namespace adala::cli
