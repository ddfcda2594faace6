// libFuzzer target: the index.json reader of a segmentation results folder
// (engine/seg/results_index.h), which the workbench's viewer opens from any folder a user picks.
// Whatever the bytes, it returns an index or throws SegmentationIndexError naming the file
// (never anything else, never crashes); every index it accepts holds what the header promises:
// 1..255 named classes, an ignore index that is no class, at least one image, scores in 0..1
// (or NaN), one score per class where a list is given, and the optional story, sweep and paper
// reference in range.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/seg/results_index.h"

using namespace adala;

namespace {

const std::string kPath = "fuzz/index.json";

// A score: NaN (not recorded) or a fraction from 0 to 1.
bool score(double v) { return std::isnan(v) || (v >= 0 && v <= 1); }

void check_per_class(const std::vector<double>& iou, size_t classes) {
  if (!iou.empty() && iou.size() != classes) __builtin_trap();
  for (double v : iou)
    if (!score(v)) __builtin_trap();
}

void check_measure(const SegmentationIndexMeasure& m) {
  if (!score(m.miou) || !score(m.pixel_accuracy)) __builtin_trap();
  if (!std::isnan(m.img_per_s) && !(m.img_per_s > 0)) __builtin_trap();
  if (!std::isnan(m.peak_mb) && !(m.peak_mb >= 0)) __builtin_trap();
}

bool image_size(int side) { return side >= 1 && side <= 65536; }

void check(const SegmentationIndex& r) {
  const size_t classes = r.classes.size();
  if (classes < 1 || classes > 255) __builtin_trap();
  for (const auto& c : r.classes)
    if (c.name.empty() || c.color.empty()) __builtin_trap();
  if (r.ignore_index < int(classes) || r.ignore_index > 255) __builtin_trap();
  // The split's scores: mIoU is required, so never NaN.
  for (const auto* s : {&r.teacher, &r.student}) {
    if (std::isnan(s->miou) || !score(s->miou) || !score(s->pixel_accuracy)) __builtin_trap();
    check_per_class(s->per_class_iou, classes);
  }
  if (r.entries.empty()) __builtin_trap();
  for (const auto& e : r.entries) {
    if (e.id.empty() || e.image.empty() || e.truth.empty() || e.teacher.empty() ||
        e.student.empty())
      __builtin_trap();
    if (!score(e.teacher_miou) || !score(e.student_miou) || !score(e.disagreement))
      __builtin_trap();
    check_per_class(e.teacher_iou, classes);
    check_per_class(e.student_iou, classes);
  }
  if (r.story) {
    const auto& s = *r.story;
    if (!image_size(s.image_size) || s.head.empty() || s.train_images < -1) __builtin_trap();
    if (s.backbone != "frozen" && s.backbone != "fine-tuned") __builtin_trap();
    if (s.backbone_lr_scale < 0) __builtin_trap();
    if (!std::isnan(s.layer_decay) && !(s.layer_decay > 0 && s.layer_decay <= 1)) __builtin_trap();
  }
  for (const auto& row : r.sweep) {
    if (!image_size(row.image_size) || row.val_images < 0) __builtin_trap();
    if (row.garments_min < 0 || row.garments_min > row.garments_max) __builtin_trap();
    check_measure(row.teacher);
    check_measure(row.student);
  }
  if (r.paper_reference) {
    const auto& p = *r.paper_reference;
    if (p.dataset.empty() || !image_size(p.image_size)) __builtin_trap();
    check_measure(p.teacher);
    check_measure(p.student);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  SegmentationIndex index;
  try {
    index = parse_segmentation_index(text, kPath);
  } catch (const SegmentationIndexError& e) {
    // The error names the file it was given and a problem, apart.
    if (e.file() != kPath || e.problem().empty()) __builtin_trap();
    return 0;
  }
  check(index);
  return 0;
}
