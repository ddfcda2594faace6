#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "engine/run/run_summary.h"
#include "app/cli/tracked_run.h"
#include "engine/train/pipeline.h"

namespace adala::cli {

namespace {

std::vector<int> parse_stages(const std::string& text) {
  std::vector<int> stages;
  for (const auto& part : split_list(text)) {
    if (part.size() != 1 || part[0] < '0' || part[0] > '3')
      throw UsageError("--stages: \"" + part + "\" is not a stage (use numbers 0..3, e.g. 0,1,2,3)");
    const int stage = part[0] - '0';
    if (std::find(stages.begin(), stages.end(), stage) != stages.end())
      throw UsageError("--stages: stage " + part + " is listed twice");
    stages.push_back(stage);
  }
  if (stages.empty()) throw UsageError("--stages: no stage given");
  return stages;
}

}  // namespace

int run_command(const Args& args) {
  CLI::App app{
      "Runs the ViT-AdaLA stages: 0 teacher, 1 attention alignment, 2 feature alignment, "
      "3 fine-tuning. --resume continues an interrupted run from its last checkpoint (a run "
      "folder, or a run id/name from the database; CONFIG is then optional). Ctrl-C stops after "
      "the current step, checkpoints, and marks the run interrupted.",
      "adala run"};
  prepare_command_app(app);
  std::string config_path, stages, resume, device, runs_dir, db;
  app.add_option("CONFIG", config_path, "the experiment (experiments/*.json)");
  CLI::Option* stages_option = app.add_option("--stages", stages, "stages to run, e.g. 0,1,2,3");
  app.add_option("--resume", resume, "RUN_DIR, or a run id or name from the database");
  app.add_option("--device", device, "auto, cpu or cuda (default: the config's)");
  CLI::Option* runs_dir_option = app.add_option("--runs-dir", runs_dir, "where run folders go");
  app.add_option("--db", db, "the run database, or none");
  bool allow_nonfinite = false;
  app.add_flag("--allow-nonfinite", allow_nonfinite,
               "load weights holding NaN or Inf with a warning instead of refusing them");
  if (!parse_command_line(app, args)) return 0;
  if (config_path.empty() && resume.empty()) throw UsageError("missing CONFIG.json (see adala run --help)");

  ExperimentConfig config;
  PipelineOptions options;
  if (!resume.empty()) {
    const std::string dir = resolve_run_dir(db, resume);
    config = load_run_config(dir);
    options.stages = load_run_stages(dir);
    options.run_dir = dir;
  } else {
    config = load_experiment_config(config_path);
  }
  if (stages_option->count()) options.stages = parse_stages(stages);
  if (runs_dir_option->count()) config.runs_dir = runs_dir;
  options.device = device;
  options.allow_nonfinite = allow_nonfinite;

  TrackedRunOptions tracking;
  tracking.db_path = db;
  TrackedRunResult result = run_tracked(config, options, tracking);
  if (result.cancelled) return 130;
  std::printf("%s\nsummary written to %s\n", run_summary_markdown(config, result.pipeline).c_str(),
              result.summary_path.c_str());
  return 0;
}

}  // namespace adala::cli
