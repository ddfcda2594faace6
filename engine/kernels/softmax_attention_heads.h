#pragma once
// Softmax attention without autograd, head-parallel like the linear kernels: per (batch, head)
// and block of query rows, scores = scale * Q_b K^T through CBLAS, each row's max taken off and
// exp'd with the vectorised kernel (elu_plus_one_kernel.h: for x <= 0 it is exp), then
// P_b V and the division by the row sums. It holds a (block x N) slice of the scores per
// thread, never all N x N, and none of LibTorch's per-(batch x head) matmul dispatch (its bmm
// loops over them one at a time: at 128 images x 4 heads x 50 tokens that loop was most of a
// Stage-2 step's teacher forward).
//
// Softmax attention's O(N^2) memory is what the benchmarks measure, so the plain formula stays
// the default; the training stages opt in for the frozen teacher's forward with
// SoftmaxHeadsScope.
#include <ATen/core/Tensor.h>

namespace adala {

constexpr int64_t kSoftmaxHeadsBlockRows = 128;

// q, k: (B, H, N, d), v: (B, H, N, dv), float32 on CPU; returns (B, H, N, dv) (a view of a
// (B, N, H, dv) tensor). Throws std::invalid_argument for other shapes or types.
at::Tensor softmax_attention_heads(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                   double scale, int64_t block_rows = kSoftmaxHeadsBlockRows);

// While one is open on this thread, softmax attention that needs no gradient (float32, CPU)
// runs softmax_attention_heads. Scopes nest.
class SoftmaxHeadsScope {
 public:
  SoftmaxHeadsScope();
  ~SoftmaxHeadsScope();
  SoftmaxHeadsScope(const SoftmaxHeadsScope&) = delete;
  SoftmaxHeadsScope& operator=(const SoftmaxHeadsScope&) = delete;
  static bool active();

 private:
  bool previous_;
};

}  // namespace adala
