#include "engine/core/precision.h"

#include <ATen/autocast_mode.h>

#include <algorithm>
#include <stdexcept>

namespace adala {

const char* to_string(Precision precision) {
  switch (precision) {
    case Precision::BF16:
      return "bf16";
    case Precision::FP16:
      return "fp16";
    case Precision::FP32:
      break;
  }
  return "fp32";
}

Precision precision_from_string(const std::string& name) {
  if (name == "fp32") return Precision::FP32;
  if (name == "bf16") return Precision::BF16;
  if (name == "fp16") return Precision::FP16;
  throw std::invalid_argument("unknown precision \"" + name + "\" (allowed: fp32, bf16, fp16)");
}

c10::ScalarType lower_precision_type(Precision precision) {
  switch (precision) {
    case Precision::BF16:
      return c10::ScalarType::BFloat16;
    case Precision::FP16:
      return c10::ScalarType::Half;
    case Precision::FP32:
      break;
  }
  return c10::ScalarType::Float;
}

double default_linear_eps(Precision precision, double model_eps) {
  return precision == Precision::FP32 ? model_eps : std::max(model_eps, kHalfPrecisionLinearEps);
}

void check_precision_supported(Precision precision, const c10::Device& device) {
  if (precision == Precision::FP16 && !device.is_cuda())
    throw std::invalid_argument(
        "precision fp16 needs a CUDA device (LibTorch's CPU autocast supports bf16 only); use "
        "bf16 or fp32 on " +
        device.str());
}

AutocastScope::AutocastScope(const c10::Device& device, Precision precision) {
  if (precision == Precision::FP32) return;
  check_precision_supported(precision, device);
  active_ = true;
  cuda_ = device.is_cuda();
  if (cuda_) {
    was_enabled_ = at::autocast::is_enabled();
    previous_type_ = at::autocast::get_autocast_gpu_dtype();
    at::autocast::set_autocast_gpu_dtype(lower_precision_type(precision));
    at::autocast::set_enabled(true);
  } else {
    was_enabled_ = at::autocast::is_cpu_enabled();
    previous_type_ = at::autocast::get_autocast_cpu_dtype();
    at::autocast::set_autocast_cpu_dtype(lower_precision_type(precision));
    at::autocast::set_cpu_enabled(true);
  }
  at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope() {
  if (!active_) return;
  // The cache holds lower-precision copies of the weights for this forward: drop them when the
  // outermost scope closes (the weights change at the next optimiser step).
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  if (cuda_) {
    at::autocast::set_enabled(was_enabled_);
    at::autocast::set_autocast_gpu_dtype(previous_type_);
  } else {
    at::autocast::set_cpu_enabled(was_enabled_);
    at::autocast::set_autocast_cpu_dtype(previous_type_);
  }
}

Fp32Region::Fp32Region()
    : guard_(c10::DispatchKeySet({c10::DispatchKey::AutocastCPU, c10::DispatchKey::AutocastCUDA,
                                  c10::DispatchKey::AutocastXPU})) {}

bool autocast_active() { return at::autocast::is_enabled() || at::autocast::is_cpu_enabled(); }

}  // namespace adala
