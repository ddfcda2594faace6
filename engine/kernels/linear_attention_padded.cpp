#include "engine/kernels/linear_attention_padded.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include "engine/runtime/precision.h"

namespace adala {
namespace {

// phi(x) = elu(x) + 1 of `type` in a contiguous tensor of its own: the elu writes it (or the
// conversion's copy does, and the elu runs in place), the + 1 runs in place.
at::Tensor phi_of(const at::Tensor& x, at::ScalarType type) {
  at::Tensor y = at::empty(x.sizes(), x.options().dtype(type));
  if (x.scalar_type() == type) {
    at::elu_out(y, x);
  } else {
    y.copy_(x);
    at::elu_(y);
  }
  return y.add_(1);
}

class PhiFunction : public torch::autograd::Function<PhiFunction> {
 public:
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                            int64_t type) {
    at::Tensor y = phi_of(x, static_cast<at::ScalarType>(type));
    ctx->save_for_backward({y});
    ctx->saved_data["input_type"] = static_cast<int64_t>(x.scalar_type());
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const at::Tensor y = ctx->get_saved_variables()[0];
    at::Tensor dx = y.clamp_max(1);  // phi'(x): exp(x) = phi(x) below 0, 1 above
    dx.mul_(grads[0]);
    const auto input_type = static_cast<at::ScalarType>(ctx->saved_data["input_type"].toInt());
    return {dx.to(input_type), at::Tensor()};
  }
};

at::Tensor phi(const at::Tensor& x, at::ScalarType type) {
  if (c10::GradMode::is_enabled() && x.requires_grad())
    return PhiFunction::apply(x, static_cast<int64_t>(type));
  return phi_of(x, type);
}

std::string shape_text(const at::Tensor& t) {
  std::string s = "(";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + ")";
}

}  // namespace

at::Tensor linear_attention_padded(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                   double eps) {
  const bool shapes_match = q.dim() >= 3 && k.sizes() == q.sizes() && v.dim() == q.dim() &&
                            v.sizes().slice(0, v.dim() - 1) == q.sizes().slice(0, q.dim() - 1);
  if (!shapes_match)
    throw std::invalid_argument("linear_attention_padded: q " + shape_text(q) + ", k " +
                                shape_text(k) + " and v " + shape_text(v) +
                                " must be (..., N, d), (..., N, d) and (..., N, dv)");
  const Fp32Region fp32;
  const auto type = q.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  const int64_t n = q.size(-2), d = q.size(-1), dv = v.size(-1);
  const at::Tensor phi_q = phi(q, type).view({-1, n, d});
  const at::Tensor phi_k = phi(k, type).view({-1, n, d});
  const at::Tensor v1 = at::constant_pad_nd(v.to(type), {0, 1}, 1.0).reshape({-1, n, dv + 1});
  const at::Tensor state = at::bmm(phi_k.transpose(1, 2), v1);  // (B * H, d, dv + 1)
  const auto num_den = at::bmm(phi_q, state).split_with_sizes({dv, 1}, -1);
  const at::Tensor out = num_den[0] / (num_den[1] + eps);
  return out.view(v.sizes());
}

}  // namespace adala
