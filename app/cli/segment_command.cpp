// `adala segment`: dense Stage 3. A segmentation head (linear probe and/or Mask2Former) is
// trained on the softmax teacher and on the ViT-AdaLA student with the same data and budget,
// evaluated on the validation split (mIoU), and written as a results folder per head.
#include <cstdio>
#include <filesystem>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/progress_sink.h"
#include "engine/seg/segmentation_job.h"
#include "engine/train/pipeline.h"

namespace adala::cli {

namespace {

const char* kSegmentHelp =
    "usage: adala segment CONFIG.json [--teacher T.safetensors] [--student S.safetensors]\n"
    "                     [--head linear|mask2former|both] [--out DIR] [--device auto|cpu|cuda]\n"
    "                     [--stages 1,2] [--train-images N] [--val-images N] [--epochs N] "
    "[--threads N]\n"
    "  Trains the config's segmentation head(s) on the teacher (softmax) and on the student\n"
    "  (linear attention), evaluates both on the validation split and prints mIoU, the gap,\n"
    "  pixel accuracy and per-class IoU. --teacher defaults to the config's teacher.weights.\n"
    "  Without --student, the ViT-AdaLA stages given by --stages (default 1,2) run first, into\n"
    "  OUT/adaptation, and their student is used. Writes OUT/<head>/index.json (+ PNGs),\n"
    "  OUT/summary.json and OUT/summary.md.\n";

std::vector<int> parse_stage_list(const std::string& text) {
  std::vector<int> stages;
  for (const auto& part : split_list(text)) {
    if (part.size() != 1 || part[0] < '0' || part[0] > '3')
      throw UsageError("--stages: \"" + part + "\" is not a stage (use 0..3)");
    stages.push_back(part[0] - '0');
  }
  if (stages.empty()) throw UsageError("--stages: no stage given");
  return stages;
}

}  // namespace

int segment_command(const Args& args) {
  ArgParser p;
  p.option("teacher", "")
      .option("student", "")
      .option("head", "")
      .option("out", "")
      .option("device", "");
  p.option("stages", "1,2")
      .option("train-images", "")
      .option("val-images", "")
      .option("epochs", "")
      .flag("help");
  p.parse(args);
  if (p.flag_set("help")) {
    std::printf("%s", kSegmentHelp);
    return 0;
  }
  if (p.positional().size() != 1)
    throw UsageError(std::string("expected one CONFIG.json\n") + kSegmentHelp);
  ExperimentConfig config = load_experiment_config(p.positional()[0]);
  if (!config.segmentation.present)
    throw UsageError(p.positional()[0] +
                     " has no \"segmentation\" block (see experiments/fashion-mnist-seg.json)");
  auto& seg = config.segmentation;
  if (p.has("head")) {
    const std::string h = p.get("head");
    if (h != "linear" && h != "mask2former" && h != "both")
      throw UsageError("--head: \"" + h + "\" (use linear, mask2former or both)");
    seg.head = h;
  }
  if (p.has("train-images")) seg.data.train_images = p.get_int("train-images");
  if (p.has("val-images")) seg.data.val_images = p.get_int("val-images");
  if (p.has("epochs")) {
    seg.linear_training.epochs = seg.mask2former_training.epochs = p.get_int("epochs");
    seg.linear_training.max_steps = seg.mask2former_training.max_steps = 0;
  }
  if (seg.data.train_images < 1 && seg.data.dataset != "ade20k")
    throw UsageError("--train-images must be >= 1");

  SegmentationJobOptions options;
  options.out_dir = p.has("out") ? p.get("out") : make_run_dir(config) + "-segment";
  options.device = p.get("device");
  options.teacher_weights = p.has("teacher") ? p.get("teacher") : config.teacher_weights;
  options.student_weights = p.get("student");

  ProgressBarSink progress;
  JobControl control;
  if (options.student_weights.empty()) {
    // No student at hand: adapt the teacher first (Stages 1-2 by default).
    PipelineOptions po;
    po.stages = parse_stage_list(p.get("stages"));
    po.run_dir = options.out_dir + "/adaptation";
    po.device = options.device;
    ExperimentConfig adapt = config;
    if (!options.teacher_weights.empty())
      adapt.teacher_weights = std::filesystem::absolute(options.teacher_weights).string();
    std::fprintf(stderr, "no --student: running ViT-AdaLA stages into %s\n", po.run_dir.c_str());
    PipelineResult r = run_pipeline(adapt, po, progress, control);
    int last = 0;
    for (int s : po.stages) last = std::max(last, s);
    options.student_weights = stage_output_path(r.run_dir, last);
    options.teacher_weights = stage_output_path(r.run_dir, 0);
  }
  if (options.teacher_weights.empty())
    throw UsageError("no teacher: give --teacher or teacher.weights in the config");

  SegmentationJobResult result = run_segmentation_job(config, options, progress, control);
  std::printf("%s\n", segmentation_summary_markdown(result).c_str());
  for (const auto& h : result.heads) std::printf("results: %s/index.json\n", h.folder.c_str());
  std::printf("summary: %s/summary.md, %s/summary.json\n", result.out_dir.c_str(),
              result.out_dir.c_str());
  return 0;
}

}  // namespace adala::cli
