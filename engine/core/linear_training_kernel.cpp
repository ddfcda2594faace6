#include "engine/core/linear_training_kernel.h"

#include <atomic>
#include <stdexcept>

namespace adala {
namespace {

std::atomic<LinearTrainingKernel>& current() {
  static std::atomic<LinearTrainingKernel> kernel{LinearTrainingKernel::Fused};
  return kernel;
}

}  // namespace

void set_linear_training_kernel(LinearTrainingKernel kernel) { current() = kernel; }

LinearTrainingKernel linear_training_kernel() { return current(); }

LinearTrainingKernel parse_linear_training_kernel(const std::string& name) {
  if (name == "fused") return LinearTrainingKernel::Fused;
  if (name == "batched") return LinearTrainingKernel::Batched;
  throw std::invalid_argument("linear training kernel \"" + name +
                              "\": use fused (the default) or batched");
}

const char* linear_training_kernel_name(LinearTrainingKernel kernel) {
  return kernel == LinearTrainingKernel::Fused ? "fused" : "batched";
}

}  // namespace adala
