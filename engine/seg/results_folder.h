#pragma once
// The segmentation results folder the workbench's viewer reads:
//   <dir>/index.json                 summary, classes, per-image metrics (format below)
//   <dir>/images/<id>.png            RGB input
//   <dir>/{truth,teacher,student}/<id>.png   8-bit class indices, 255 = ignore
// index.json = { "head", "split", "ignore_index",
//   "classes": [{"name", "color": "#rrggbb"}...],
//   "summary": {"teacher"|"student": {"miou", "pixel_accuracy", "per_class_iou": [x|null...]}},
//   "images": [{"id", "image", "truth", "teacher", "student", "teacher_miou", "student_miou",
//               "teacher_iou": [...], "student_iou": [...], "disagreement"}] }
// Optional: "story" (image_size, backbone, head...), "sweep" (per resolution: teacher and
// student miou, pixel_accuracy, img_per_s, peak_mb) and "paper_reference".
// Paths are relative to index.json. IoU is null for a class absent from both truth and
// prediction (of the split, or of the image for per-image values); mIoU averages the others
// (engine/seg/segmentation_metrics.h). disagreement = share of labelled pixels where
// teacher and student predict different classes.
#include <ATen/ATen.h>

#include <string>

#include "engine/json/json.h"
#include "engine/data/segmentation_dataset.h"
#include "engine/seg/segmentation_evaluation.h"

namespace adala {

struct SegmentationResults {
  std::string head;  // "linear" | "mask2former"
  std::string split = "validation";
  const SegmentationDataset* data = nullptr;  // images, truth, classes, ids
  const SegmentationEvaluation* teacher = nullptr;
  const SegmentationEvaluation* student = nullptr;
  int64_t max_images = 64;  // written: min(max_images, kept predictions)
  // Optional top-level entries copied into index.json as they are: "story", "sweep",
  // "paper_reference" (segmentation_job.h; results_index.h reads them).
  Json extra = Json::object();
};

// {"miou", "pixel_accuracy", "per_class_iou"} of a confusion matrix.
Json segmentation_summary_json(const ConfusionMatrix& confusion);

// Writes the folder (creating it) and returns the index document.
Json write_segmentation_results(const std::string& dir, const SegmentationResults& results);

}  // namespace adala
