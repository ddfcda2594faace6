#pragma once
// Numeric precision of a forward pass: float32, or LibTorch's autocast to bfloat16 / float16
// (CUDA: both; CPU: bfloat16 only, LibTorch 1.13 has no CPU float16 autocast). Inside an
// AutocastScope, matmuls and linear layers run in the lower precision; the linear-attention
// kernels open an Fp32Region, so phi, phi(K)^T V, the normaliser and the division stay in
// float32 (the numerically fragile part: in half precision elu(x) + 1 and the normaliser can
// round to 0).
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <string>

namespace adala {

enum class Precision { FP32, BF16, FP16 };

const char* to_string(Precision precision);
// "fp32", "bf16" or "fp16"; throws std::invalid_argument naming the allowed values otherwise.
Precision precision_from_string(const std::string& name);
// The scalar type autocast lowers to (float32 for FP32: no autocast).
c10::ScalarType lower_precision_type(Precision precision);

// Linear-attention eps for a precision when the config gives none: the model's own for
// float32, at least 1e-5 in half precision (EfficientViT's fix for fp16 NaNs).
double default_linear_eps(Precision precision, double model_eps);
constexpr double kHalfPrecisionLinearEps = 1e-5;

// Throws std::invalid_argument when `precision` cannot run on `device` (fp16 on CPU).
void check_precision_supported(Precision precision, const c10::Device& device);

// Enables autocast for `device` at `precision` on this thread while alive (nothing for FP32),
// restoring the previous state (and clearing autocast's weight-cast cache) on exit. Backward
// passes should run outside it, as PyTorch advises.
class AutocastScope {
 public:
  AutocastScope(const c10::Device& device, Precision precision);
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool active_ = false;
  bool cuda_ = false;
  bool was_enabled_ = false;
  c10::ScalarType previous_type_ = c10::ScalarType::Float;
};

// Inside it, autocast is off on this thread (every autocast dispatch key excluded): ops run in
// the types of their inputs. The linear-attention kernels run in one.
class Fp32Region {
 public:
  Fp32Region();

 private:
  c10::impl::ExcludeDispatchKeyGuard guard_;
};

// True while an AutocastScope (CPU or CUDA) is active on this thread.
bool autocast_active();
// True while autocast is on for that device type on this thread (whatever turned it on).
bool autocast_enabled(c10::DeviceType type);

}  // namespace adala
