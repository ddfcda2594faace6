#pragma once
// A blocked, head-parallel variant of adala::linear_attention for inference on CPU: the same
// formula, phi(Q)(phi(K)^T V) / (phi(Q)(phi(K)^T 1) + eps) with phi(x) = elu(x) + 1, but
//   - the intra-op threads take (batch, head) pairs one at a time, so the matmuls of
//     different heads run on different cores (OpenBLAS runs single-threaded for the duration,
//     SingleThreadedBlas in device.h, so each worker's matmuls use its own core instead of
//     every worker calling into OpenBLAS's pool) and a thread that loses its core on a shared
//     machine does not hold up a fixed share of the heads;
//   - rows are processed in blocks of `block_rows` through per-thread buffers that stay in
//     cache and are reused, so no N x d temporary is allocated (on Linux every large fresh
//     allocation is a new mmap whose pages fault in one by one);
//   - phi is one vectorised pass (elu_plus_one_kernel.h; LibTorch's exp here is scalar and
//     cost more than the matmuls), which also accumulates phi(K)^T 1, so V is read in place
//     by the matmul instead of being copied next to a ones column;
//   - phi(K)^T V accumulates block by block (addmm_) beside phi(K)^T 1, so one matmul per
//     query block gives numerators and normaliser, and one vector pass divides them into the
//     output.
// Forward only (no autograd graph): off CPU it runs linear_attention_padded (the result in
// q's type); on CPU it falls back to linear_attention when gradients are needed, for
// non-float32 inputs, or when there are fewer (batch, head) pairs than threads.
#include <ATen/ATen.h>

namespace adala {

at::Tensor linear_attention_blocked(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                    double eps, int64_t block_rows = 2048);

// phi(x) into out (contiguous, same shape as x): the vectorised kernel for float32 matrices
// with unit column stride, elu_plus_one otherwise.
void elu_plus_one_into(at::Tensor& out, const at::Tensor& x);

}  // namespace adala
