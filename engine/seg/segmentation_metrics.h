#pragma once
// Semantic segmentation metrics from a confusion matrix accumulated over a whole split.
//
//   IoU_c          = TP_c / (TP_c + FP_c + FN_c)
//   mIoU           = mean of IoU_c over the classes with TP_c + FP_c + FN_c > 0, i.e. classes
//                    that occur in the ground truth or in the predictions of the split.
//                    A class absent from both has no IoU (nullopt, "null" in JSON) and is
//                    left out of the mean; a class only predicted counts with IoU 0.
//   pixel accuracy = sum_c TP_c / labelled pixels
// Pixels whose ground truth is the ignore label take no part in any of them. Predictions
// outside 0..C-1 count as wrong for the true class (FN) and add to no class's FP.
#include <ATen/ATen.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace adala {

class ConfusionMatrix;

// Where the errors of a data set with a background class lie: finding the objects, or naming
// them. Foreground = every class but the background; predictions outside 0..C-1 are left out.
//   foreground IoU = pixels foreground in truth and prediction /
//                    pixels foreground in truth or prediction
//   class accuracy = pixels of the right class / pixels foreground in truth and prediction
// NaN where a denominator is 0.
struct ForegroundSplit {
  double foreground_iou = std::numeric_limits<double>::quiet_NaN();
  double class_accuracy = std::numeric_limits<double>::quiet_NaN();
};
ForegroundSplit foreground_split(const ConfusionMatrix& confusion, int64_t background);

class ConfusionMatrix {
 public:
  ConfusionMatrix() : ConfusionMatrix(1) {}
  explicit ConfusionMatrix(int64_t num_classes, int64_t ignore_index = 255);

  // prediction and truth: same shape, integer class indices.
  void add(const at::Tensor& prediction, const at::Tensor& truth);
  void merge(const ConfusionMatrix& other);

  int64_t num_classes() const { return num_classes_; }
  // counts[t][p]: pixels of true class t predicted as p.
  int64_t count(int64_t truth, int64_t prediction) const;
  int64_t labelled_pixels() const { return labelled_; }
  int64_t true_positives(int64_t c) const;
  int64_t false_positives(int64_t c) const;
  int64_t false_negatives(int64_t c) const;

  std::vector<std::optional<double>> per_class_iou() const;
  // NaN when no class occurs at all.
  double mean_iou() const;
  double pixel_accuracy() const;

 private:
  int64_t num_classes_, ignore_index_;
  std::vector<int64_t> counts_;              // row-major (truth, prediction)
  std::vector<int64_t> wrong_out_of_range_;  // per true class: predictions outside 0..C-1
  int64_t labelled_ = 0;
};

}  // namespace adala
