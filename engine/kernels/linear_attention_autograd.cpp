#include "engine/kernels/linear_attention_autograd.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include "engine/kernels/attention_ops.h"
#include "engine/kernels/head_parallel.h"
#include "engine/kernels/linear_attention_padded.h"
#include "engine/kernels/linear_attention_rows.h"
#include "engine/kernels/row_major_gemm.h"
#include "engine/kernels/small_gemm.h"

namespace adala {
namespace {

// Outputs (out, and dq, dk, dv) of at least this size are written with non-temporal stores
// (linear_attention_rows.h). The backward alone moves seven tensors of that size (q, k, v and
// g in, dq, dk and dv out), 28 MiB or more, through this machine's 32 MiB L3, so an output
// written the ordinary way would mostly be evicted before its next reader anyway. 6 heads x 64,
// forward + backward: N = 16384 (24 MiB tensors) 56 -> 49.5 ms, N = 4096 (6 MiB) 12.2 -> 11.7 ms
// (medians of 5 and 4 alternating same-binary runs); N = 1024 (1.5 MiB) unchanged either way.
constexpr int64_t kStreamedOutputBytes = int64_t(4) << 20;

bool streams_outputs(const at::Tensor& out) {
  return out.numel() * int64_t(out.element_size()) >= kStreamedOutputBytes;
}

// The kernel's products, C = A B and C = A^T B (+ C with accumulate): small_gemm's register
// tiles in float32, row_major_gemm in float64.
// nn's epilogue (small_gemm.h) applies to the product, before any accumulation.
void product_nn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                int64_t ldb, float* c, int64_t ldc, bool accumulate, bool stream = false,
                const ProductEpilogue<float>& epilogue = {}) {
  small_gemm_nn(m, n, k, a, lda, b, ldb, c, ldc, accumulate, stream, epilogue);
}
void product_nn(int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b,
                int64_t ldb, double* c, int64_t ldc, bool accumulate, bool = false,
                const ProductEpilogue<double>& epilogue = {}) {
  if (epilogue.empty())
    return row_major_gemm(false, false, m, n, k, 1.0, a, lda, b, ldb, accumulate ? 1.0 : 0.0, c,
                          ldc);
  std::vector<double> product(size_t(m * n));
  row_major_gemm(false, false, m, n, k, 1.0, a, lda, b, ldb, 0.0, product.data(), n);
  store_product(product.data(), m, n, c, ldc, accumulate, epilogue);
}
void product_tn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  small_gemm_tn(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}
void product_tn(int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b,
                int64_t ldb, double* c, int64_t ldc, bool accumulate) {
  row_major_gemm(true, false, m, n, k, 1.0, a, lda, b, ldb, accumulate ? 1.0 : 0.0, c, ldc);
}

// dst (cols x rows, contiguous) = the first cols columns of src (rows x ..., row stride
// src_stride), transposed: a state's numerator part as the right operand of a product with it
// transposed (the register tiles read B by rows).
template <typename T>
void transpose_columns(const T* src, int64_t src_stride, int64_t rows, int64_t cols, T* dst) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * rows + r] = src[r * src_stride + c];
}

// out: (B, N, H, dv); state: (B, H, d, dv + 1) = phi(K)^T [V | 1] per head, contiguous.
template <typename T>
void forward_heads(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, at::Tensor& out,
                   at::Tensor& state, T eps, int64_t block_rows, bool stream) {
  const int64_t n = q.size(2), d = q.size(3), dv = v.size(3), ds = dv + 1;
  const int64_t block = rows_per_block(block_rows, n);
  for_each_head(q.size(0) * q.size(1), [&] {
    return [&, phi = std::vector<T>(size_t(block * d)), inv_den = std::vector<T>(size_t(block)),
            ksum = std::vector<T>(size_t(d))](int64_t h) mutable {
      const auto qh = head_of<T>(q, h), kh = head_of<T>(k, h), vh = head_of<T>(v, h);
      const auto oh = head_of_token_major<T>(out, h);
      T* sx = head_of<T>(state, h).data;  // d x (dv + 1), row stride dv + 1
      std::fill(sx, sx + d * ds, T(0));
      std::fill(ksum.begin(), ksum.end(), T(0));  // phi(K)'s column sums
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        phi_rows(kh.row(r), kh.stride, phi.data(), d, len, d, ksum.data(),
                 row_stream(vh.row(r), vh.stride, dv));
        // S[:, :dv] += phi(K_b)^T V_b
        product_tn(d, dv, len, phi.data(), d, vh.row(r), vh.stride, sx, ds, true);
      }
      for (int64_t c = 0; c < d; ++c) sx[c * ds + dv] = ksum[size_t(c)];
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        phi_rows(qh.row(r), qh.stride, phi.data(), d, len, d);
        // out = (phi(Q_b) S_num) / (phi(Q_b) z + eps), the division fused with the product.
        inverse_normaliser_rows(phi.data(), d, ksum.data(), inv_den.data(), len, d, eps);
        ProductEpilogue<T> divide;
        divide.row_scale = inv_den.data();
        product_nn(len, dv, d, phi.data(), d, sx, ds, oh.row(r), oh.stride, false, stream, divide);
      }
    };
  });
}

// g: (B, N, H, dv) with unit last stride; dq, dk: (B, N, H, d); dvv: (B, N, H, dv).
template <typename T>
void backward_heads(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                    const at::Tensor& state, const at::Tensor& g, at::Tensor& dq, at::Tensor& dk,
                    at::Tensor& dvv, T eps, int64_t block_rows, bool stream) {
  const int64_t n = q.size(2), d = q.size(3), dv = v.size(3), ds = dv + 1;
  const int64_t block = rows_per_block(block_rows, n);
  for_each_head(q.size(0) * q.size(1), [&] {
    return [&, phi = std::vector<T>(size_t(block * d)), dphi = std::vector<T>(size_t(block * d)),
            e = std::vector<T>(size_t(block * ds)), inv_den = std::vector<T>(size_t(block)),
            dsx = std::vector<T>(size_t(d * ds)), z = std::vector<T>(size_t(d)),
            dz = std::vector<T>(size_t(d)),
            num_t = std::vector<T>(size_t(dv * d))](int64_t h) mutable {
      const auto qh = head_of<T>(q, h), kh = head_of<T>(k, h), vh = head_of<T>(v, h);
      const T* sx = head_of<T>(state, h).data;
      const auto gh = head_of_token_major<T>(g, h);
      const auto dqh = head_of_token_major<T>(dq, h), dkh = head_of_token_major<T>(dk, h);
      const auto dvh = head_of_token_major<T>(dvv, h);
      for (int64_t c = 0; c < d; ++c) z[size_t(c)] = sx[c * ds + dv];
      transpose_columns(sx, ds, d, dv, num_t.data());  // S_num^T
      // Queries, recomputing phi(Q_b) and den = phi(Q_b) z + eps: E = [g / den | e_den] with
      // P = (g / den) S_num^T, e_den = -(phi(Q_b) . P) / den (= -(g . out) / den, without
      // reading the output); dphi(Q_b) = E S^T = P + e_den z^T; dS += phi(Q_b)^T E.
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        phi_rows(qh.row(r), qh.stride, phi.data(), d, len, d);
        scale_by_inverse_normaliser_rows(phi.data(), d, z.data(), gh.row(r), gh.stride, e.data(),
                                         ds, inv_den.data(), len, d, dv, eps);
        product_nn(len, d, dv, e.data(), ds, num_t.data(), d, dphi.data(), d, false);
        query_gradient_rows(phi.data(), d, dphi.data(), d, inv_den.data(), z.data(), e.data(), ds,
                            dqh.row(r), dqh.stride, len, d, dv, stream);
        // (the first block overwrites dS)
        product_tn(d, ds, len, phi.data(), d, e.data(), ds, dsx.data(), ds, r != 0);
      }
      // Keys: dK = (V dS_num^T + 1 dS_den^T) * phi'(K), dV = phi(K) dS_num.
      for (int64_t c = 0; c < d; ++c) dz[size_t(c)] = dsx[size_t(c * ds + dv)];
      transpose_columns(dsx.data(), ds, d, dv, num_t.data());  // dS_num^T
      for (int64_t r = 0; r < n; r += block) {
        const int64_t len = std::min(block, n - r);
        phi_rows(kh.row(r), kh.stride, phi.data(), d, len, d, nullptr,
                 row_stream(vh.row(r), vh.stride, dv),
                 stream ? RowStream{} : row_stream(dvh.row(r), dvh.stride, dv, true));
        ProductEpilogue<T> through_phi;  // dK = (V dS_num^T + dz) * phi'(K_b)
        through_phi.col_add = dz.data();
        through_phi.phi = phi.data();
        through_phi.phi_stride = d;
        product_nn(len, d, dv, vh.row(r), vh.stride, num_t.data(), d, dkh.row(r), dkh.stride, false,
                   stream, through_phi);
        product_nn(len, dv, d, phi.data(), d, dsx.data(), ds, dvh.row(r), dvh.stride, false,
                   stream);
      }
    };
  });
}

// (B, H, N, x) shape of a gradient stored as (B, N, H, x).
at::Tensor as_head_major(const at::Tensor& token_major) { return token_major.transpose(1, 2); }

class LinearAttentionFunction : public torch::autograd::Function<LinearAttentionFunction> {
 public:
  // q, k: (B, H, N, d) with unit last stride, v: (B, H, N, dv); all float32 or all float64.
  // Returns the output stored as (B, N, H, dv).
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& q,
                            const at::Tensor& k, const at::Tensor& v, double eps,
                            int64_t block_rows) {
    const int64_t b = q.size(0), heads = q.size(1), n = q.size(2), d = q.size(3);
    const int64_t dv = v.size(3);
    auto out = at::empty({b, n, heads, dv}, q.options());
    auto state = at::empty({b, heads, d, dv + 1}, q.options());
    if (q.scalar_type() == at::kDouble)
      forward_heads<double>(q, k, v, out, state, eps, block_rows, false);
    else
      forward_heads<float>(q, k, v, out, state, static_cast<float>(eps), block_rows,
                           streams_outputs(out));
    ctx->save_for_backward({q, k, v, state});
    ctx->saved_data["eps"] = eps;
    ctx->saved_data["block_rows"] = block_rows;
    return out;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto &q = saved[0], &k = saved[1], &v = saved[2], &state = saved[3];
    const double eps = ctx->saved_data["eps"].toDouble();
    const int64_t block_rows = ctx->saved_data["block_rows"].toInt();
    const auto g = with_unit_last_stride(grads[0].to(q.scalar_type()));
    const int64_t b = q.size(0), heads = q.size(1), n = q.size(2), d = q.size(3);
    const int64_t dv = v.size(3);
    auto dq = at::empty({b, n, heads, d}, q.options()), dk = at::empty_like(dq);
    auto dvv = at::empty({b, n, heads, dv}, q.options());
    if (q.scalar_type() == at::kDouble)
      backward_heads<double>(q, k, v, state, g, dq, dk, dvv, eps, block_rows, false);
    else
      backward_heads<float>(q, k, v, state, g, dq, dk, dvv, static_cast<float>(eps), block_rows,
                            streams_outputs(dvv));
    return {as_head_major(dq), as_head_major(dk), as_head_major(dvv), at::Tensor(), at::Tensor()};
  }
};

std::string shape_text(const at::Tensor& t) {
  std::string s = "(";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + ")";
}

}  // namespace

at::Tensor linear_attention_autograd(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                                     double eps, int64_t block_rows) {
  if (q.dim() != 4 || k.sizes() != q.sizes() || v.dim() != 4 || v.size(0) != q.size(0) ||
      v.size(1) != q.size(1) || v.size(2) != q.size(2))
    throw std::invalid_argument("linear_attention_autograd: q " + shape_text(q) + ", k " +
                                shape_text(k) + " and v " + shape_text(v) +
                                " must be (B, H, N, d), (B, H, N, d) and (B, H, N, dv)");
  if (block_rows < 1) throw std::invalid_argument("linear_attention_autograd: block_rows < 1");
  if (!q.is_cpu() || !k.is_cpu() || !v.is_cpu())
    return linear_attention_padded(q, k, v, eps).to(q.scalar_type());
  const auto type = q.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  auto out = LinearAttentionFunction::apply(with_unit_last_stride(q.to(type)),
                                            with_unit_last_stride(k.to(type)),
                                            with_unit_last_stride(v.to(type)), eps, block_rows);
  return as_head_major(out).to(q.scalar_type());
}

}  // namespace adala
