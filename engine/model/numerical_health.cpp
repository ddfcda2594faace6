#include "engine/model/numerical_health.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <algorithm>

#include "engine/kernels/attention_ops.h"
#include "engine/runtime/precision.h"

namespace adala {

namespace {
thread_local HealthProbe* current_probe = nullptr;

at::Tensor nonfinite_count(const at::Tensor& t) {
  return at::logical_not(at::isfinite(t)).sum().to(at::kFloat);
}

// Keeps the worse of two values of one slot (a block measured twice in a pass).
void keep(at::Tensor& slot, const at::Tensor& value, bool larger_is_worse) {
  if (!slot.defined())
    slot = value;
  else
    slot = larger_is_worse ? at::maximum(slot, value) : at::minimum(slot, value);
}
}  // namespace

HealthProbe::Scope::Scope(HealthProbe* probe) : previous_(current_probe) { current_probe = probe; }
HealthProbe::Scope::~Scope() { current_probe = previous_; }
HealthProbe* HealthProbe::current() { return current_probe; }

void HealthProbe::record_attention(int64_t block, const at::Tensor& q, const at::Tensor& k,
                                   const at::Tensor& output) {
  const c10::NoGradGuard no_grad;
  const Fp32Region fp32;
  auto& s = tensors_[block];
  keep(s.attention_nonfinite, nonfinite_count(output.detach()), true);
  if (!normaliser_stats_) return;
  // The normaliser of each query: phi(q) . sum_n phi(k_n), in float32 like the kernels.
  auto ksum = elu_plus_one(k.detach().to(at::kFloat)).sum(-2, true);    // (B, H, 1, d)
  auto den = (elu_plus_one(q.detach().to(at::kFloat)) * ksum).sum(-1);  // (B, H, N)
  record_normalisers(s, den);
}

void HealthProbe::record_attention_features(int64_t block, const at::Tensor& phi_q,
                                            const at::Tensor& phi_k, const at::Tensor& output) {
  const c10::NoGradGuard no_grad;
  const Fp32Region fp32;
  auto& s = tensors_[block];
  keep(s.attention_nonfinite, nonfinite_count(output.detach()), true);
  if (!normaliser_stats_) return;
  auto ksum = phi_k.detach().to(at::kFloat).sum(-2, true);    // (B, H, 1, F)
  auto den = (phi_q.detach().to(at::kFloat) * ksum).sum(-1);  // (B, H, N)
  record_normalisers(s, den);
}

void HealthProbe::record_normalisers(Slots& s, const at::Tensor& den) {
  // NaN normalisers count as the smallest possible value (they are the worst kind of small).
  auto clean = at::nan_to_num(den, -1.0);
  keep(s.min_normaliser, clean.min(), false);
  keep(s.low_share, (clean < threshold_).to(at::kFloat).mean(), true);
}

void HealthProbe::record_block_output(int64_t block, const at::Tensor& output) {
  const c10::NoGradGuard no_grad;
  const Fp32Region fp32;
  auto& s = tensors_[block];
  auto x = output.detach();
  keep(s.activation_nonfinite, nonfinite_count(x), true);
  keep(s.max_abs, at::nan_to_num(x.abs().max().to(at::kFloat), 0.0), true);
}

std::vector<BlockHealth> HealthProbe::values() const {
  std::vector<BlockHealth> out;
  if (tensors_.empty()) return out;
  // Five numbers per block (-1 where a value was not measured), stacked on the device and
  // copied to the host at once.
  at::TensorOptions opts = at::TensorOptions().dtype(at::kFloat);
  for (const auto& entry : tensors_)
    if (entry.second.attention_nonfinite.defined() || entry.second.activation_nonfinite.defined())
      opts = opts.device((entry.second.attention_nonfinite.defined()
                              ? entry.second.attention_nonfinite
                              : entry.second.activation_nonfinite)
                             .device());
  std::vector<at::Tensor> values;
  auto pick = [&](const at::Tensor& t, double fallback) {
    return t.defined() ? t.to(opts.device()).to(at::kFloat).reshape({})
                       : at::full({}, fallback, opts);
  };
  for (const auto& entry : tensors_) {
    const Slots& s = entry.second;
    for (auto [t, fallback] : {std::pair<const at::Tensor*, double>{&s.min_normaliser, -1.0},
                               {&s.low_share, -1.0},
                               {&s.attention_nonfinite, 0.0},
                               {&s.activation_nonfinite, -1.0},
                               {&s.max_abs, -1.0}})
      values.push_back(pick(*t, fallback));
  }
  auto host = at::stack(values).to(at::kCPU, at::kDouble).contiguous();
  const double* v = host.data_ptr<double>();
  size_t i = 0;
  for (const auto& entry : tensors_) {
    BlockHealth h;
    h.block = entry.first;
    h.min_normaliser = v[i * 5 + 0];
    h.low_normaliser_share = v[i * 5 + 1];
    h.attention_nonfinite = v[i * 5 + 2];
    h.activation_nonfinite = v[i * 5 + 3];
    h.max_abs_activation = v[i * 5 + 4];
    out.push_back(h);
    ++i;
  }
  return out;
}

NonFiniteLocation first_nonfinite_block(const std::vector<BlockHealth>& health) {
  for (const auto& h : health) {
    if (h.attention_nonfinite > 0)
      return {h.block, "linear attention output: " +
                           std::to_string(int64_t(h.attention_nonfinite)) + " non-finite values"};
    if (h.activation_nonfinite > 0)
      return {h.block, "block output: " + std::to_string(int64_t(h.activation_nonfinite)) +
                           " non-finite values"};
  }
  return {};
}

}  // namespace adala
