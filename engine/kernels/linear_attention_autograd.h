#pragma once
// Linear attention for training: the value of adala::linear_attention,
//   phi(Q) (phi(K)^T V) / (phi(Q) (phi(K)^T 1) + eps),  phi(x) = elu(x) + 1,
// as one autograd function with its own forward and backward instead of the batched formula's
// graph of N x d intermediates. Like linear_attention_blocked, the intra-op threads take
// (batch, head) pairs one at a time (OpenBLAS single-threaded meanwhile) and rows go through
// per-thread buffers of block_rows rows:
//   forward   S = phi(K)^T [V | 1] (d x (dv + 1)) block by block, phi fused with the column sum
//             that is S's last column; then per query block the inverse normaliser
//             1 / (phi(Q_b) z + eps) and one product phi(Q_b) S_num that divides by it as it
//             stores the output.
//   saved     q, k, v and S per head; no N x d intermediate, not even the output.
//   backward  per query block, recomputed: phi(Q_b) and den = phi(Q_b) S_den + eps; then
//             P = (g / den) S_num^T, whose row dot phi(Q_b) is g . out, so the normaliser's
//             gradient e = -(phi(Q_b) . P) / den needs no read of the output;
//             dQ = (P + e S_den^T) * phi'(Q) in one pass, dS += phi(Q_b)^T [g / den | e];
//             per key block: phi(K_b), dK = (V dS_num^T + dS_den) * phi'(K) applied as the
//             product stores it, dV = phi(K_b) dS_num.
//             phi'(x) = min(phi(x), 1), so the backward's only exps are the two phi passes.
// Two matmuls of N x d x (dv + 1) in the forward, four in the backward (the forward's three
// times, as for any matmul's backward: nothing recomputed but phi), in float32 through
// small_gemm.h's register tiles (without AVX2, and in float64, row_major_gemm). Arithmetic and
// accumulation in float32 (float64 for float64 inputs; half types are computed in float32 and
// the result converted back). Off CPU it is the padded form under LibTorch's autograd
// (linear_attention_padded.h), the result converted back to q's type.
#include <ATen/core/Tensor.h>

namespace adala {

constexpr int64_t kLinearAttentionAutogradBlockRows = 256;

// q, k: (B, H, N, d); v: (B, H, N, dv); the result (B, H, N, dv) is a view of a (B, N, H, dv)
// tensor, so merging the heads back into (B, N, H * dv) needs no copy.
at::Tensor linear_attention_autograd(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                     double eps,
                                     int64_t block_rows = kLinearAttentionAutogradBlockRows);

}  // namespace adala
