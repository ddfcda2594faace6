#include "engine/runtime/precision.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#include <algorithm>
#include <stdexcept>

namespace adala {

namespace {

// LibTorch 2.4 replaced the per-backend autocast calls (is_cpu_enabled, set_autocast_gpu_dtype,
// ...) with ones taking the device type, and later releases drop the old ones.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
bool enabled_for(c10::DeviceType type) { return at::autocast::is_autocast_enabled(type); }
void set_autocast_enabled(c10::DeviceType type, bool on) {
  at::autocast::set_autocast_enabled(type, on);
}
c10::ScalarType autocast_type(c10::DeviceType type) {
  return at::autocast::get_autocast_dtype(type);
}
void set_autocast_type(c10::DeviceType type, c10::ScalarType t) {
  at::autocast::set_autocast_dtype(type, t);
}
#else
bool enabled_for(c10::DeviceType type) {
  return type == c10::DeviceType::CUDA ? at::autocast::is_enabled()
                                       : at::autocast::is_cpu_enabled();
}
void set_autocast_enabled(c10::DeviceType type, bool on) {
  if (type == c10::DeviceType::CUDA)
    at::autocast::set_enabled(on);
  else
    at::autocast::set_cpu_enabled(on);
}
c10::ScalarType autocast_type(c10::DeviceType type) {
  return type == c10::DeviceType::CUDA ? at::autocast::get_autocast_gpu_dtype()
                                       : at::autocast::get_autocast_cpu_dtype();
}
void set_autocast_type(c10::DeviceType type, c10::ScalarType t) {
  if (type == c10::DeviceType::CUDA)
    at::autocast::set_autocast_gpu_dtype(t);
  else
    at::autocast::set_autocast_cpu_dtype(t);
}
#endif

c10::DeviceType autocast_device(bool cuda) {
  return cuda ? c10::DeviceType::CUDA : c10::DeviceType::CPU;
}

}  // namespace

bool autocast_enabled(c10::DeviceType type) { return enabled_for(type); }

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
  const auto type = autocast_device(cuda_);
  was_enabled_ = autocast_enabled(type);
  previous_type_ = autocast_type(type);
  set_autocast_type(type, lower_precision_type(precision));
  set_autocast_enabled(type, true);
  at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope() {
  if (!active_) return;
  // The cache holds lower-precision copies of the weights for this forward: drop them when the
  // outermost scope closes (the weights change at the next optimiser step).
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  const auto type = autocast_device(cuda_);
  set_autocast_enabled(type, was_enabled_);
  set_autocast_type(type, previous_type_);
}

Fp32Region::Fp32Region()
    : guard_(c10::DispatchKeySet({c10::DispatchKey::AutocastCPU, c10::DispatchKey::AutocastCUDA,
                                  c10::DispatchKey::AutocastXPU})) {}

bool autocast_active() {
  return autocast_enabled(c10::DeviceType::CUDA) || autocast_enabled(c10::DeviceType::CPU);
}

}  // namespace adala
