#pragma once
// Reads the index.json of a segmentation results folder (written by results_folder.h), with
// every field type- and range-checked. Plain C++ (no LibTorch, no Qt): the workbench's viewer
// converts the result to what it draws.
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace adala {

// "<file>: <problem>"; the parts stay apart so a viewer can print the file its own way.
class SegmentationIndexError : public std::runtime_error {
 public:
  SegmentationIndexError(std::string file, std::string problem);
  const std::string& file() const { return file_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, problem_;
};

struct SegmentationIndexClass {
  std::string name;
  std::string color;  // as written ("#rrggbb"); the viewer parses it
};

// One model (teacher or student) over the whole split. NaN: not recorded (or, in per-class
// lists, a class absent from truth and prediction).
struct SegmentationIndexScores {
  double miou = std::numeric_limits<double>::quiet_NaN();
  double pixel_accuracy = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> per_class_iou;  // one per class, or empty when not recorded
};

struct SegmentationIndexEntry {
  std::string id;
  std::string image, truth, teacher, student;  // relative to the folder, as written
  double teacher_miou = std::numeric_limits<double>::quiet_NaN();
  double student_miou = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> teacher_iou, student_iou;  // one per class, or empty
  double disagreement = std::numeric_limits<double>::quiet_NaN();
};

// How the models behind the results were made ("story"): what the viewer's first line says.
struct SegmentationIndexStory {
  int image_size = 0;    // training resolution, 1..65536
  std::string backbone;  // "frozen" or "fine-tuned"
  // Fine-tuned backbones: the learning rate's factor against the head's (>= 0) and the
  // per-block decay of it (0 < decay <= 1); NaN: not recorded.
  double backbone_lr_scale = std::numeric_limits<double>::quiet_NaN();
  double layer_decay = std::numeric_limits<double>::quiet_NaN();
  // Fine-tuned backbones: the head's epochs on the frozen backbone first (LP-FT), 0..1000;
  // -1: not recorded.
  int64_t probe_epochs = -1;
  std::string head;           // "linear", "mask2former", ...
  int64_t train_images = -1;  // -1: not recorded
  std::string adaptation;     // free text ("Stages 1+2 on the training scenes"), may be empty
  bool fine_tuned() const { return backbone == "fine-tuned"; }
};

// One model at one resolution. NaN: not recorded (null or absent).
struct SegmentationIndexMeasure {
  double miou = std::numeric_limits<double>::quiet_NaN();            // 0..1
  double pixel_accuracy = std::numeric_limits<double>::quiet_NaN();  // 0..1
  double img_per_s = std::numeric_limits<double>::quiet_NaN();       // > 0
  double peak_mb = std::numeric_limits<double>::quiet_NaN();         // >= 0
};

// Teacher and student evaluated at one resolution ("sweep" rows).
struct SegmentationIndexSweepRow {
  int image_size = 0;                          // 1..65536
  int64_t val_images = 0;                      // >= 0
  int64_t garments_min = 0, garments_max = 0;  // garments per scene, 0 <= min <= max
  SegmentationIndexMeasure teacher, student;
};

// The paper's numbers to compare the sweep with ("paper_reference").
struct SegmentationIndexPaperReference {
  std::string dataset;  // "Cityscapes"
  int image_size = 0;   // 1..65536
  SegmentationIndexMeasure teacher, student;
};

struct SegmentationIndex {
  std::optional<std::string> head;  // absent (or not a string): the viewer names it
  std::string split;
  int ignore_index = 255;
  std::vector<SegmentationIndexClass> classes;  // 1..255 of them
  SegmentationIndexScores teacher, student;
  std::vector<SegmentationIndexEntry> entries;  // at least one
  // Optional (older index.json files lack them; null reads as absent).
  std::optional<SegmentationIndexStory> story;
  std::vector<SegmentationIndexSweepRow> sweep;  // in the order written; empty when absent
  std::optional<SegmentationIndexPaperReference> paper_reference;
};

// Throws SegmentationIndexError naming `path` and the first field at fault.
SegmentationIndex read_segmentation_index(const std::string& path);
// The same for index.json text already read; `path` only names it in errors.
SegmentationIndex parse_segmentation_index(const std::string& text, const std::string& path);

}  // namespace adala
