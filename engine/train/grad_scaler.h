#pragma once
// Dynamic loss scaling for float16 training, as PyTorch's torch.cuda.amp.GradScaler (LibTorch
// 1.13's C++ API has none): the loss is multiplied by `scale` before backward; the gradients
// are divided by it again and checked for inf/NaN; a step with non-finite gradients is
// skipped and the scale multiplied by backoff_factor; after growth_interval steps in a row
// without one, the scale is multiplied by growth_factor.
// On CUDA the two steps are LibTorch's own kernels (_amp_foreach_non_finite_check_and_unscale_,
// _amp_update_scale_); LibTorch 1.13 has no CPU kernels for them, so on CPU the same
// arithmetic runs as ordinary tensor ops (the tests check it there).
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <vector>

namespace adala {

struct GradScalerOptions {
  double init_scale = 65536.0;
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int64_t growth_interval = 2000;
};

class GradScaler {
 public:
  GradScaler(GradScalerOptions options, const c10::Device& device);

  // loss * scale, in float32.
  at::Tensor scale(const at::Tensor& loss) const;
  // Divides every defined gradient of `params` by the scale, in place; true when any of them
  // holds an inf or a NaN (the step must then be skipped).
  bool unscale(const std::vector<at::Tensor>& params);
  // After unscale(): backs off when it found non-finite gradients, else counts toward growth.
  void update();

  double scale_value() const;
  int64_t growth_tracker() const;
  const GradScalerOptions& options() const { return options_; }
  // The state a checkpoint keeps: the scale (float32, 1 element) and the growth tracker
  // (int32, 1 element), on the CPU.
  at::Tensor scale_tensor() const;
  at::Tensor growth_tracker_tensor() const;
  void load(const at::Tensor& scale, const at::Tensor& growth_tracker);

 private:
  GradScalerOptions options_;
  c10::Device device_;
  at::Tensor scale_;           // float32 (1) on device_
  at::Tensor growth_tracker_;  // int32 (1) on device_
  at::Tensor found_inf_;       // float32 (1) on device_
};

}  // namespace adala
