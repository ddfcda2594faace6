#pragma once
// Images already in memory as one (N, C, H, W) tensor (float in [0, 1] or uint8), with
// optional labels: what the stages' tensor entry points and the tests hand to the loader.
#include <ATen/core/Tensor.h>

#include "engine/data/dataset.h"

namespace adala {

class TensorDataset : public Dataset {
 public:
  // labels: (N) int64, or undefined for none; num_classes names classes "0".."num_classes-1"
  // (0: one more than the largest label).
  explicit TensorDataset(at::Tensor images, at::Tensor labels = {}, int64_t num_classes = 0);
  int64_t size() const override;
  Sample get(int64_t index) const override;
  std::string item_name(int64_t index) const override;
  int64_t channels() const override;
  std::vector<std::string> class_names() const override { return class_names_; }
  std::string describe() const override;

 private:
  at::Tensor images_, labels_;
  std::vector<std::string> class_names_;
};

}  // namespace adala
