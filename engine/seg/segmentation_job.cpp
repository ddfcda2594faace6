#include "engine/seg/segmentation_job.h"

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>

#include <torch/utils.h>

#include "engine/data/opencv/ade20k_folder.h"
#include "engine/data/segmentation_scenes.h"
#include "engine/io/text_file.h"
#include "engine/model/load_weights.h"
#include "engine/runtime/device.h"
#include "engine/seg/paper_reference.h"
#include "engine/seg/results_folder.h"
#include "engine/seg/scene_adaptation.h"
#include "engine/seg/segmentation_stage.h"
#include "engine/seg/segmentation_summary.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

VisionTransformer load_backbone(const std::string& path, const std::string& role,
                                const c10::Device& device, AttentionMode mode) {
  if (path.empty()) throw std::invalid_argument("segmentation: no " + role + " weights given");
  if (!fs::exists(path)) throw std::runtime_error(role + " weights not found: " + path);
  VisionTransformer vit = load_model(path, device);
  // A student file's own plan (attention_plan.h) stays: its softmax, linear and window+linear
  // blocks; a file that records none, or only softmax blocks, runs `mode` everywhere.
  const auto modes = vit->attention_modes();
  const bool planned = mode != AttentionMode::Softmax &&
                       std::any_of(modes.begin(), modes.end(),
                                   [](AttentionMode m) { return m != AttentionMode::Softmax; });
  if (!planned) vit->set_attention_mode(mode);
  vit->eval();
  return vit;
}

// "linear attention", or the plan's modes for a hybrid student.
std::string student_attention_words(VisionTransformer& student) {
  const auto modes = student->attention_modes();
  if (std::all_of(modes.begin(), modes.end(),
                  [](AttentionMode m) { return m == AttentionMode::Linear; }))
    return "linear attention";
  return "attention " + attention_modes_text(modes);
}

SegmentationModelOptions model_options(const SegmentationConfig& seg, SegmentationHeadKind head,
                                       int64_t classes) {
  SegmentationModelOptions o;
  o.head = head;
  o.num_classes = classes;
  o.blocks =
      head == SegmentationHeadKind::Linear ? seg.linear_blocks : seg.mask2former.feature_blocks;
  o.linear_upsample = seg.linear_upsample;
  o.mask2former = seg.mask2former;
  return o;
}

std::string stages_text(const std::vector<int>& stages) {
  std::string out;
  for (int s : stages) out += (out.empty() ? "" : "+") + std::to_string(s);
  return out;
}

// The teacher and student models of one head, trained.
struct TrainedHead {
  SegmentationHeadKind head;
  SegmentationModel teacher{nullptr}, student{nullptr};
};

}  // namespace

std::vector<SegmentationHeadKind> configured_heads(const SegmentationConfig& c) {
  if (c.head == "both") return {SegmentationHeadKind::Linear, SegmentationHeadKind::Mask2Former};
  return {segmentation_head_from_string(c.head)};
}

namespace {

// The first `count` scenes of the split's stream.
SegmentationDataset generate_scenes(const ExperimentConfig& config, const std::string& split,
                                    int64_t count) {
  const auto& d = config.segmentation.data;
  return make_scene_generator(scene_garment_root(d), split, scene_options(d), uint64_t(config.seed))
      .generate(count);
}

}  // namespace

SegmentationDataset load_segmentation_split(const ExperimentConfig& config,
                                            const std::string& split) {
  const auto& d = config.segmentation.data;
  const bool train = split == "training";
  if (d.dataset == "ade20k") {
    Ade20kOptions o;
    o.height = o.width = d.image_size;
    o.reduce_zero_label = d.reduce_zero_label;
    o.num_classes = d.num_classes;
    o.limit = train ? d.train_images : d.val_images;
    return load_ade20k_folder(d.root, split, o);
  }
  return generate_scenes(config, split, train ? d.train_images : d.val_images);
}

namespace {

// The resolutions the job sweeps beyond the training one: the options' where they name some,
// else the config's.
std::vector<int64_t> job_sweep_sizes(const SegmentationConfig& seg,
                                     const SegmentationJobOptions& options) {
  auto sizes =
      options.sweep_resolutions.empty() ? seg.sweep_resolutions : options.sweep_resolutions;
  if (!sizes.empty() && seg.data.dataset != "fashion-mnist-scenes")
    throw ConfigError("segmentation.sweep_resolutions",
                      "the resolution sweep renders fashion-mnist-scenes at each size");
  return sizes;
}

void check_patch_size(VisionTransformer& vit, const SegmentationConfig& seg,
                      const std::vector<int64_t>& sweep_sizes) {
  const int64_t p = vit->config().patch_size;
  if (seg.data.image_size % p != 0)
    throw ConfigError("segmentation.data.image_size",
                      "must be a multiple of the backbone's patch size " + std::to_string(p));
  for (int64_t res : sweep_sizes)
    if (res % p != 0)
      throw ConfigError("segmentation.sweep_resolutions",
                        std::to_string(res) + " is not a multiple of the backbone's patch size " +
                            std::to_string(p));
}

struct SegmentationSplits {
  SegmentationDataset train, val;
};

// The training and validation splits, described in `result` and the log.
SegmentationSplits load_job_splits(const StageContext& ctx, SegmentationJobResult& result) {
  const ExperimentConfig& config = ctx.config;
  const auto& seg = config.segmentation;
  auto t0 = Clock::now();
  SegmentationSplits data{load_segmentation_split(config, "training"),
                          load_segmentation_split(config, "validation")};
  const SegmentationDataset& train = data.train;
  const SegmentationDataset& val = data.val;
  result.classes = val.classes;
  result.background = val.background;
  result.train_images = train.size();
  result.val_images = val.size();
  result.image_size = seg.data.image_size;
  result.train_backbone = seg.train_backbone;
  result.backbone_lr_scale = seg.backbone_lr_scale;
  result.layer_decay = seg.layer_decay;
  result.protocol = seg.train_backbone
                        ? fmt::format("backbone fine-tuned (lr x {:g}, layer decay {:g})",
                                      seg.backbone_lr_scale, seg.layer_decay)
                        : "frozen backbone";
  ctx.log(
      fmt::format("data: {}, {} training / {} validation images of {}x{}, {} classes ({:.1f} s)",
                  seg.data.dataset, train.size(), val.size(), seg.data.image_size,
                  seg.data.image_size, val.num_classes(), seconds_since(t0)));
  return data;
}

// No student given: Stages `options.adaptation` adapt a copy of the teacher on the training
// scenes (labels unused); the student is saved in <out>/adaptation.
VisionTransformer adapt_student(const StageContext& ctx, const SegmentationJobOptions& options,
                                VisionTransformer& teacher, const SegmentationDataset& train,
                                SegmentationJobResult& result) {
  const ExperimentConfig& config = ctx.config;
  const auto& seg = config.segmentation;
  StageContext adapt{config, ctx.device, ctx.sink, ctx.control, result.out_dir + "/adaptation"};
  fs::create_directories(adapt.run_dir);
  at::Tensor images = train.images;
  std::string on = "the " + std::to_string(train.size()) + " training scenes";
  if (seg.adaptation_images > 0) {
    images = generate_scenes(config, "training", seg.adaptation_images).images;
    on = fmt::format("{} scenes of the training stream (its first {} the training scenes)",
                     seg.adaptation_images, std::min(seg.adaptation_images, train.size()));
  }
  ctx.log("no student given: ViT-AdaLA Stages " + stages_text(options.adaptation) + " on " + on +
          " (labels unused)");
  VisionTransformer frozen = clone_model(teacher, ctx.device);
  VisionTransformer student = adapt_student_on_images(adapt, frozen, images, options.adaptation);
  result.student_weights = adapt.run_dir + "/student.safetensors";
  save_weights(student, result.student_weights,
               {{"adala.stage", "segmentation_adaptation"}, {"adala.experiment", config.name}});
  ctx.sink.on_event(ArtifactEvent{"adaptation", "weights", result.student_weights});
  result.adaptation = "Stages " + stages_text(options.adaptation) + " on " + on;
  return student;
}

// The student backbone: the options' weights, or adapted from the teacher.
VisionTransformer job_student(const StageContext& ctx, const SegmentationJobOptions& options,
                              VisionTransformer& teacher, const SegmentationDataset& train,
                              SegmentationJobResult& result) {
  if (options.student_weights.empty()) return adapt_student(ctx, options, teacher, train, result);
  VisionTransformer student =
      load_backbone(options.student_weights, "student", ctx.device, AttentionMode::Linear);
  result.student_weights = options.student_weights;
  result.adaptation = "given: " + fs::path(options.student_weights).filename().string();
  return student;
}

// `head` trained on each backbone, teacher first, with the same data, seed and budget, and
// evaluated on the validation split; its result goes to `result.heads`.
TrainedHead train_head(StageContext& ctx, SegmentationHeadKind head, VisionTransformer& teacher,
                       VisionTransformer& student, const SegmentationSplits& data,
                       SegmentationJobResult& result) {
  const auto& seg = ctx.config.segmentation;
  SegmentationHeadResult hr;
  hr.head = head;
  const SegmentationTraining training = head_training(seg, head);
  hr.probe_epochs = training.probe_epochs_run();
  TrainedHead models{head};
  const std::string head_name = to_string(head);
  for (int role = 0; role < 2; ++role) {
    const std::string who = role == 0 ? "teacher" : "student";
    const std::string stage = "seg_" + head_name + "_" + who;
    // Same head initialisation and batch order for both backbones.
    torch::manual_seed(uint64_t(ctx.config.seed) + 17);
    SegmentationModel model(clone_model(role == 0 ? teacher : student, ctx.device),
                            model_options(seg, head, data.val.num_classes()));
    model->to(ctx.device);
    auto start = Clock::now();
    SegmentationStage(ctx, stage, training).run(model, data.train);
    const double train_s = seconds_since(start);
    SegmentationEvaluation eval =
        evaluate_segmentation(model, data.val, ctx.device, seg.eval_batch_size, seg.results_images);
    ctx.sink.on_event(EvalMetrics{stage, "miou", eval.confusion.mean_iou(), 0});
    ctx.sink.on_event(EvalMetrics{stage, "pixel_accuracy", eval.confusion.pixel_accuracy(), 0});
    (role == 0 ? hr.teacher_train_seconds : hr.student_train_seconds) = train_s;
    (role == 0 ? hr.teacher : hr.student) = std::move(eval);
    (role == 0 ? models.teacher : models.student) = model;
  }
  hr.folder = (fs::path(result.out_dir) / head_name).string();
  result.heads.push_back(std::move(hr));
  return models;
}

// The validation data at `size` for the resolution table: the validation split at the training
// resolution, else scenes that keep the garments' pixel size (held in `owned`). Fills the row's
// garment range and image count.
const SegmentationDataset* sweep_data(const ExperimentConfig& config, const SceneOptions& base,
                                      const SegmentationDataset& val, int64_t size,
                                      SegmentationSweepRow& row,
                                      std::unique_ptr<SegmentationDataset>& owned) {
  const auto& seg = config.segmentation;
  const SegmentationDataset* data = &val;
  if (size != seg.data.image_size) {
    const SceneOptions o = same_pixel_scale(base, size);
    row.min_garments = o.min_garments;
    row.max_garments = o.max_garments;
    owned = std::make_unique<SegmentationDataset>(
        make_scene_generator(scene_garment_root(seg.data), "validation", o, uint64_t(config.seed))
            .generate(seg.sweep_val_images));
    data = owned.get();
  } else {
    row.min_garments = base.min_garments;
    row.max_garments = base.max_garments;
  }
  row.val_images = data->size();
  return data;
}

// mIoU and pixel accuracy of each model (teacher, student per head) at `size`: those of the
// validation split at the training resolution, else evaluated on `data`.
std::vector<SegmentationPoint> sweep_points(const StageContext& ctx,
                                            const std::vector<SegmentationModel*>& models,
                                            const SegmentationDataset& data, int64_t size,
                                            const SegmentationJobResult& result) {
  const auto& seg = ctx.config.segmentation;
  std::vector<SegmentationPoint> points(models.size());
  for (size_t m = 0; m < models.size(); ++m) {
    const size_t h = m / 2;
    const auto& head_result = result.heads[h];
    if (size == seg.data.image_size) {
      const auto& e = m % 2 == 0 ? head_result.teacher : head_result.student;
      points[m].miou = e.confusion.mean_iou();
      points[m].pixel_accuracy = e.confusion.pixel_accuracy();
    } else {
      if (ctx.control.wait_while_paused()) throw JobCancelled("segmentation sweep");
      const int64_t batch = std::max<int64_t>(
          1, seg.eval_batch_size * seg.data.image_size * seg.data.image_size / (size * size));
      const SegmentationEvaluation e = evaluate_segmentation(*models[m], data, ctx.device, batch);
      points[m].miou = e.confusion.mean_iou();
      points[m].pixel_accuracy = e.confusion.pixel_accuracy();
    }
  }
  return points;
}

void emit_sweep_head(EventSink& sink, const SegmentationSweepHead& sh, int64_t size) {
  const std::string stage = "seg_" + std::string(to_string(sh.head));
  sink.on_event(EvalMetrics{stage + "_teacher", fmt::format("miou@{}", size), sh.teacher.miou, 0});
  sink.on_event(EvalMetrics{stage + "_student", fmt::format("miou@{}", size), sh.student.miou, 0});
  sink.on_event(EvalMetrics{stage + "_teacher", fmt::format("img_per_s@{}", size),
                            sh.teacher.cost.calls_per_s(), 0});
  sink.on_event(EvalMetrics{stage + "_student", fmt::format("img_per_s@{}", size),
                            sh.student.cost.calls_per_s(), 0});
}

// One row of the resolution table: every model evaluated at `size`, then their costs measured
// side by side.
SegmentationSweepRow resolution_table_row(const StageContext& ctx,
                                          const SegmentationJobOptions& options,
                                          const SceneOptions& base, const SegmentationDataset& val,
                                          std::vector<TrainedHead>& trained,
                                          const SegmentationJobResult& result, int64_t size) {
  SegmentationSweepRow row;
  row.image_size = size;
  std::unique_ptr<SegmentationDataset> owned;
  const SegmentationDataset* data = sweep_data(ctx.config, base, val, size, row, owned);
  std::vector<SegmentationModel*> models;
  for (auto& t : trained) models.push_back(&t.teacher), models.push_back(&t.student);
  ctx.log(fmt::format("resolution {}: evaluating on {} scenes of {}-{} garments, then costs", size,
                      data->size(), row.min_garments, row.max_garments));
  std::vector<SegmentationPoint> points = sweep_points(ctx, models, *data, size, result);
  if (ctx.control.wait_while_paused()) throw JobCancelled("segmentation sweep");
  const auto costs = measure_segmentation_costs(models, size, ctx.device, options.cost_rounds,
                                                options.cost_repeats);
  for (size_t m = 0; m < models.size(); ++m) points[m].cost = costs[m];
  for (size_t h = 0; h < trained.size(); ++h) {
    SegmentationSweepHead sh;
    sh.head = trained[h].head;
    sh.teacher = points[2 * h];
    sh.student = points[2 * h + 1];
    emit_sweep_head(ctx.sink, sh, size);
    row.heads.push_back(sh);
  }
  return row;
}

// The resolution table: the training resolution, then each sweep resolution on scenes that
// keep the garments' pixel size; costs of all models measured side by side per resolution.
void run_resolution_table(const StageContext& ctx, const SegmentationJobOptions& options,
                          const std::vector<int64_t>& sweep_sizes, const SegmentationDataset& val,
                          std::vector<TrainedHead>& trained, SegmentationJobResult& result) {
  const auto& seg = ctx.config.segmentation;
  std::vector<int64_t> sizes{seg.data.image_size};
  for (int64_t r : sweep_sizes)
    if (std::find(sizes.begin(), sizes.end(), r) == sizes.end()) sizes.push_back(r);
  const SceneOptions base = scene_options(seg.data);
  for (int64_t size : sizes)
    result.sweep.push_back(resolution_table_row(ctx, options, base, val, trained, result, size));
}

// One results folder per head, then <out>/summary.json and <out>/summary.md.
void write_job_results(const ExperimentConfig& config, const SegmentationJobOptions& options,
                       const SegmentationDataset& val, EventSink& sink,
                       SegmentationJobResult& result) {
  for (auto& hr : result.heads) {
    SegmentationResults r;
    r.head = to_string(hr.head);
    r.data = &val;
    r.teacher = &hr.teacher;
    r.student = &hr.student;
    r.max_images = config.segmentation.results_images;
    r.extra = segmentation_index_extra(result, hr.head);
    write_segmentation_results(hr.folder, r);
    sink.on_event(
        ArtifactEvent{"seg_" + r.head, "segmentation_results", hr.folder + "/index.json"});
  }
  result.summary = segmentation_job_summary_json(config, options.teacher_weights, result);
  write_text((fs::path(result.out_dir) / "summary.json").string(), result.summary.dump(2) + "\n");
  write_text((fs::path(result.out_dir) / "summary.md").string(),
             segmentation_summary_markdown(result));
  sink.on_event(ArtifactEvent{"segmentation", "segmentation_summary",
                              (fs::path(result.out_dir) / "summary.json").string()});
}

}  // namespace

SegmentationJobResult run_segmentation_job(const ExperimentConfig& config,
                                           const SegmentationJobOptions& options, EventSink& sink,
                                           JobControl& control) {
  const auto& seg = config.segmentation;
  if (!seg.present) throw ConfigError("segmentation", "the config has no \"segmentation\" block");
  const c10::Device device = resolve_device(options.device, config.device);
  if (config.threads > 0) configure_threads(static_cast<int>(config.threads));
  const auto heads = options.heads.empty() ? configured_heads(seg) : options.heads;
  const auto sweep_sizes = job_sweep_sizes(seg, options);

  SegmentationJobResult result;
  result.out_dir = options.out_dir.empty() ? "segmentation" : options.out_dir;
  fs::create_directories(result.out_dir);
  StageContext ctx{config, device, sink, control, result.out_dir};

  VisionTransformer teacher =
      load_backbone(options.teacher_weights, "teacher", device, AttentionMode::Softmax);
  check_patch_size(teacher, seg, sweep_sizes);
  const SegmentationSplits data = load_job_splits(ctx, result);
  VisionTransformer student = job_student(ctx, options, teacher, data.train, result);
  check_patch_size(student, seg, sweep_sizes);
  ctx.log("backbones: teacher " + options.teacher_weights + " (softmax), student " +
          result.student_weights + " (" + student_attention_words(student) + "); device " +
          device.str());

  std::vector<TrainedHead> trained;
  for (SegmentationHeadKind head : heads)
    trained.push_back(train_head(ctx, head, teacher, student, data, result));
  run_resolution_table(ctx, options, sweep_sizes, data.val, trained, result);
  write_job_results(config, options, data.val, sink, result);
  return result;
}

}  // namespace adala
