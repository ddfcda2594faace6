#include "engine/seg/classes_per_image.h"

#include <stdexcept>

namespace adala {

ClassesPerImageBreakdown::ClassesPerImageBreakdown(int64_t num_classes, int64_t background,
                                                   int64_t ignore_index)
    : num_classes_(num_classes), background_(background) {
  for (int64_t k = 0; k <= kCap; ++k)
    groups_.push_back({k, 0, ConfusionMatrix(num_classes, ignore_index)});
}

int64_t ClassesPerImageBreakdown::classes_in(const at::Tensor& truth) const {
  auto labels = truth.to(at::kLong).flatten();
  labels = labels.masked_select(labels.ge(0).logical_and(labels.lt(num_classes_)));
  auto counts = labels.bincount({}, num_classes_);
  if (background_ >= 0 && background_ < num_classes_) counts[background_] = 0;
  return counts.gt(0).sum().item<int64_t>();
}

void ClassesPerImageBreakdown::add(const at::Tensor& prediction, const at::Tensor& truth) {
  if (prediction.dim() != 3 || !prediction.sizes().equals(truth.sizes()))
    throw std::invalid_argument(
        "ClassesPerImageBreakdown::add: prediction and truth must be (B, H, W) of one shape");
  for (int64_t i = 0; i < truth.size(0); ++i) {
    auto& group = groups_[size_t(std::min(classes_in(truth[i]), kCap))];
    ++group.images;
    group.confusion.add(prediction[i], truth[i]);
  }
}

std::vector<ClassesPerImageGroup> ClassesPerImageBreakdown::groups() const {
  std::vector<ClassesPerImageGroup> out;
  for (const auto& g : groups_)
    if (g.images > 0) out.push_back(g);
  return out;
}

}  // namespace adala
