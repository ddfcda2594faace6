#include "engine/core/linear_attention_blocked.h"

#include <algorithm>
#include <atomic>

#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>
#include <c10/core/GradMode.h>

#include "engine/core/attention_ops.h"

namespace adala {

void elu_plus_one_into(at::Tensor& out, const at::Tensor& x, at::Tensor& tmp) {
  at::clamp_max_out(out, x, 0);
  out.exp_();
  at::clamp_min_out(tmp, x, 0);
  out.add_(tmp);
}

at::Tensor linear_attention_blocked(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                    double eps, int64_t block_rows) {
  const bool needs_grad =
      c10::GradMode::is_enabled() && (q.requires_grad() || k.requires_grad() || v.requires_grad());
  const int64_t bh = q.dim() == 4 ? q.size(0) * q.size(1) : 0;
  if (needs_grad || !q.is_cpu() || q.dim() != 4 || q.scalar_type() != at::kFloat ||
      k.scalar_type() != at::kFloat || v.scalar_type() != at::kFloat || bh < at::get_num_threads())
    return linear_attention(q, k, v, eps);
  const int64_t n = q.size(2), d = q.size(3), dv = v.size(3);
  const int64_t block = std::max<int64_t>(1, std::min(block_rows, n));
  auto q3 = q.reshape({bh, n, d}), k3 = k.reshape({bh, n, d}), v3 = v.reshape({bh, n, dv});
  auto out = at::empty({bh, n, dv}, q.options());
  // at::parallel_for does not carry thread-local state (inference mode, grad mode, the
  // allocator's memory reporting) to OpenMP workers; each task takes the caller's.
  const at::ThreadLocalState caller_state;
  // One task per thread, each taking the next (batch, head) pair until none is left: on a
  // shared machine a thread that loses its core for a while no longer holds up a fixed share.
  const int64_t workers = std::min<int64_t>(bh, at::get_num_threads());
  std::atomic<int64_t> next_head{0};
  at::parallel_for(0, workers, 1, [&](int64_t, int64_t) {
    at::ThreadLocalStateGuard state_guard(caller_state);
    auto opts = q.options();
    auto phi = at::empty({block, d}, opts), tmp = at::empty({block, d}, opts);
    auto v1 = at::empty({block, dv + 1}, opts);
    v1.narrow(1, dv, 1).fill_(1.0);  // the ones column, written once per thread
    auto numden = at::empty({block, dv + 1}, opts);
    auto kv = at::empty({d, dv + 1}, opts);
    for (int64_t h = next_head++; h < bh; h = next_head++) {
      kv.zero_();
      auto kh = k3[h], vh = v3[h], qh = q3[h], oh = out[h];
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        auto p = phi.narrow(0, 0, len), t = tmp.narrow(0, 0, len), vb = v1.narrow(0, 0, len);
        elu_plus_one_into(p, kh.narrow(0, r, len), t);
        vb.narrow(1, 0, dv).copy_(vh.narrow(0, r, len));
        kv.addmm_(p.t(), vb);  // phi(K)^T [V | 1], accumulated over row blocks
      }
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        auto p = phi.narrow(0, 0, len), t = tmp.narrow(0, 0, len), nd = numden.narrow(0, 0, len);
        elu_plus_one_into(p, qh.narrow(0, r, len), t);
        at::mm_out(nd, p, kv);
        auto den = nd.narrow(1, dv, 1);
        den.add_(eps);
        auto o = oh.narrow(0, r, len);
        at::div_out(o, nd.narrow(1, 0, dv), den);
      }
    }
  });
  return out.view({q.size(0), q.size(1), n, dv});
}

}  // namespace adala
