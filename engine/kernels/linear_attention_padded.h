#pragma once
// Linear attention in as few large LibTorch operations as the formula allows, differentiated by
// LibTorch's autograd: the path on devices where the fused CPU kernel
// (linear_attention_autograd.h) does not run (CUDA), where every operation is a kernel launch
// and a training step at real batch sizes is bound by their number. The value is that of
// adala::linear_attention, phi(Q) (phi(K)^T V) / (phi(Q) (phi(K)^T 1) + eps), computed as
//   phi(K), phi(Q)          elu into a contiguous tensor of its own (converted to float32 by
//                           the same copy when the input is bf16 / fp16), + 1 in place; the
//                           backward multiplies by phi'(x) = min(phi(x), 1), read from the
//                           saved result, so no input is kept for it
//   [V | 1]                 one pad: the ones column that folds the normaliser into the
//                           products below
//   S = phi(K)^T [V | 1]    one batched product (B * H, d, dv + 1)
//   [num | den] = phi(Q) S  one batched product: numerators and normaliser together
//   out = num / (den + eps)
// All of it in float32 (float64 for float64 inputs) with autocast off inside, whatever the
// inputs' type: under bf16 / fp16 autocast the products accumulate and store in float32.
// The result is float32 (float64 for float64 inputs); the caller's next layer casts it under
// autocast. `adala --linear-kernel padded` selects it on CPU too (for tests and comparisons).
#include <ATen/core/Tensor.h>

namespace adala {

// q, k: (..., N, d); v: (..., N, dv) with the same leading dimensions; returns (..., N, dv).
at::Tensor linear_attention_padded(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                   double eps);

}  // namespace adala
