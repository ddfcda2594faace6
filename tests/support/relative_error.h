#pragma once
// ||a - ref|| / ||ref|| in double precision (||a - ref|| where ref is all zeros): how the
// numerical suites compare a kernel with a reference computed another way.
#include <torch/torch.h>

namespace adala_test {

inline double rel_error(const torch::Tensor& a, const torch::Tensor& ref) {
  const auto r = ref.to(torch::kDouble);
  const double norm = r.norm().item<double>();
  const double diff = (a.to(torch::kDouble) - r).norm().item<double>();
  return norm > 0 ? diff / norm : diff;
}

}  // namespace adala_test
