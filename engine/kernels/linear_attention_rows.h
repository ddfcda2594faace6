#pragma once
// The element-wise passes of the fused linear-attention kernel (linear_attention_autograd.h),
// row by row over strided matrices, in float32 (vectorised, one clone per instruction set) and
// float64 (for tests against the formula in double precision). phi(x) = elu(x) + 1; in float32
// it is elu_plus_one_kernel.h's vectorised exp, in float64 std::exp.
//
// `stream`: the kernel's outputs are written with non-temporal stores, which skip reading each
// destination cache line before writing it (a third of an output's memory traffic) and leave
// it out of the caches. Worth it only for outputs too large to stay cached until their next
// use; float32 only (float64 ignores it), and only where the destination rows are 16-byte
// aligned (otherwise ordinary stores). The values are the same either way.
#include <cstdint>

#include "engine/kernels/row_prefetch.h"

namespace adala {

// out[r][c] = phi(in[r][c]); with colsum non-null also colsum[c] += sum over r of phi. The
// rows of `also` and `also2` (streams the next product reads or writes) are prefetched
// alongside in float32.
void phi_rows(const float* in, int64_t in_stride, float* out, int64_t out_stride, int64_t rows,
              int64_t cols, float* colsum = nullptr, const RowStream& also = {},
              const RowStream& also2 = {});
void phi_rows(const double* in, int64_t in_stride, double* out, int64_t out_stride, int64_t rows,
              int64_t cols, double* colsum = nullptr, const RowStream& also = {},
              const RowStream& also2 = {});

// Forward: inv_den[r] = 1 / (phi[r] . z + eps), the inverse of each row's normaliser
// (z = phi(K)^T 1); the output is then the product phi(Q) S_num scaled by it (small_gemm.h).
void inverse_normaliser_rows(const float* phi, int64_t phi_stride, const float* z, float* inv_den,
                             int64_t rows, int64_t cols, float eps);
void inverse_normaliser_rows(const double* phi, int64_t phi_stride, const double* z,
                             double* inv_den, int64_t rows, int64_t cols, double eps);

// Backward, first half of the gradient with respect to [numerator | normaliser] of each row,
// from the output's gradient g and den = phi[r] . z + eps (z = phi(K)^T 1, phi the row's
// phi(q)): e[r][c] = g[r][c] / den (c < value_cols), and inv_den[r] = 1 / den.
void scale_by_inverse_normaliser_rows(const float* phi, int64_t phi_stride, const float* z,
                                      const float* g, int64_t g_stride, float* e, int64_t e_stride,
                                      float* inv_den, int64_t rows, int64_t cols,
                                      int64_t value_cols, float eps);
void scale_by_inverse_normaliser_rows(const double* phi, int64_t phi_stride, const double* z,
                                      const double* g, int64_t g_stride, double* e,
                                      int64_t e_stride, double* inv_den, int64_t rows, int64_t cols,
                                      int64_t value_cols, double eps);

// Backward, second half: p holds P = (g / den) S_num^T, so that phi[r] . p[r] = g[r] . out[r]
// (out = phi(Q) S_num / den) without reading the output. Writes the normaliser's gradient
// e[r][value_cols] = -(phi[r] . p[r]) * inv_den[r], and the gradient with respect to q,
// out[r][c] = (p[r][c] + e[r][value_cols] z[c]) * phi'(q[r][c]), with phi'(x) = 1 for x >= 0,
// exp(x) = phi(x) otherwise, i.e. min(phi(x), 1), computed from phi[r][c].
void query_gradient_rows(const float* phi, int64_t phi_stride, const float* p, int64_t p_stride,
                         const float* inv_den, const float* z, float* e, int64_t e_stride,
                         float* out, int64_t out_stride, int64_t rows, int64_t cols,
                         int64_t value_cols, bool stream = false);
void query_gradient_rows(const double* phi, int64_t phi_stride, const double* p, int64_t p_stride,
                         const double* inv_den, const double* z, double* e, int64_t e_stride,
                         double* out, int64_t out_stride, int64_t rows, int64_t cols,
                         int64_t value_cols, bool stream = false);

}  // namespace adala
