#pragma once
// Dense Stage 3 end to end: load the teacher (softmax) backbone and the student (linear
// attention; or adapt one from the teacher on the training images, scene_adaptation.h), build
// the segmentation splits, train each requested head on both backbones with the same data,
// seed and budget (the backbone fine-tuned or frozen, segmentation_stage.h), evaluate on the
// validation split, then at each sweep resolution (segmentation_sweep.h: mIoU, images/s and
// peak memory), and write one results folder per head (results_folder.h) plus
// <out>/summary.json and <out>/summary.md.
#include <string>
#include <vector>

#include "engine/data/segmentation_dataset.h"
#include "engine/json/json.h"
#include "engine/seg/segmentation_evaluation.h"
#include "engine/seg/segmentation_model.h"
#include "engine/seg/segmentation_sweep.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

struct SegmentationJobOptions {
  std::string teacher_weights;  // safetensors of the softmax teacher
  // safetensors of the ViT-AdaLA student (runs in linear mode); empty: Stages `adaptation`
  // adapt the teacher on the training images first (saved as <out>/adaptation/student.safetensors)
  std::string student_weights;
  std::vector<int> adaptation{1, 2};
  std::vector<SegmentationHeadKind> heads;  // empty: as the config's segmentation.head says
  std::string out_dir;
  std::string device;  // overrides the config's when non-empty
  // Evaluation resolutions beyond the training one; empty: segmentation.sweep_resolutions.
  std::vector<int64_t> sweep_resolutions;
  int cost_rounds = 3, cost_repeats = 3;  // interleaved rounds x timed predictions per model
};

// One model at one resolution.
struct SegmentationPoint {
  double miou = 0, pixel_accuracy = 0;
  CallCost cost;
};

struct SegmentationSweepHead {
  SegmentationHeadKind head = SegmentationHeadKind::Linear;
  SegmentationPoint teacher, student;
};

struct SegmentationSweepRow {
  int64_t image_size = 0, val_images = 0, min_garments = 0, max_garments = 0;
  std::vector<SegmentationSweepHead> heads;
};

struct SegmentationHeadResult {
  SegmentationHeadKind head = SegmentationHeadKind::Linear;
  SegmentationEvaluation teacher, student;
  double teacher_train_seconds = 0, student_train_seconds = 0;
  int64_t probe_epochs = 0;  // the head's frozen-backbone epochs before fine-tuning (LP-FT)
  std::string folder;        // <out>/<head>
};

struct SegmentationJobResult {
  std::string out_dir;
  std::vector<SegmentationClass> classes;
  int64_t background = -1;  // the data set's background class; -1: none
  std::vector<SegmentationHeadResult> heads;
  std::vector<SegmentationSweepRow> sweep;  // the training resolution first
  int64_t train_images = 0, val_images = 0, image_size = 0;
  bool train_backbone = false;
  double backbone_lr_scale = 0, layer_decay = 1;
  std::string protocol;    // "frozen backbone" or "backbone fine-tuned (lr x s, layer decay d)"
  std::string adaptation;  // how the student was made
  std::string student_weights;
  Json summary;  // what summary.json holds
};

// The heads a config asks for ("both" = linear then mask2former).
std::vector<SegmentationHeadKind> configured_heads(const SegmentationConfig& config);

// "training" or "validation" split of the configured data set.
SegmentationDataset load_segmentation_split(const ExperimentConfig& config,
                                            const std::string& split);

SegmentationJobResult run_segmentation_job(const ExperimentConfig& config,
                                           const SegmentationJobOptions& options, EventSink& sink,
                                           JobControl& control);

}  // namespace adala
