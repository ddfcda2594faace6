// `adala segment`: dense Stage 3. A segmentation head (linear probe and/or Mask2Former) is
// trained on the softmax teacher and on the ViT-AdaLA student with the same data and budget,
// evaluated on the validation split (mIoU), and written as a results folder per head.
#include <cstdio>
#include <filesystem>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/interrupt_handler.h"
#include "app/cli/progress_sink.h"
#include "engine/run/run_session.h"
#include "engine/seg/scene_teacher.h"
#include "engine/seg/segmentation_job.h"
#include "engine/seg/segmentation_summary.h"
#include "engine/train/pipeline.h"

namespace adala::cli {

namespace {

std::vector<int> parse_stage_list(const std::string& text) {
  std::vector<int> stages;
  for (const auto& part : split_list(text)) {
    if (part.size() != 1 || part[0] < '1' || part[0] > '2')
      throw UsageError("--stages: \"" + part + "\" is not an adaptation stage (use 1 and/or 2)");
    stages.push_back(part[0] - '0');
  }
  if (stages.empty()) throw UsageError("--stages: no stage given");
  return stages;
}

// What `adala segment` was given; the Option pointers tell which overrides were.
struct SegmentArgs {
  std::string config_path, teacher, student, head, out_dir, device, stages = "1,2", pretrain, db;
  std::vector<int64_t> sweep;
  int64_t train_images = 0, val_images = 0, epochs = 0;
  CLI::Option* teacher_option = nullptr;
  CLI::Option* head_option = nullptr;
  CLI::Option* out_option = nullptr;
  CLI::Option* train_option = nullptr;
  CLI::Option* val_option = nullptr;
  CLI::Option* epochs_option = nullptr;
  CLI::Option* pretrain_option = nullptr;
};

void declare_segment(CLI::App& app, SegmentArgs& a) {
  app.add_option("CONFIG", a.config_path, "an experiment with a \"segmentation\" block")
      ->required();
  a.teacher_option = app.add_option("--teacher", a.teacher, "T.safetensors");
  app.add_option("--student", a.student, "S.safetensors (default: adapt the teacher first)");
  a.head_option = app.add_option("--head", a.head, "linear, mask2former or both")
                      ->check(CLI::IsMember({"linear", "mask2former", "both"}));
  a.out_option = app.add_option("--out", a.out_dir, "the output folder");
  app.add_option("--device", a.device, "auto, cpu or cuda");
  app.add_option("--db", a.db,
                 "the run database (default: the workspace's), or none: records the job as a "
                 "run tagged segmentation");
  app.add_option("--stages", a.stages,
                 "the adaptation stages when there is no --student: 1,2 or 2");
  a.train_option = app.add_option("--train-images", a.train_images, "training images");
  a.val_option = app.add_option("--val-images", a.val_images, "validation images")
                     ->check(non_negative_number());
  a.epochs_option =
      app.add_option("--epochs", a.epochs, "epochs of each head (instead of the config's steps)")
          ->check(non_negative_number());
  app.add_option("--res-sweep", a.sweep,
                 "evaluation resolutions beyond the training one, e.g. 448 (scenes keep the "
                 "garments' pixel size)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  a.pretrain_option = app.add_option(
      "--pretrain-teacher", a.pretrain,
      "train the scene teacher of segmentation.pretrain and write it to this file (then stop)");
}

// CONFIG with the command line's overrides of its segmentation block.
ExperimentConfig segment_config(const SegmentArgs& a) {
  ExperimentConfig config = load_experiment_config(a.config_path);
  if (!config.segmentation.present)
    throw UsageError(a.config_path +
                     " has no \"segmentation\" block (see experiments/fashion-mnist-seg.json)");
  auto& seg = config.segmentation;
  if (a.head_option->count()) seg.head = a.head;
  if (a.train_option->count()) seg.data.train_images = a.train_images;
  if (a.val_option->count()) seg.data.val_images = a.val_images;
  if (a.epochs_option->count()) {
    seg.linear_training.epochs = seg.mask2former_training.epochs = a.epochs;
    seg.linear_training.max_steps = seg.mask2former_training.max_steps = 0;
  }
  if (seg.data.train_images < 1 && seg.data.dataset != "ade20k")
    throw UsageError("--train-images must be >= 1");
  return config;
}

// What a job records and reports to: the progress bar and Ctrl-C (checkpoint, then exit 130).
struct SegmentJobContext {
  PipelineOptions recorded;  // what the run row records: the device and the output folder
  ProgressBarSink progress;
  JobControl control;
};

// --pretrain-teacher: trains the scene teacher and writes it to a.pretrain.
int train_scene_teacher(const ExperimentConfig& config, const SegmentArgs& a,
                        SegmentJobContext& job) {
  job.recorded.run_dir = std::filesystem::path(a.pretrain).parent_path().string();
  RunRecord record = training_run_record(config, job.recorded);
  record.name = config.name + "-scene-teacher";
  record.tags = {"segmentation-pretraining"};
  RunSession session(a.db, record);
  session.add_sink(job.progress);
  SceneTeacherResult teacher_result;
  try {
    teacher_result =
        pretrain_scene_teacher(config, a.pretrain, a.device, session.sink(), job.control);
  } catch (const JobCancelled&) {
    session.finish(store::RunStatus::Interrupted);
    std::fprintf(stderr,
                 "interrupted: %s keeps the scene teacher's training; the same command "
                 "resumes from it\n",
                 scene_teacher_checkpoint_path(a.pretrain).c_str());
    return 130;
  }
  session.add_artifact("weights", teacher_result.path);
  session.finish(store::RunStatus::Done);
  std::printf("scene teacher: %s (validation mIoU %.2f with its pretraining head, %.0f s)\n",
              teacher_result.path.c_str(), 100.0 * teacher_result.validation.confusion.mean_iou(),
              teacher_result.train_seconds);
  return 0;
}

SegmentationJobOptions segmentation_job_options(const ExperimentConfig& config,
                                                const SegmentArgs& a) {
  const auto& seg = config.segmentation;
  SegmentationJobOptions options;
  options.out_dir = a.out_option->count() ? a.out_dir : make_run_dir(config, "-segment");
  options.device = a.device;
  options.teacher_weights = a.teacher_option->count() ? a.teacher
                            : !seg.teacher.empty()    ? seg.teacher
                                                      : config.teacher_weights;
  options.student_weights = a.student;
  options.sweep_resolutions = a.sweep;
  options.adaptation = parse_stage_list(a.stages);
  if (options.teacher_weights.empty())
    throw UsageError("no teacher: give --teacher, segmentation.teacher or teacher.weights");
  if (!std::filesystem::exists(options.teacher_weights))
    throw UsageError("teacher weights not found: " + options.teacher_weights +
                     (seg.pretrain.present
                          ? " (adala segment " + a.config_path + " --pretrain-teacher " +
                                options.teacher_weights + " writes it)"
                          : std::string()));
  return options;
}

void print_segmentation_result(const SegmentationJobResult& result) {
  std::printf("%s\n", segmentation_summary_markdown(result).c_str());
  for (const auto& h : result.heads) std::printf("results: %s/index.json\n", h.folder.c_str());
  std::printf("summary: %s/summary.md, %s/summary.json\n", result.out_dir.c_str(),
              result.out_dir.c_str());
}

// Trains and evaluates the heads on the teacher and the student, recorded as one run.
int train_segmentation_heads(const ExperimentConfig& config, const SegmentArgs& a,
                             SegmentJobContext& job) {
  const SegmentationJobOptions options = segmentation_job_options(config, a);
  job.recorded.run_dir = options.out_dir;
  RunRecord record = training_run_record(config, job.recorded);
  record.name = config.name + "-segment";
  record.tags = {"segmentation"};
  RunSession session(a.db, record);
  session.add_sink(job.progress);
  if (session.recording())
    std::fprintf(stderr, "run %lld recorded in %s\n", (long long)session.run_id(),
                 session.database_path().c_str());
  SegmentationJobResult result;
  try {
    result = run_segmentation_job(config, options, session.sink(), job.control);
  } catch (const JobCancelled&) {
    session.finish(store::RunStatus::Interrupted);
    return 130;
  }  // any other error: the session ends the run as failed
  session.add_artifact("summary", result.out_dir + "/summary.md");
  session.add_artifact("segmentation_summary", result.out_dir + "/summary.json");
  for (const auto& h : result.heads)
    session.add_artifact("segmentation_results", h.folder + "/index.json");
  session.finish(store::RunStatus::Done);
  print_segmentation_result(result);
  return 0;
}

}  // namespace

int segment_command(const Args& args) {
  CLI::App app{
      "Trains the config's segmentation head(s) on the teacher (softmax) and on the student "
      "(linear attention), evaluates both on the validation split and prints mIoU, the gap, pixel "
      "accuracy and per-class IoU; with --res-sweep (or segmentation.sweep_resolutions) also "
      "mIoU, images/s and peak memory at each resolution, beside the paper's Cityscapes row. "
      "--teacher defaults to segmentation.teacher, else teacher.weights. Without --student, "
      "ViT-AdaLA Stages --stages adapt the teacher on the training images first. Writes "
      "OUT/<head>/index.json (+ PNGs), OUT/summary.json and OUT/summary.md. "
      "--pretrain-teacher PATH instead trains the scene teacher (segmentation.pretrain) and "
      "writes it to PATH; it checkpoints to PATH.checkpoint (every pretrain.checkpoint_every "
      "steps and on Ctrl-C), and the same command resumes from there.",
      "adala segment"};
  prepare_command_app(app);
  SegmentArgs a;
  declare_segment(app, a);
  if (!parse_command_line(app, args)) return 0;
  const ExperimentConfig config = segment_config(a);

  SegmentJobContext job;
  job.recorded.device = a.device;
  ScopedInterruptHandler interrupts(job.control);  // Ctrl-C: checkpoint, then exit 130
  if (a.pretrain_option->count()) return train_scene_teacher(config, a, job);
  return train_segmentation_heads(config, a, job);
}

}  // namespace adala::cli
