#pragma once
// Dense Stage 3 end to end: load teacher (softmax) and student (linear attention) backbones,
// build the segmentation splits, train each requested head on both backbones with the same
// data, seed and budget, evaluate on the validation split and write one results folder per
// head (results_folder.h) plus <out>/summary.json and <out>/summary.md.
#include <string>
#include <vector>

#include "engine/json/json.h"
#include "engine/data/segmentation_dataset.h"
#include "engine/seg/segmentation_evaluation.h"
#include "engine/seg/segmentation_model.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/experiment_config.h"

namespace adala {

struct SegmentationJobOptions {
  std::string teacher_weights;  // safetensors of the softmax teacher
  std::string student_weights;  // safetensors of the ViT-AdaLA student (runs in linear mode)
  std::vector<SegmentationHeadKind> heads;  // empty: as the config's segmentation.head says
  std::string out_dir;
  std::string device;  // overrides the config's when non-empty
};

struct SegmentationHeadResult {
  SegmentationHeadKind head = SegmentationHeadKind::Linear;
  SegmentationEvaluation teacher, student;
  double teacher_train_seconds = 0, student_train_seconds = 0;
  std::string folder;  // <out>/<head>
};

struct SegmentationJobResult {
  std::string out_dir;
  std::vector<SegmentationClass> classes;
  std::vector<SegmentationHeadResult> heads;
  int64_t train_images = 0, val_images = 0, image_size = 0;
  std::string protocol;  // "frozen backbone" or "backbone fine-tuned (lr x s)"
  Json summary;          // what summary.json holds
};

// The heads a config asks for ("both" = linear then mask2former).
std::vector<SegmentationHeadKind> configured_heads(const SegmentationConfig& config);

// "training" or "validation" split of the configured data set.
SegmentationDataset load_segmentation_split(const ExperimentConfig& config,
                                            const std::string& split);

SegmentationJobResult run_segmentation_job(const ExperimentConfig& config,
                                           const SegmentationJobOptions& options, EventSink& sink,
                                           JobControl& control);

// Markdown: per head, teacher / student mIoU, gap, pixel accuracy, then per-class IoU.
std::string segmentation_summary_markdown(const SegmentationJobResult& result);

}  // namespace adala
