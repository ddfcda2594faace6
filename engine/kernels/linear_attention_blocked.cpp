#include "engine/kernels/linear_attention_blocked.h"

#include <algorithm>

#include <ATen/Parallel.h>
#include <c10/core/GradMode.h>

#include "engine/kernels/attention_ops.h"
#include "engine/kernels/elu_plus_one_kernel.h"
#include "engine/kernels/head_parallel.h"
#include "engine/kernels/linear_attention_padded.h"

namespace adala {

void elu_plus_one_into(at::Tensor& out, const at::Tensor& x) {
  if (x.dim() == 2 && x.is_cpu() && x.scalar_type() == at::kFloat && x.stride(1) == 1 &&
      out.is_contiguous() && out.sizes() == x.sizes() && out.scalar_type() == at::kFloat) {
    elu_plus_one_rows(x.data_ptr<float>(), x.stride(0), out.data_ptr<float>(), out.size(1),
                      x.size(0), x.size(1));
    return;
  }
  out.copy_(elu_plus_one(x));
}

at::Tensor linear_attention_blocked(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                    double eps, int64_t block_rows) {
  const bool needs_grad =
      c10::GradMode::is_enabled() && (q.requires_grad() || k.requires_grad() || v.requires_grad());
  const int64_t bh = q.dim() == 4 ? q.size(0) * q.size(1) : 0;
  if (!q.is_cpu()) return linear_attention_padded(q, k, v, eps).to(q.scalar_type());
  if (needs_grad || !q.is_cpu() || q.dim() != 4 || q.scalar_type() != at::kFloat ||
      k.scalar_type() != at::kFloat || v.scalar_type() != at::kFloat || bh < at::get_num_threads())
    return linear_attention(q, k, v, eps);
  if (q.stride(3) != 1 || k.stride(3) != 1)
    return linear_attention_blocked(q.contiguous(), k.contiguous(), v, eps, block_rows);
  const int64_t n = q.size(2), d = q.size(3), dv = v.size(3);
  const int64_t block = rows_per_block(block_rows, n);
  auto q3 = q.reshape({bh, n, d}), k3 = k.reshape({bh, n, d}), v3 = v.reshape({bh, n, dv});
  auto out = at::empty({bh, n, dv}, q.options());
  for_each_head(bh, [&] {
    auto opts = q.options();
    // kvx = [phi(K)^T V | phi(K)^T 1]: one matmul per query block gives the numerators and,
    // in its last column, the normaliser.
    auto phi = at::empty({block, d}, opts), kvx = at::empty({d, dv + 1}, opts);
    auto obuf = at::empty({block, dv + 1}, opts), ksum = at::empty({d}, opts);
    return [&, phi, kvx, obuf, ksum](int64_t h) mutable {
      auto kv = kvx.narrow(1, 0, dv);
      float* phi_data = phi.data_ptr<float>();
      kv.zero_();
      ksum.zero_();
      auto kh = k3[h], vh = v3[h], qh = q3[h];
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        auto kb = kh.narrow(0, r, len);
        elu_plus_one_rows_colsum(kb.data_ptr<float>(), kb.stride(0), phi_data, d, len, d,
                                 ksum.data_ptr<float>());
        kv.addmm_(phi.narrow(0, 0, len).t(), vh.narrow(0, r, len));  // phi(K)^T V
      }
      kvx.select(1, dv).copy_(ksum);
      float* out_head = out[h].data_ptr<float>();
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        auto qb = qh.narrow(0, r, len);
        elu_plus_one_rows(qb.data_ptr<float>(), qb.stride(0), phi_data, d, len, d);
        auto ob = obuf.narrow(0, 0, len);
        at::mm_out(ob, phi.narrow(0, 0, len), kvx);
        divide_rows_by_last_column(ob.data_ptr<float>(), dv + 1, out_head + r * dv, dv, len, dv,
                                   static_cast<float>(eps));
      }
    };
  });
  return out.view({q.size(0), q.size(1), n, dv});
}

}  // namespace adala
