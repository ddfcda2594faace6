#pragma once
// Puts every parameter's requires_grad back as it was when the scope opened, however the scope
// ends: done, cancelled (JobCancelled) or failed. Stages that train a subset of a model freeze
// the rest inside one.
#include <ATen/ATen.h>

#include <utility>
#include <vector>

namespace adala {

class RequiresGradRestorer {
 public:
  explicit RequiresGradRestorer(std::vector<at::Tensor> parameters)
      : parameters_(std::move(parameters)) {
    for (const auto& p : parameters_) saved_.push_back(p.requires_grad());
  }
  ~RequiresGradRestorer() {
    for (size_t i = 0; i < parameters_.size(); ++i) parameters_[i].set_requires_grad(saved_[i]);
  }
  RequiresGradRestorer(const RequiresGradRestorer&) = delete;
  RequiresGradRestorer& operator=(const RequiresGradRestorer&) = delete;

 private:
  std::vector<at::Tensor> parameters_;
  std::vector<bool> saved_;
};

// Sets requires_grad on `trained` and clears it on every other tensor of `all` (open a
// RequiresGradRestorer over `all` first).
inline void train_only(const std::vector<at::Tensor>& all, const std::vector<at::Tensor>& trained) {
  for (auto p : all) p.set_requires_grad(false);
  for (auto p : trained) p.set_requires_grad(true);
}

}  // namespace adala
