#pragma once
// Attention kernels on (B, heads, N, head_dim) tensors. The linear kernel never forms an N x N
// matrix; the softmax kernels do (plain) or do so one query chunk at a time (chunked).
#include <ATen/ATen.h>

namespace adala {

// phi(x) = ELU(x) + 1, written so that it never rounds to exactly 0 in half precision.
at::Tensor elu_plus_one(const at::Tensor& x);

// softmax(Q K^T * scale) V. On CUDA with LibTorch 2.1 or later: at::scaled_dot_product_attention.
at::Tensor softmax_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                             double scale);

// The same result, holding at most chunk x N scores at a time.
at::Tensor softmax_attention_chunked(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                     double scale, int64_t chunk);

// phi(Q) (phi(K)^T V) / (phi(Q) (phi(K)^T 1) + eps), accumulated in float32 (float64 for
// float64 inputs). The batched formula: autograd differentiates it through its N x d
// intermediates (linear_attention_autograd.h is the fused kernel that training runs).
at::Tensor linear_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                            double eps);

// One row of each attention matrix: q is (head_dim), k is (N, head_dim); result is (N).
at::Tensor softmax_attention_row(const at::Tensor& q, const at::Tensor& k, double scale);
at::Tensor linear_attention_row(const at::Tensor& q, const at::Tensor& k, double eps);

}  // namespace adala
