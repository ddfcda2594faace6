#pragma once
// A blocked, head-parallel variant of adala::linear_attention for inference on CPU: the same
// formula, phi(Q)(phi(K)^T [V | 1]) with phi(x) = where(x >= 0, x + 1, exp(min(x, 0))) and the
// normaliser from the ones column, but
//   - the intra-op threads take (batch, head) pairs one at a time, so the matmuls of
//     different heads run on different cores (this engine keeps OpenBLAS single-threaded, so
//     one large at::matmul uses one core) and a thread that loses its core on a shared
//     machine does not hold up a fixed share of the heads;
//   - rows are processed in blocks of `block_rows` through per-thread buffers that stay in
//     cache and are reused, so no N x d temporary is allocated (on Linux every large fresh
//     allocation is a new mmap whose pages fault in one by one: that, not arithmetic, was
//     most of the plain kernel's time); phi is computed as exp(min(x, 0)) + max(x, 0), which
//     is bitwise the where() form, in place;
//   - phi(K)^T [V | 1] accumulates block by block (addmm_), the output is written in place.
// Forward only (no autograd graph): it falls back to linear_attention when gradients are
// needed, off CPU, for non-float32 inputs, or when there are fewer (batch, head) pairs than
// threads.
#include <ATen/ATen.h>

namespace adala {

// LinearAttention uses the blocked kernel from this many tokens on.
inline constexpr int64_t kBlockedLinearMinTokens = 1024;

at::Tensor linear_attention_blocked(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                    double eps, int64_t block_rows = 2048);

// phi(x) = exp(min(x, 0)) + max(x, 0) into out (same shape as x); tmp is scratch of that shape.
void elu_plus_one_into(at::Tensor& out, const at::Tensor& x, at::Tensor& tmp);

}  // namespace adala
