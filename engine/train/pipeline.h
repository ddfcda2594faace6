#pragma once
// One ViT-AdaLA run: Stage 0 (teacher), 1 (attention alignment), 2 (feature alignment),
// 3 (fine-tuning), each optional, all resumable. Stage k starts from the output of the
// highest earlier stage selected for this run; when there is none, from the teacher with its
// linear attention initialised from the softmax weights (the naive swap).
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/train/cancellation.h"
#include "engine/train/data_parallel.h"
#include "engine/train/events.h"
#include "engine/train/stage_catalog.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

struct PipelineOptions {
  std::vector<int> stages = {0, 1, 2, 3};
  std::string run_dir;  // empty: <runs_dir>/<name>-<UTC timestamp>; existing: resume in it
  std::string device;   // overrides the config's device when non-empty
  // Weights holding NaN or Inf load with a warning instead of stopping the run.
  bool allow_nonfinite = false;
  // Data parallelism (null: one process). Every rank runs the same stages on its slice of each
  // batch; rank 0 alone creates and writes the run folder (its path reaches the other ranks),
  // checkpoints and stage outputs, and the others read them from there when resuming.
  std::shared_ptr<DataParallel> parallel = nullptr;
  // Steps of each training stage to profile and report (engine/train/step_profiler.h); 0: none.
  int64_t profile_steps = 0;
};

struct PipelineResult {
  std::string run_dir;
  double teacher_top1 = std::numeric_limits<double>::quiet_NaN();
  double student_top1 = std::numeric_limits<double>::quiet_NaN();
  std::map<std::string, double> stage_seconds;
  std::string device;
};

// Creates and returns a new run folder, <runs_dir>/<name>-<UTC timestamp><suffix>, with "-2",
// "-3"... appended when that exists: the folder is made atomically (mkdir), so two runs
// started in the same second never share one. Throws std::runtime_error when it cannot.
std::string make_run_dir(const ExperimentConfig& config, const std::string& suffix = "");

// Runs the selected stages; throws JobCancelled (after checkpointing) on cancel, ConfigError
// or std::runtime_error on bad input. Writes config.json and stages.json into the run folder.
PipelineResult run_pipeline(const ExperimentConfig& config, const PipelineOptions& options,
                            EventSink& sink, JobControl& control);

// Reads back what run_pipeline wrote, to resume a run folder.
ExperimentConfig load_run_config(const std::string& run_dir);
std::vector<int> load_run_stages(const std::string& run_dir);

// ConfigError("--stages") for an index that is not a stage of the stage table.
void check_stage_indices(const std::vector<int>& stages);

}  // namespace adala
