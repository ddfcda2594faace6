#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/progress_sink.h"
#include "app/cli/run_summary.h"
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
    "                 [--runs-dir DIR] [--threads N]\n"
    "  Runs the ViT-AdaLA stages: 0 teacher, 1 attention alignment, 2 feature alignment,\n"
    "  3 fine-tuning. --resume continues an interrupted run from its last checkpoint\n"
    "  (CONFIG is then optional: the run's own config.json is used).\n";

}  // namespace

int run_command(const Args& args) {
  ArgParser p;
  p.option("stages", "").option("resume", "").option("device", "").option("runs-dir", "").flag("help");
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
    if (!std::filesystem::exists(resume + "/config.json"))
      throw UsageError("--resume " + resume + ": not a run folder (no config.json)");
    config = load_run_config(resume);
    options.stages = load_run_stages(resume);
    options.run_dir = resume;
  } else {
    config = load_experiment_config(p.positional()[0]);
  }
  if (p.has("stages")) options.stages = parse_stages(p.get("stages"));
  if (p.has("runs-dir")) config.runs_dir = p.get("runs-dir");
  options.device = p.get("device");

  ProgressBarSink progress;
  JobControl control;
  PipelineResult result = run_pipeline(config, options, progress, control);
  const std::string summary = run_summary_markdown(config, result);
  const std::string report_path = result.run_dir + "/summary.md";
  std::ofstream(report_path) << summary;
  std::printf("%s\nsummary written to %s\n", summary.c_str(), report_path.c_str());
  return 0;
}

}  // namespace adala::cli
