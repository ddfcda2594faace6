#pragma once
// The linear-attention eps for a stretch of work (a training stage, an inference pass, the
// inspector's probe), every module's own value restored at the end. Half-precision work raises
// eps (default_linear_eps); a stage may also name its own.
#include <torch/nn/module.h>

#include <memory>
#include <vector>

#include "engine/runtime/precision.h"

namespace adala {

class LinearAttentionImpl;

// Every linear-attention module under `root` (not `root` itself).
std::vector<std::shared_ptr<LinearAttentionImpl>> linear_attention_modules(
    const torch::nn::Module& root);

class LinearEpsScope {
 public:
  // eps > 0: every module uses it; eps <= 0: the modules keep theirs.
  LinearEpsScope(const torch::nn::Module& root, double eps);
  // Each module uses default_linear_eps(precision, its own eps).
  LinearEpsScope(const torch::nn::Module& root, Precision precision);
  ~LinearEpsScope();
  LinearEpsScope(const LinearEpsScope&) = delete;
  LinearEpsScope& operator=(const LinearEpsScope&) = delete;

 private:
  std::vector<std::shared_ptr<LinearAttentionImpl>> modules_;
  std::vector<double> saved_;
};

}  // namespace adala
