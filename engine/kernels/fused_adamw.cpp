#include "engine/kernels/fused_adamw.h"

#include <cmath>

#include <ATen/Parallel.h>
#include <c10/util/string_utils.h>
#include <torch/autograd.h>

namespace adala {

namespace {

struct Coefficients {
  float decay;  // 1 - lr * weight_decay
  float beta1, one_minus_beta1, beta2, one_minus_beta2;
  float inv_sqrt_bias_correction2, eps, neg_step_size;
};

// The same per-element arithmetic as LibTorch's AdamW: mul_(decay); exp_avg.mul_(b1).add_(g,
// 1 - b1); exp_avg_sq.mul_(b2).addcmul_(g, g, 1 - b2); denom = sqrt(v) / sqrt(bc2) + eps;
// p.addcdiv_(m, denom, -step_size).
void update_range(float* p, const float* g, float* m, float* v, int64_t begin, int64_t end,
                  const Coefficients& c) {
  for (int64_t i = begin; i < end; ++i) {
    const float gi = g[i];
    const float mi = m[i] * c.beta1 + c.one_minus_beta1 * gi;
    const float vi = v[i] * c.beta2 + c.one_minus_beta2 * gi * gi;
    m[i] = mi;
    v[i] = vi;
    const float denom = std::sqrt(vi) * c.inv_sqrt_bias_correction2 + c.eps;
    p[i] = p[i] * c.decay + c.neg_step_size * (mi / denom);
  }
}

bool fusable(const at::Tensor& p, const at::Tensor& g, const at::Tensor& m, const at::Tensor& v) {
  for (const auto* t : {&p, &g, &m, &v})
    if (!t->is_cpu() || t->scalar_type() != at::kFloat || !t->is_contiguous() || t->is_sparse())
      return false;
  return g.numel() == p.numel() && m.numel() == p.numel() && v.numel() == p.numel();
}

}  // namespace

torch::Tensor FusedAdamW::step(LossClosure closure) {
  torch::Tensor loss;
  if (closure) {
    at::AutoGradMode enable_grad(true);
    loss = closure();
  }
  torch::NoGradGuard no_grad;
  for (auto& group : param_groups_) {
    auto& options = static_cast<torch::optim::AdamWOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      const auto key = optimizer_state_key(p);
      auto found = state_.find(key);
      if (found == state_.end()) {
        auto fresh = std::make_unique<torch::optim::AdamWParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(p, at::MemoryFormat::Preserve));
        fresh->exp_avg_sq(torch::zeros_like(p, at::MemoryFormat::Preserve));
        if (options.amsgrad())
          fresh->max_exp_avg_sq(torch::zeros_like(p, at::MemoryFormat::Preserve));
        found = state_.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<torch::optim::AdamWParamState&>(*found->second);
      const auto& grad = p.grad();
      auto& exp_avg = state.exp_avg();
      auto& exp_avg_sq = state.exp_avg_sq();
      const auto [beta1, beta2] = options.betas();
      if (options.amsgrad() || !fusable(p, grad, exp_avg, exp_avg_sq)) {
        // The reference path, step for step LibTorch's.
        if (options.weight_decay() != 0) p.mul_(1 - options.lr() * options.weight_decay());
        state.step(state.step() + 1);
        const double bc1 = 1 - std::pow(beta1, state.step());
        const double bc2 = 1 - std::pow(beta2, state.step());
        exp_avg.mul_(beta1).add_(grad, 1 - beta1);
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2);
        torch::Tensor denom;
        if (options.amsgrad()) {
          auto& max_sq = state.max_exp_avg_sq();
          torch::max_out(max_sq, exp_avg_sq, max_sq);
          denom = (max_sq.sqrt() / std::sqrt(bc2)).add_(options.eps());
        } else {
          denom = (exp_avg_sq.sqrt() / std::sqrt(bc2)).add_(options.eps());
        }
        p.addcdiv_(exp_avg, denom, -options.lr() / bc1);
        continue;
      }
      state.step(state.step() + 1);
      const double bc1 = 1 - std::pow(beta1, state.step());
      const double bc2 = 1 - std::pow(beta2, state.step());
      const Coefficients c{static_cast<float>(1 - options.lr() * options.weight_decay()),
                           static_cast<float>(beta1),
                           static_cast<float>(1 - beta1),
                           static_cast<float>(beta2),
                           static_cast<float>(1 - beta2),
                           static_cast<float>(1 / std::sqrt(bc2)),
                           static_cast<float>(options.eps()),
                           static_cast<float>(-options.lr() / bc1)};
      float* pp = p.data_ptr<float>();
      const float* gp = grad.data_ptr<float>();
      float* mp = exp_avg.data_ptr<float>();
      float* vp = exp_avg_sq.data_ptr<float>();
      at::parallel_for(0, p.numel(), 1 << 15, [&](int64_t begin, int64_t end) {
        update_range(pp, gp, mp, vp, begin, end, c);
      });
    }
  }
  return loss;
}

}  // namespace adala
