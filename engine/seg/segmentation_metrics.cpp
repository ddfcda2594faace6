#include "engine/seg/segmentation_metrics.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace adala {

ConfusionMatrix::ConfusionMatrix(int64_t num_classes, int64_t ignore_index)
    : num_classes_(num_classes),
      ignore_index_(ignore_index),
      counts_(size_t(num_classes * num_classes), 0),
      wrong_out_of_range_(size_t(num_classes), 0) {
  if (num_classes <= 0) throw std::invalid_argument("ConfusionMatrix: num_classes must be > 0");
}

void ConfusionMatrix::add(const at::Tensor& prediction, const at::Tensor& truth) {
  if (prediction.sizes() != truth.sizes())
    throw std::invalid_argument("ConfusionMatrix::add: prediction and truth differ in shape");
  auto t = truth.reshape({-1}).to(at::kLong).cpu();
  auto p = prediction.reshape({-1}).to(at::kLong).cpu();
  auto labelled = t.ne(ignore_index_);
  auto bad_truth = labelled.logical_and(t.lt(0).logical_or(t.ge(num_classes_)));
  if (bad_truth.any().item<bool>())
    throw std::invalid_argument("ConfusionMatrix::add: ground truth holds a label outside 0.." +
                                std::to_string(num_classes_ - 1) + " that is not the ignore label");
  t = t.masked_select(labelled);
  p = p.masked_select(labelled);
  labelled_ += t.numel();
  auto in_range = p.ge(0).logical_and(p.lt(num_classes_));
  const int64_t c = num_classes_;
  auto pairs = (t.masked_select(in_range) * c + p.masked_select(in_range)).bincount({}, c * c);
  auto acc = pairs.accessor<int64_t, 1>();
  for (int64_t i = 0; i < c * c; ++i) counts_[size_t(i)] += acc[i];
  auto wrong = t.masked_select(in_range.logical_not()).bincount({}, c);
  auto wacc = wrong.accessor<int64_t, 1>();
  for (int64_t i = 0; i < c; ++i) wrong_out_of_range_[size_t(i)] += wacc[i];
}

void ConfusionMatrix::merge(const ConfusionMatrix& o) {
  if (o.num_classes_ != num_classes_)
    throw std::invalid_argument("ConfusionMatrix::merge: class counts differ");
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
  for (size_t i = 0; i < wrong_out_of_range_.size(); ++i)
    wrong_out_of_range_[i] += o.wrong_out_of_range_[i];
  labelled_ += o.labelled_;
}

int64_t ConfusionMatrix::count(int64_t truth, int64_t prediction) const {
  return counts_.at(size_t(truth * num_classes_ + prediction));
}

int64_t ConfusionMatrix::true_positives(int64_t c) const { return count(c, c); }

int64_t ConfusionMatrix::false_positives(int64_t c) const {
  int64_t s = 0;
  for (int64_t t = 0; t < num_classes_; ++t)
    if (t != c) s += count(t, c);
  return s;
}

int64_t ConfusionMatrix::false_negatives(int64_t c) const {
  int64_t s = wrong_out_of_range_.at(size_t(c));
  for (int64_t p = 0; p < num_classes_; ++p)
    if (p != c) s += count(c, p);
  return s;
}

std::vector<std::optional<double>> ConfusionMatrix::per_class_iou() const {
  std::vector<std::optional<double>> iou(static_cast<size_t>(num_classes_));
  for (int64_t c = 0; c < num_classes_; ++c) {
    const int64_t tp = true_positives(c), uni = tp + false_positives(c) + false_negatives(c);
    if (uni > 0) iou[size_t(c)] = double(tp) / double(uni);
  }
  return iou;
}

double ConfusionMatrix::mean_iou() const {
  double sum = 0;
  int64_t n = 0;
  for (const auto& v : per_class_iou())
    if (v) sum += *v, ++n;
  return n ? sum / double(n) : std::numeric_limits<double>::quiet_NaN();
}

ForegroundSplit foreground_split(const ConfusionMatrix& c, int64_t background) {
  int64_t both = 0, right = 0, only_one = 0;
  for (int64_t t = 0; t < c.num_classes(); ++t)
    for (int64_t p = 0; p < c.num_classes(); ++p) {
      const int64_t n = c.count(t, p);
      if (t != background && p != background) {
        both += n;
        if (t == p) right += n;
      } else if ((t == background) != (p == background)) {
        only_one += n;
      }
    }
  ForegroundSplit s;
  if (both + only_one > 0) s.foreground_iou = double(both) / double(both + only_one);
  if (both > 0) s.class_accuracy = double(right) / double(both);
  return s;
}

double ConfusionMatrix::pixel_accuracy() const {
  int64_t tp = 0;
  for (int64_t c = 0; c < num_classes_; ++c) tp += true_positives(c);
  return labelled_ ? double(tp) / double(labelled_) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace adala
