#include "engine/train/grad_scaler.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

namespace adala {

GradScaler::GradScaler(GradScalerOptions options, const c10::Device& device)
    : options_(options), device_(device) {
  if (!(options_.init_scale > 0) || !(options_.growth_factor > 1.0) ||
      !(options_.backoff_factor > 0.0 && options_.backoff_factor < 1.0) ||
      options_.growth_interval < 1)
    throw std::invalid_argument(
        "GradScaler: needs init_scale > 0, growth_factor > 1, 0 < backoff_factor < 1 and "
        "growth_interval >= 1");
  scale_ = at::full({1}, options_.init_scale, at::TensorOptions(device_).dtype(at::kFloat));
  growth_tracker_ = at::zeros({1}, at::TensorOptions(device_).dtype(at::kInt));
  found_inf_ = at::zeros({1}, at::TensorOptions(device_).dtype(at::kFloat));
}

at::Tensor GradScaler::scale(const at::Tensor& loss) const {
  return loss.to(at::kFloat) * scale_.to(loss.device());
}

bool GradScaler::unscale(const std::vector<at::Tensor>& params) {
  found_inf_.zero_();
  const auto inv_scale = scale_.reciprocal();
  std::vector<at::Tensor> grads;
  for (const auto& p : params)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (device_.is_cuda()) {
    // One fused kernel per dtype: it multiplies in place and sets found_inf to 1 on any inf/NaN.
    std::vector<at::Tensor> f32, other;
    for (auto& g : grads) (g.scalar_type() == at::kFloat ? f32 : other).push_back(g);
    if (!f32.empty()) at::_amp_foreach_non_finite_check_and_unscale_(f32, found_inf_, inv_scale);
    for (auto& g : other) {
      std::vector<at::Tensor> one{g};
      at::_amp_foreach_non_finite_check_and_unscale_(one, found_inf_, inv_scale);
    }
  } else {
    // The same arithmetic as the CUDA kernel, in ordinary ops.
    for (auto& g : grads) {
      found_inf_ = at::maximum(found_inf_, at::logical_not(at::isfinite(g)).any().to(at::kFloat));
      g.mul_(inv_scale.to(g.scalar_type()));
    }
  }
  return found_inf_.item<float>() > 0.0f;
}

void GradScaler::update() {
  if (device_.is_cuda()) {
    at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, options_.growth_factor,
                           options_.backoff_factor, options_.growth_interval);
    return;
  }
  // _amp_update_scale_'s rule: back off and reset the tracker on inf; else count, and grow
  // (when the grown scale is finite) and reset at growth_interval.
  float scale = scale_.item<float>();
  int32_t tracker = growth_tracker_.item<int32_t>();
  if (found_inf_.item<float>() > 0.0f) {
    scale = static_cast<float>(scale * options_.backoff_factor);
    tracker = 0;
  } else if (tracker + 1 >= options_.growth_interval) {
    const float grown = static_cast<float>(scale * options_.growth_factor);
    if (std::isfinite(grown)) scale = grown;
    tracker = 0;
  } else {
    ++tracker;
  }
  scale_.fill_(scale);
  growth_tracker_.fill_(tracker);
}

double GradScaler::scale_value() const { return scale_.item<double>(); }
int64_t GradScaler::growth_tracker() const { return growth_tracker_.item<int64_t>(); }
at::Tensor GradScaler::scale_tensor() const { return scale_.to(at::kCPU).clone(); }
at::Tensor GradScaler::growth_tracker_tensor() const {
  return growth_tracker_.to(at::kCPU).clone();
}

void GradScaler::load(const at::Tensor& scale, const at::Tensor& growth_tracker) {
  if (scale.numel() != 1 || growth_tracker.numel() != 1)
    throw std::runtime_error("loss scaler state: expected one scale and one growth tracker value");
  scale_.fill_(scale.to(at::kCPU, at::kFloat).item<float>());
  growth_tracker_.fill_(growth_tracker.to(at::kCPU, at::kInt).item<int32_t>());
}

}  // namespace adala
