#pragma once
// Reads the summary.json of `adala segment` (engine/seg/segmentation_job.cpp writes it; the run
// records it as a "segmentation_summary" artifact) for the report's Segmentation section, with
// every field type- and range-checked. Only "heads" is required: older files lack "sweep",
// "paper_reference" and "layer_decay", and every other field may be absent. Plain C++ on
// engine/json; no Qt, no LibTorch.
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace adala::report {

// "<field>: <problem>" for a malformed file (the field dotted: "heads.linear.teacher.miou"),
// or the JSON parser's "JSON parse error at byte N: ...".
class SegmentationSummaryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One model's scores and, in the resolution sweep, its batch-1 inference cost. NaN: not
// recorded (null or absent).
struct SegmentationScores {
  double miou = std::numeric_limits<double>::quiet_NaN();            // fraction
  double pixel_accuracy = std::numeric_limits<double>::quiet_NaN();  // fraction
  double img_per_s = std::numeric_limits<double>::quiet_NaN();       // > 0
  double peak_mb = std::numeric_limits<double>::quiet_NaN();         // >= 0
  std::vector<double> per_class_iou;  // NaN: a class absent from truth and prediction
};

// One head at the training resolution: the teacher's backbone against the student's.
struct SegmentationHeadResult {
  std::string head;  // "linear", "mask2former", ... (the key of "heads")
  SegmentationScores teacher, student;
  double miou_gap = std::numeric_limits<double>::quiet_NaN();  // student - teacher (fraction)
  double teacher_train_seconds = std::numeric_limits<double>::quiet_NaN();
  double student_train_seconds = std::numeric_limits<double>::quiet_NaN();
  std::string results;  // the head's results index, relative to the summary's folder
  // The file's gap, else student - teacher; NaN when neither is known.
  double gap() const;
};

struct SegmentationSweepHead {
  std::string head;
  SegmentationScores teacher, student;
};

// One resolution of the sweep (the first is the training resolution).
struct SegmentationSweepPoint {
  int64_t image_size = 0;         // 1..65536
  int64_t val_images = -1;        // -1: not recorded
  std::vector<int64_t> garments;  // min, max garments per scene, as written (may be empty)
  std::vector<SegmentationSweepHead> heads;
};

// The paper's high-resolution row (engine/seg/paper_reference.h) shown beside the sweep.
struct SegmentationPaperReference {
  std::string dataset;
  int64_t image_size = 0;
  SegmentationScores teacher, student;
};

struct SegmentationSummary {
  std::string experiment, dataset;
  int64_t image_size = 0;  // 0: not recorded
  int64_t train_images = -1, val_images = -1;
  std::optional<bool> train_backbone;  // fine-tuned (true) or frozen (false)
  double backbone_lr_scale = std::numeric_limits<double>::quiet_NaN();
  double layer_decay = std::numeric_limits<double>::quiet_NaN();
  std::string teacher_weights, student_weights, adaptation;
  std::vector<SegmentationHeadResult> heads;  // in the file's order, at least one
  std::vector<SegmentationSweepPoint> sweep;  // empty in older files
  std::optional<SegmentationPaperReference> paper;
};

// Throws SegmentationSummaryError naming the field for a malformed document.
SegmentationSummary parse_segmentation_summary(std::string_view text);
// Reads and parses the file; a problem (unreadable, malformed) lands in *problem (the summary
// returned is then empty) and never throws.
SegmentationSummary read_segmentation_summary(const std::string& path, std::string* problem);

}  // namespace adala::report
