#include "engine/kernels/linear_attention_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "engine/kernels/elu_plus_one_kernel.h"
#include "engine/kernels/row_prefetch.h"
#include "engine/kernels/vector_clones.h"

namespace adala {
namespace {

// Rows are computed in chunks of this many floats into an aligned local buffer, then written
// with non-temporal stores.
constexpr int64_t kStreamChunk = 64;

inline bool streams_to(const float* out, int64_t out_stride) {
#if defined(__SSE__)
  return reinterpret_cast<uintptr_t>(out) % 16 == 0 && out_stride % 4 == 0;
#else
  (void)out;
  (void)out_stride;
  return false;
#endif
}

// dst[0, n) = src[0, n) with stores that bypass the caches (no read of the destination's lines
// first); src is 16-byte aligned, dst as streams_to checked.
inline void stream_row(const float* __restrict src, float* __restrict dst, int64_t n) {
#if defined(__SSE__)
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm_stream_ps(dst + i, _mm_load_ps(src + i));
  for (; i < n; ++i) dst[i] = src[i];
#else
  for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
#endif
}

// Orders the non-temporal stores before whatever the caller (or another thread) does next.
inline void stream_fence() {
#if defined(__SSE__)
  _mm_sfence();
#endif
}

template <typename T>
inline T dot(const T* __restrict a, const T* __restrict b, int64_t n) {
  T sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// 1 / (phi . z + eps): the inverse of a row's normaliser.
template <typename T>
inline T inverse_normaliser(const T* __restrict phi, const T* __restrict z, int64_t cols, T eps) {
  return T(1) / (dot(phi, z, cols) + eps);
}

template <typename T>
inline void scale_by_inverse_normaliser_row(const T* __restrict phi, const T* __restrict z,
                                            const T* __restrict g, T* __restrict e,
                                            T* __restrict inv_den, int64_t cols, int64_t value_cols,
                                            T eps) {
  const T inv = inverse_normaliser(phi, z, cols, eps);
  *inv_den = inv;
  for (int64_t i = 0; i < value_cols; ++i) e[i] = g[i] * inv;
}

// The row's normaliser gradient, -(phi . p) * inv_den.
template <typename T>
inline T normaliser_gradient(const T* __restrict phi, const T* __restrict p, T inv_den,
                             int64_t cols) {
  return -dot(phi, p, cols) * inv_den;
}

// out[i] = (p[i] + grad z[i]) * phi'(q[i]), phi' = min(phi, 1): n entries of a row's gradient.
template <typename T>
inline void query_gradient_part(const T* __restrict phi, const T* __restrict p, T grad,
                                const T* __restrict z, T* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = (p[i] + grad * z[i]) * std::min(phi[i], T(1));
}

ADALA_VECTOR_CLONES void scale_by_inverse_normaliser_rows_f(const float* phi, int64_t phi_stride,
                                                            const float* z, const float* g,
                                                            int64_t g_stride, float* e,
                                                            int64_t e_stride, float* inv_den,
                                                            int64_t rows, int64_t cols,
                                                            int64_t value_cols, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead(g, g_stride, r, rows, value_cols);
    scale_by_inverse_normaliser_row(phi + r * phi_stride, z, g + r * g_stride, e + r * e_stride,
                                    inv_den + r, cols, value_cols, eps);
  }
}

ADALA_VECTOR_CLONES void inverse_normaliser_rows_f(const float* phi, int64_t phi_stride,
                                                   const float* z, float* inv_den, int64_t rows,
                                                   int64_t cols, float eps) {
  for (int64_t r = 0; r < rows; ++r)
    inv_den[r] = inverse_normaliser(phi + r * phi_stride, z, cols, eps);
}

ADALA_VECTOR_CLONES void query_gradient_rows_f(const float* phi, int64_t phi_stride, const float* p,
                                               int64_t p_stride, const float* inv_den,
                                               const float* z, float* e, int64_t e_stride,
                                               float* out, int64_t out_stride, int64_t rows,
                                               int64_t cols, int64_t value_cols, bool stream) {
  const bool streamed = stream && streams_to(out, out_stride);
  alignas(64) float chunk[kStreamChunk];
  for (int64_t r = 0; r < rows; ++r) {
    const float* phi_r = phi + r * phi_stride;
    const float* p_r = p + r * p_stride;
    float* out_r = out + r * out_stride;
    const float grad = normaliser_gradient(phi_r, p_r, inv_den[r], cols);
    e[r * e_stride + value_cols] = grad;
    if (!streamed) {
      prefetch_row_ahead<true>(out, out_stride, r, rows, cols);
      query_gradient_part(phi_r, p_r, grad, z, out_r, cols);
      continue;
    }
    for (int64_t c = 0; c < cols; c += kStreamChunk) {
      const int64_t len = std::min(kStreamChunk, cols - c);
      query_gradient_part(phi_r + c, p_r + c, grad, z + c, chunk, len);
      stream_row(chunk, out_r + c, len);
    }
  }
  if (streamed) stream_fence();
}

}  // namespace

void phi_rows(const float* in, int64_t in_stride, float* out, int64_t out_stride, int64_t rows,
              int64_t cols, float* colsum, const RowStream& also, const RowStream& also2) {
  if (colsum)
    elu_plus_one_rows_colsum(in, in_stride, out, out_stride, rows, cols, colsum, also, also2);
  else
    elu_plus_one_rows(in, in_stride, out, out_stride, rows, cols, also, also2);
}

void phi_rows(const double* in, int64_t in_stride, double* out, int64_t out_stride, int64_t rows,
              int64_t cols, double* colsum, const RowStream&, const RowStream&) {
  for (int64_t r = 0; r < rows; ++r) {
    const double* x = in + r * in_stride;
    double* y = out + r * out_stride;
    for (int64_t c = 0; c < cols; ++c) {
      y[c] = x[c] >= 0 ? x[c] + 1 : std::exp(x[c]);
      if (colsum) colsum[c] += y[c];
    }
  }
}

void scale_by_inverse_normaliser_rows(const float* phi, int64_t phi_stride, const float* z,
                                      const float* g, int64_t g_stride, float* e, int64_t e_stride,
                                      float* inv_den, int64_t rows, int64_t cols,
                                      int64_t value_cols, float eps) {
  scale_by_inverse_normaliser_rows_f(phi, phi_stride, z, g, g_stride, e, e_stride, inv_den, rows,
                                     cols, value_cols, eps);
}

void scale_by_inverse_normaliser_rows(const double* phi, int64_t phi_stride, const double* z,
                                      const double* g, int64_t g_stride, double* e,
                                      int64_t e_stride, double* inv_den, int64_t rows, int64_t cols,
                                      int64_t value_cols, double eps) {
  for (int64_t r = 0; r < rows; ++r)
    scale_by_inverse_normaliser_row(phi + r * phi_stride, z, g + r * g_stride, e + r * e_stride,
                                    inv_den + r, cols, value_cols, eps);
}

void inverse_normaliser_rows(const float* phi, int64_t phi_stride, const float* z, float* inv_den,
                             int64_t rows, int64_t cols, float eps) {
  inverse_normaliser_rows_f(phi, phi_stride, z, inv_den, rows, cols, eps);
}

void inverse_normaliser_rows(const double* phi, int64_t phi_stride, const double* z,
                             double* inv_den, int64_t rows, int64_t cols, double eps) {
  for (int64_t r = 0; r < rows; ++r)
    inv_den[r] = inverse_normaliser(phi + r * phi_stride, z, cols, eps);
}

void query_gradient_rows(const float* phi, int64_t phi_stride, const float* p, int64_t p_stride,
                         const float* inv_den, const float* z, float* e, int64_t e_stride,
                         float* out, int64_t out_stride, int64_t rows, int64_t cols,
                         int64_t value_cols, bool stream) {
  query_gradient_rows_f(phi, phi_stride, p, p_stride, inv_den, z, e, e_stride, out, out_stride,
                        rows, cols, value_cols, stream);
}

void query_gradient_rows(const double* phi, int64_t phi_stride, const double* p, int64_t p_stride,
                         const double* inv_den, const double* z, double* e, int64_t e_stride,
                         double* out, int64_t out_stride, int64_t rows, int64_t cols,
                         int64_t value_cols, bool) {
  for (int64_t r = 0; r < rows; ++r) {
    const double* phi_r = phi + r * phi_stride;
    const double* p_r = p + r * p_stride;
    const double grad = normaliser_gradient(phi_r, p_r, inv_den[r], cols);
    e[r * e_stride + value_cols] = grad;
    query_gradient_part(phi_r, p_r, grad, z, out + r * out_stride, cols);
  }
}

}  // namespace adala
