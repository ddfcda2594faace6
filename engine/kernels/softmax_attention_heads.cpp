#include "engine/kernels/softmax_attention_heads.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <ATen/ATen.h>

#include "engine/kernels/elu_plus_one_kernel.h"
#include "engine/kernels/head_parallel.h"
#include "engine/kernels/row_major_gemm.h"

namespace adala {
namespace {

thread_local bool softmax_heads_active = false;

// Row r of s (n entries) becomes exp(s - max) in p; returns the row's sum.
float exp_row_minus_max(float* __restrict s, float* __restrict p, int64_t n) {
  float m = s[0];
  for (int64_t j = 1; j < n; ++j) m = std::max(m, s[j]);
  for (int64_t j = 0; j < n; ++j) s[j] -= m;
  // phi(x) = exp(x) for x < 0 and x + 1 = 1 = exp(0) at the maximum itself.
  elu_plus_one_rows(s, n, p, n, 1, n);
  float sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t j = 0; j < n; ++j) sum += p[j];
  return sum;
}

}  // namespace

at::Tensor softmax_attention_heads(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                   double scale, int64_t block_rows) {
  if (q.dim() != 4 || k.sizes() != q.sizes() || v.dim() != 4 || v.size(0) != q.size(0) ||
      v.size(1) != q.size(1) || v.size(2) != q.size(2))
    throw std::invalid_argument(
        "softmax_attention_heads: q, k must be (B, H, N, d), v (B, H, N, dv)");
  for (const auto* t : {&q, &k, &v})
    if (!t->is_cpu() || t->scalar_type() != at::kFloat)
      throw std::invalid_argument("softmax_attention_heads: float32 CPU tensors only");
  if (block_rows < 1) throw std::invalid_argument("softmax_attention_heads: block_rows < 1");
  const auto qc = with_unit_last_stride(q), kc = with_unit_last_stride(k),
             vc = with_unit_last_stride(v);
  const int64_t b = q.size(0), heads = q.size(1), n = q.size(2), d = q.size(3), dv = v.size(3);
  auto out = at::empty({b, n, heads, dv}, q.options());
  const int64_t block = rows_per_block(block_rows, n);
  const float alpha = static_cast<float>(scale);
  for_each_head(b * heads, [&] {
    return [&, s = std::vector<float>(size_t(block * n)), p = std::vector<float>(size_t(block * n)),
            pv = std::vector<float>(size_t(block * dv)),
            sums = std::vector<float>(size_t(block))](int64_t h) mutable {
      const auto qh = head_of<float>(qc, h), kh = head_of<float>(kc, h), vh = head_of<float>(vc, h);
      const auto oh = head_of_token_major<float>(out, h);
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        row_major_gemm(false, true, len, n, d, alpha, qh.row(r), qh.stride, kh.data, kh.stride,
                       0.0f, s.data(), n);
        for (int64_t i = 0; i < len; ++i)
          sums[size_t(i)] = exp_row_minus_max(s.data() + i * n, p.data() + i * n, n);
        row_major_gemm(false, false, len, dv, n, 1.0f, p.data(), n, vh.data, vh.stride, 0.0f,
                       pv.data(), dv);
        for (int64_t i = 0; i < len; ++i) {
          const float inv = 1.0f / sums[size_t(i)];
          const float* src = pv.data() + i * dv;
          float* dst = oh.row(r + i);
          for (int64_t c = 0; c < dv; ++c) dst[c] = src[c] * inv;
        }
      }
    };
  });
  return out.transpose(1, 2);
}

SoftmaxHeadsScope::SoftmaxHeadsScope() : previous_(softmax_heads_active) {
  softmax_heads_active = true;
}

SoftmaxHeadsScope::~SoftmaxHeadsScope() { softmax_heads_active = previous_; }

bool SoftmaxHeadsScope::active() { return softmax_heads_active; }

}  // namespace adala
