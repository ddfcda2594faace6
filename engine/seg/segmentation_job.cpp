#include "engine/seg/segmentation_job.h"

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <torch/utils.h>

#include "engine/runtime/device.h"
#include "engine/model/load_weights.h"
#include "engine/io/text_file.h"
#include "engine/data/opencv/ade20k_folder.h"
#include "engine/data/segmentation_scenes.h"
#include "engine/seg/results_folder.h"
#include "engine/seg/segmentation_stage.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string pct(double v) {
  if (!std::isfinite(v)) return "n/a";
  return fmt::format("{:.2f}", 100.0 * v);
}

std::string pct(const std::optional<double>& v) { return v ? pct(*v) : "n/a"; }

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
  o.mask2former = seg.mask2former;
  return o;
}

}  // namespace

std::vector<SegmentationHeadKind> configured_heads(const SegmentationConfig& c) {
  if (c.head == "both") return {SegmentationHeadKind::Linear, SegmentationHeadKind::Mask2Former};
  return {segmentation_head_from_string(c.head)};
}

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
  SceneOptions o;
  o.image_size = d.image_size;
  o.min_garments = d.min_garments;
  o.max_garments = d.max_garments;
  o.min_scale = d.min_scale;
  o.max_scale = d.max_scale;
  o.threshold = d.threshold;
  o.background_min = d.background_min;
  o.background_max = d.background_max;
  const std::string root = d.root.empty() ? default_fashion_mnist_root() : d.root;
  SceneGenerator gen = make_scene_generator(root, split, o, uint64_t(config.seed));
  return gen.generate(train ? d.train_images : d.val_images);
}

SegmentationJobResult run_segmentation_job(const ExperimentConfig& config,
                                           const SegmentationJobOptions& options, EventSink& sink,
                                           JobControl& control) {
  const auto& seg = config.segmentation;
  if (!seg.present) throw ConfigError("segmentation", "the config has no \"segmentation\" block");
  const c10::Device device =
      resolve_device(options.device.empty() ? config.device : options.device);
  if (config.threads > 0) configure_threads(static_cast<int>(config.threads));
  const auto heads = options.heads.empty() ? configured_heads(seg) : options.heads;

  SegmentationJobResult result;
  result.out_dir = options.out_dir.empty() ? "segmentation" : options.out_dir;
  fs::create_directories(result.out_dir);
  StageContext ctx{config, device, sink, control, result.out_dir};

  VisionTransformer teacher =
      load_backbone(options.teacher_weights, "teacher", device, AttentionMode::Softmax);
  VisionTransformer student =
      load_backbone(options.student_weights, "student", device, AttentionMode::Linear);
  for (auto* vit : {&teacher, &student})
    if (seg.data.image_size % (*vit)->config().patch_size != 0)
      throw ConfigError("segmentation.data.image_size",
                        "must be a multiple of the backbone's patch size " +
                            std::to_string((*vit)->config().patch_size));
  ctx.log("backbones: teacher " + options.teacher_weights + " (softmax), student " +
          options.student_weights + " (" + student_attention_words(student) + "); device " +
          device.str());

  auto t0 = Clock::now();
  SegmentationDataset train = load_segmentation_split(config, "training");
  SegmentationDataset val = load_segmentation_split(config, "validation");
  result.classes = val.classes;
  result.train_images = train.size();
  result.val_images = val.size();
  result.image_size = seg.data.image_size;
  result.protocol = seg.train_backbone
                        ? fmt::format("backbone fine-tuned (lr x {:g})", seg.backbone_lr_scale)
                        : "frozen backbone";
  ctx.log(
      fmt::format("data: {}, {} training / {} validation images of {}x{}, {} classes ({:.1f} s)",
                  seg.data.dataset, train.size(), val.size(), seg.data.image_size,
                  seg.data.image_size, val.num_classes(), seconds_since(t0)));

  Json summary = Json::object();
  summary["experiment"] = Json(config.name);
  summary["dataset"] = Json(seg.data.dataset);
  summary["image_size"] = Json(seg.data.image_size);
  summary["train_images"] = Json(train.size());
  summary["val_images"] = Json(val.size());
  summary["train_backbone"] = Json(seg.train_backbone);
  if (seg.train_backbone) summary["backbone_lr_scale"] = Json(seg.backbone_lr_scale);
  summary["teacher_weights"] = Json(options.teacher_weights);
  summary["student_weights"] = Json(options.student_weights);
  Json head_summaries = Json::object();

  for (SegmentationHeadKind head : heads) {
    SegmentationHeadResult hr;
    hr.head = head;
    const std::string head_name = to_string(head);
    for (int role = 0; role < 2; ++role) {
      const std::string who = role == 0 ? "teacher" : "student";
      const std::string stage = "seg_" + head_name + "_" + who;
      // Same head initialisation and batch order for both backbones.
      torch::manual_seed(uint64_t(config.seed) + 17);
      SegmentationModel model(clone_model(role == 0 ? teacher : student, device),
                              model_options(seg, head, val.num_classes()));
      model->to(device);
      auto start = Clock::now();
      SegmentationStage(ctx, stage).run(model, train);
      const double train_s = seconds_since(start);
      SegmentationEvaluation eval =
          evaluate_segmentation(model, val, device, seg.eval_batch_size, seg.results_images);
      sink.on_event(EvalMetrics{stage, "miou", eval.confusion.mean_iou(), 0});
      sink.on_event(EvalMetrics{stage, "pixel_accuracy", eval.confusion.pixel_accuracy(), 0});
      (role == 0 ? hr.teacher_train_seconds : hr.student_train_seconds) = train_s;
      (role == 0 ? hr.teacher : hr.student) = std::move(eval);
    }
    hr.folder = (fs::path(result.out_dir) / head_name).string();
    SegmentationResults r;
    r.head = head_name;
    r.data = &val;
    r.teacher = &hr.teacher;
    r.student = &hr.student;
    r.max_images = seg.results_images;
    write_segmentation_results(hr.folder, r);
    sink.on_event(
        ArtifactEvent{"seg_" + head_name, "segmentation_results", hr.folder + "/index.json"});

    Json h = Json::object();
    h["teacher"] = segmentation_summary_json(hr.teacher.confusion);
    h["student"] = segmentation_summary_json(hr.student.confusion);
    const double gap = hr.student.confusion.mean_iou() - hr.teacher.confusion.mean_iou();
    h["miou_gap"] = std::isfinite(gap) ? Json(std::round(gap * 1e6) / 1e6) : Json(nullptr);
    h["teacher_train_seconds"] = Json(std::round(hr.teacher_train_seconds * 10) / 10);
    h["student_train_seconds"] = Json(std::round(hr.student_train_seconds * 10) / 10);
    h["results"] = Json(head_name + "/index.json");
    head_summaries[head_name] = h;
    result.heads.push_back(std::move(hr));
  }
  summary["heads"] = head_summaries;
  result.summary = summary;
  write_text((fs::path(result.out_dir) / "summary.json").string(), summary.dump(2) + "\n");
  write_text((fs::path(result.out_dir) / "summary.md").string(),
             segmentation_summary_markdown(result));
  return result;
}

std::string segmentation_summary_markdown(const SegmentationJobResult& r) {
  std::ostringstream md;
  md << "# Segmentation: teacher (softmax) vs ViT-AdaLA student (linear attention)\n\n";
  md << r.train_images << " training / " << r.val_images << " validation images, " << r.image_size
     << "x" << r.image_size << ", " << r.protocol
     << "; mIoU over classes present (TP+FP+FN > 0), validation split.\n\n";
  md << "| head | teacher mIoU | student mIoU | gap (pt) | teacher pixel acc | student pixel acc "
        "|\n";
  md << "|---|---|---|---|---|---|\n";
  for (const auto& h : r.heads) {
    const double t = h.teacher.confusion.mean_iou(), s = h.student.confusion.mean_iou();
    const std::string gap = fmt::format("{:+.2f}", 100.0 * (s - t));
    md << "| " << to_string(h.head) << " | " << pct(t) << " | " << pct(s) << " | " << gap << " | "
       << pct(h.teacher.confusion.pixel_accuracy()) << " | "
       << pct(h.student.confusion.pixel_accuracy()) << " |\n";
  }
  md << "\nPer-class IoU (%):\n\n| class |";
  for (const auto& h : r.heads)
    md << " " << to_string(h.head) << " teacher | " << to_string(h.head) << " student |";
  md << "\n|---|";
  for (size_t i = 0; i < r.heads.size(); ++i) md << "---|---|";
  md << "\n";
  std::vector<std::vector<std::optional<double>>> t, s;
  for (const auto& h : r.heads) {
    t.push_back(h.teacher.confusion.per_class_iou());
    s.push_back(h.student.confusion.per_class_iou());
  }
  for (size_t c = 0; c < r.classes.size(); ++c) {
    md << "| " << r.classes[c].name << " |";
    for (size_t i = 0; i < r.heads.size(); ++i)
      md << " " << pct(t[i][c]) << " | " << pct(s[i][c]) << " |";
    md << "\n";
  }
  return md.str();
}

}  // namespace adala
