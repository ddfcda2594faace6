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
    stages.push_back(part[0] - '0');
  }
  if (stages.empty()) throw UsageError("--stages: no stage given");
  return stages;
}

const char* kRunHelp =
    "usage: adala run CONFIG.json [--stages 0,1,2,3] [--resume RUN_DIR] [--device auto|cpu|cuda]\n"
    "                 [--runs-dir DIR] [--db FILE|none] [--threads N]\n"
    "  Runs the ViT-AdaLA stages: 0 teacher, 1 attention alignment, 2 feature alignment,\n"
    "  3 fine-tuning. --resume continues an interrupted run from its last checkpoint\n"
    "  (a run folder, or a run id/name from the database; CONFIG is then optional).\n"
    "  Ctrl-C stops after the current step, checkpoints, and marks the run interrupted.\n";

}  // namespace

int run_command(const Args& args) {
  ArgParser p;
  p.option("stages", "").option("resume", "").option("device", "").option("runs-dir", "").option("db", "").flag("help");
  p.parse(args);
  if (p.flag_set("help")) {
    std::printf("%s", kRunHelp);
    return 0;
  }
  const std::string resume = p.get("resume");
  if (p.positional().empty() && resume.empty()) throw UsageError(std::string("missing CONFIG.json\n") + kRunHelp);
  if (p.positional().size() > 1) throw UsageError("expected one CONFIG.json, got " + std::to_string(p.positional().size()));

  ExperimentConfig config;
  PipelineOptions options;
  if (!resume.empty()) {
    const std::string dir = resolve_run_dir(p.get("db"), resume);
    config = load_run_config(dir);
    options.stages = load_run_stages(dir);
    options.run_dir = dir;
  } else {
    config = load_experiment_config(p.positional()[0]);
  }
  if (p.has("stages")) options.stages = parse_stages(p.get("stages"));
  if (p.has("runs-dir")) config.runs_dir = p.get("runs-dir");
  options.device = p.get("device");

  TrackedRunOptions tracking;
  tracking.db_path = p.get("db");
  TrackedRunResult result = run_tracked(config, options, tracking);
  if (result.cancelled) return 130;
  std::printf("%s\nsummary written to %s\n", run_summary_markdown(config, result.pipeline).c_str(),
              result.summary_path.c_str());
  return 0;
}

}  // namespace adala::cli
