#include "engine/data/tensor_dataset.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace adala {

TensorDataset::TensorDataset(at::Tensor images, at::Tensor labels, int64_t num_classes)
    : images_(images.cpu().contiguous()),
      labels_(labels.defined() ? labels.cpu().to(at::kLong) : labels) {
  if (images_.dim() != 4) throw std::invalid_argument("TensorDataset: images must be (N, C, H, W)");
  if (labels_.defined()) {
    if (labels_.dim() != 1 || labels_.size(0) != images_.size(0))
      throw std::invalid_argument("TensorDataset: labels must be (N) for (N, C, H, W) images");
    const int64_t classes =
        num_classes > 0 ? num_classes : (labels_.numel() ? labels_.max().item<int64_t>() + 1 : 0);
    for (int64_t c = 0; c < classes; ++c) class_names_.push_back(std::to_string(c));
  }
}

int64_t TensorDataset::size() const { return images_.size(0); }

Sample TensorDataset::get(int64_t index) const {
  if (index < 0 || index >= size())
    throw std::out_of_range("tensor dataset index " + std::to_string(index) + " outside 0.." +
                            std::to_string(size() - 1));
  Sample s;
  s.image = images_[index];
  s.label = labels_.defined() ? labels_.data_ptr<int64_t>()[index] : -1;
  return s;
}

std::string TensorDataset::item_name(int64_t index) const {
  return "in-memory image #" + std::to_string(index);
}

int64_t TensorDataset::channels() const { return images_.size(1); }

std::string TensorDataset::describe() const {
  return "in-memory: " + std::to_string(size()) + " images";
}

}  // namespace adala
