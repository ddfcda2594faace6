// libFuzzer target: the report's reader of an `adala segment` job's summary.json
// (engine/report/segmentation_summary_reader.h), which reads whatever file a run's artifact
// points at. Whatever the bytes, it returns a summary or throws SegmentationSummaryError with a
// message (never anything else, never crashes); every summary it accepts has at least one named
// head, scores that are fractions (or NaN), costs and counts in range, a sweep whose resolutions
// and garment counts are in range, and a head gap within [-1, 1].
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "engine/report/segmentation_summary_reader.h"

using namespace adala::report;

namespace {

constexpr int64_t kMaxSide = 65536;

// A score: NaN (not recorded) or a fraction from 0 to 1.
bool score(double v) { return std::isnan(v) || (v >= 0 && v <= 1); }
// NaN (not recorded) or a finite number of at least 0 (above 0 unless `zero_ok`).
bool cost(double v, bool zero_ok) {
  return std::isnan(v) || (std::isfinite(v) && (zero_ok ? v >= 0 : v > 0));
}

void check_scores(const SegmentationScores& s) {
  if (!score(s.miou) || !score(s.pixel_accuracy)) __builtin_trap();
  if (!cost(s.img_per_s, false) || !cost(s.peak_mb, true)) __builtin_trap();
  for (double v : s.per_class_iou)
    if (!score(v)) __builtin_trap();
}

void check(const SegmentationSummary& s) {
  if (s.image_size < 0 || s.image_size > kMaxSide) __builtin_trap();
  if (s.train_images < -1 || s.val_images < -1) __builtin_trap();
  if (!cost(s.backbone_lr_scale, true)) __builtin_trap();
  if (!std::isnan(s.layer_decay) && !(s.layer_decay > 0 && s.layer_decay <= 1)) __builtin_trap();
  if (s.heads.empty()) __builtin_trap();
  for (const auto& h : s.heads) {
    check_scores(h.teacher);
    check_scores(h.student);
    if (!std::isnan(h.miou_gap) && !(std::abs(h.miou_gap) <= 1)) __builtin_trap();
    if (!cost(h.teacher_train_seconds, true) || !cost(h.student_train_seconds, true))
      __builtin_trap();
    const double gap = h.gap();
    if (!std::isnan(gap) && !(std::abs(gap) <= 1)) __builtin_trap();
  }
  for (const auto& p : s.sweep) {
    if (p.image_size < 1 || p.image_size > kMaxSide || p.val_images < -1) __builtin_trap();
    for (int64_t g : p.garments)
      if (g < 0 || g > (int64_t(1) << 20)) __builtin_trap();
    for (const auto& h : p.heads) {
      check_scores(h.teacher);
      check_scores(h.student);
    }
  }
  if (s.paper) {
    if (s.paper->image_size < 0 || s.paper->image_size > kMaxSide) __builtin_trap();
    check_scores(s.paper->teacher);
    check_scores(s.paper->student);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The exact bytes (no copy, no terminating NUL), so a read past the end is AddressSanitizer's.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  SegmentationSummary summary;
  try {
    summary = parse_segmentation_summary(text);
  } catch (const SegmentationSummaryError& e) {
    if (std::strlen(e.what()) == 0) __builtin_trap();
    return 0;
  }
  check(summary);
  return 0;
}
