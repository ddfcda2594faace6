#include "engine/kernels/linear_training_kernel.h"

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

const std::vector<std::string>& linear_training_kernel_names() {
  static const std::vector<std::string> names{"fused", "batched", "padded"};
  return names;
}

LinearTrainingKernel parse_linear_training_kernel(const std::string& name) {
  const auto& names = linear_training_kernel_names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<LinearTrainingKernel>(i);
  throw std::invalid_argument("linear training kernel \"" + name +
                              "\": use fused (the default), batched or padded");
}

const char* linear_training_kernel_name(LinearTrainingKernel kernel) {
  return linear_training_kernel_names().at(static_cast<size_t>(kernel)).c_str();
}

}  // namespace adala
