#include "engine/kernels/linear_attention_features.h"

namespace adala {

namespace {
at::ScalarType accumulation_type(const at::Tensor& t) {
  return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
}
}  // namespace

at::Tensor linear_attention_from_features(const at::Tensor& phi_q, const at::Tensor& phi_k,
                                          const at::Tensor& v, double eps) {
  const auto type = accumulation_type(v);
  // Pad V with a column of ones so the normaliser comes out of the same matmul.
  auto ones = at::ones({v.size(0), v.size(1), v.size(2), 1}, v.options().dtype(type));
  auto v1 = at::cat({v.to(type), ones}, -1);
  auto kv = at::matmul(phi_k.to(type).transpose(-2, -1), v1);  // (B, H, F, dv + 1)
  auto numden = at::matmul(phi_q.to(type), kv);                // (B, H, N, dv + 1)
  const int64_t dv = v.size(-1);
  auto out = numden.narrow(-1, 0, dv) / (numden.narrow(-1, dv, 1) + eps);
  return out.to(v.scalar_type());
}

at::Tensor linear_attention_weight_rows(const at::Tensor& phi_q, const at::Tensor& phi_k,
                                        double eps) {
  const auto type = accumulation_type(phi_q);
  auto w = at::matmul(phi_q.to(type), phi_k.to(type).transpose(-2, -1));  // (B, H, R, N)
  return w / (w.sum(-1, true) + eps);
}

}  // namespace adala
