#pragma once
// Reads the index.json of a segmentation results folder (written by results_folder.h), with
// every field type- and range-checked. Plain C++ (no LibTorch, no Qt): the workbench's viewer
// converts the result to what it draws.
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

struct SegmentationIndex {
  std::optional<std::string> head;  // absent (or not a string): the viewer names it
  std::string split;
  int ignore_index = 255;
  std::vector<SegmentationIndexClass> classes;  // 1..255 of them
  SegmentationIndexScores teacher, student;
  std::vector<SegmentationIndexEntry> entries;  // at least one
};

// Throws SegmentationIndexError naming `path` and the first field at fault.
SegmentationIndex read_segmentation_index(const std::string& path);
// The same for index.json text already read; `path` only names it in errors.
SegmentationIndex parse_segmentation_index(const std::string& text, const std::string& path);

}  // namespace adala
