#pragma once
// Linear attention from feature maps already applied, for any feature map phi:
//   out = phi(Q) (phi(K)^T V) / (phi(Q) (phi(K)^T 1) + eps)
// phi_q, phi_k: (B, H, N, F); v: (B, H, N, dv); result (B, H, N, dv) in v's type. Arithmetic
// in float32 (float64 when v is float64), never forming an N x N matrix; autograd
// differentiates it (the batched formula of attention_ops.h's linear_attention with phi
// taken out). Callers under autocast run it inside an Fp32Region (precision.h).
#include <ATen/ATen.h>

namespace adala {

at::Tensor linear_attention_from_features(const at::Tensor& phi_q, const at::Tensor& phi_k,
                                          const at::Tensor& v, double eps);

// One row of the linear attention weights per query feature row: phi_q (B, H, R, F),
// phi_k (B, H, N, F) -> (B, H, R, N), w_rn = phi_q[r] . phi_k[n] / (sum_m phi_q[r] . phi_k[m]
// + eps). Costs R x N x F; for inspection and losses on sampled rows, not for the forward pass.
at::Tensor linear_attention_weight_rows(const at::Tensor& phi_q, const at::Tensor& phi_k,
                                        double eps);

}  // namespace adala
