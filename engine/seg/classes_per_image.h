#pragma once
// Where a model's errors concentrate: the images of a split grouped by how many object classes
// their ground truth shows (background and ignored pixels not counted), one confusion matrix per
// group. On the fashion-mnist scenes that is the number of garments (two of one class count
// once): the scenes with several garments are those where a model must keep neighbouring
// objects apart, which a linear-attention student, mixing every token into one low-rank summary,
// may do worse than its softmax teacher.
#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "engine/seg/segmentation_metrics.h"

namespace adala {

struct ClassesPerImageGroup {
  int64_t classes = 0;  // the group's class count; the last group holds this many or more
  int64_t images = 0;
  ConfusionMatrix confusion;
};

class ClassesPerImageBreakdown {
 public:
  static constexpr int64_t kCap = 3;  // images with kCap or more classes form one group

  // background: the class not counted as an object (-1: every class counts).
  ClassesPerImageBreakdown(int64_t num_classes, int64_t background, int64_t ignore_index = 255);

  // prediction and truth: (B, H, W) integer class indices.
  void add(const at::Tensor& prediction, const at::Tensor& truth);

  // The groups holding at least one image, by class count ascending.
  std::vector<ClassesPerImageGroup> groups() const;

  // How many object classes one (H, W) ground truth shows.
  int64_t classes_in(const at::Tensor& truth) const;

 private:
  int64_t num_classes_, background_;
  std::vector<ClassesPerImageGroup> groups_;  // index: class count 0..kCap
};

}  // namespace adala
