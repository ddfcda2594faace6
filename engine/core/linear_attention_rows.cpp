#include "engine/core/linear_attention_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "engine/core/elu_plus_one_kernel.h"
#include "engine/core/row_prefetch.h"
#include "engine/core/vector_clones.h"

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
inline void divide_row(const T* __restrict in, T* __restrict out, T divisor, int64_t n) {
  const T inv = T(1) / divisor;
  for (int64_t i = 0; i < n; ++i) out[i] = in[i] * inv;
}

template <typename T>
inline T dot(const T* __restrict a, const T* __restrict b, int64_t n) {
  T sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

template <typename T>
inline void scale_by_inverse_normaliser_row(const T* __restrict phi, const T* __restrict z,
                                            const T* __restrict g, T* __restrict e,
                                            T* __restrict inv_den, int64_t cols, int64_t value_cols,
                                            T eps) {
  const T inv = T(1) / (dot(phi, z, cols) + eps);
  *inv_den = inv;
  for (int64_t i = 0; i < value_cols; ++i) e[i] = g[i] * inv;
}

template <typename T>
inline void normaliser_gradient_row(const T* __restrict phi, T* __restrict p, T inv_den,
                                    const T* __restrict z, T* __restrict e_last, int64_t cols) {
  const T grad = -dot(phi, p, cols) * inv_den;
  *e_last = grad;
  for (int64_t i = 0; i < cols; ++i) p[i] += grad * z[i];
}

template <typename T>
inline void times_phi_derivative_row(const T* __restrict grad, const T* __restrict add,
                                     const T* __restrict phi, T* __restrict out, int64_t n) {
  if (add) {
    for (int64_t i = 0; i < n; ++i) out[i] = (grad[i] + add[i]) * std::min(phi[i], T(1));
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = grad[i] * std::min(phi[i], T(1));
  }
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

ADALA_VECTOR_CLONES void normaliser_gradient_rows_f(const float* phi, int64_t phi_stride, float* p,
                                                    int64_t p_stride, const float* inv_den,
                                                    const float* z, float* e, int64_t e_stride,
                                                    int64_t rows, int64_t cols,
                                                    int64_t value_cols) {
  for (int64_t r = 0; r < rows; ++r)
    normaliser_gradient_row(phi + r * phi_stride, p + r * p_stride, inv_den[r], z,
                            e + r * e_stride + value_cols, cols);
}

ADALA_VECTOR_CLONES void times_phi_derivative_rows_f(const float* grad, int64_t grad_stride,
                                                     const float* add, const float* phi,
                                                     int64_t phi_stride, float* out,
                                                     int64_t out_stride, int64_t rows, int64_t cols,
                                                     bool stream) {
  if (stream && streams_to(out, out_stride)) {
    alignas(64) float chunk[kStreamChunk];
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; c += kStreamChunk) {
        const int64_t len = std::min(kStreamChunk, cols - c);
        times_phi_derivative_row(grad + r * grad_stride + c, add ? add + c : nullptr,
                                 phi + r * phi_stride + c, chunk, len);
        stream_row(chunk, out + r * out_stride + c, len);
      }
    stream_fence();
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead<true>(out, out_stride, r, rows, cols);
    times_phi_derivative_row(grad + r * grad_stride, add, phi + r * phi_stride,
                             out + r * out_stride, cols);
  }
}

ADALA_VECTOR_CLONES void divide_rows_streaming(const float* numden, int64_t nd_stride, float* out,
                                               int64_t out_stride, int64_t rows, int64_t cols,
                                               float eps) {
  alignas(64) float chunk[kStreamChunk];
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = numden + r * nd_stride;
    const float den = row[cols] + eps;
    for (int64_t c = 0; c < cols; c += kStreamChunk) {
      const int64_t len = std::min(kStreamChunk, cols - c);
      for (int64_t i = 0; i < len; ++i) chunk[i] = row[c + i] / den;
      stream_row(chunk, out + r * out_stride + c, len);
    }
  }
  stream_fence();
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

void divide_by_normaliser_rows(const float* numden, int64_t nd_stride, float* out,
                               int64_t out_stride, int64_t rows, int64_t cols, float eps,
                               bool stream) {
  if (stream && streams_to(out, out_stride))
    return divide_rows_streaming(numden, nd_stride, out, out_stride, rows, cols, eps);
  divide_rows_by_last_column(numden, nd_stride, out, out_stride, rows, cols, eps);
}

void divide_by_normaliser_rows(const double* numden, int64_t nd_stride, double* out,
                               int64_t out_stride, int64_t rows, int64_t cols, double eps, bool) {
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = numden + r * nd_stride;
    divide_row(row, out + r * out_stride, row[cols] + eps, cols);
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

void normaliser_gradient_rows(const float* phi, int64_t phi_stride, float* p, int64_t p_stride,
                              const float* inv_den, const float* z, float* e, int64_t e_stride,
                              int64_t rows, int64_t cols, int64_t value_cols) {
  normaliser_gradient_rows_f(phi, phi_stride, p, p_stride, inv_den, z, e, e_stride, rows, cols,
                             value_cols);
}

void normaliser_gradient_rows(const double* phi, int64_t phi_stride, double* p, int64_t p_stride,
                              const double* inv_den, const double* z, double* e, int64_t e_stride,
                              int64_t rows, int64_t cols, int64_t value_cols) {
  for (int64_t r = 0; r < rows; ++r)
    normaliser_gradient_row(phi + r * phi_stride, p + r * p_stride, inv_den[r], z,
                            e + r * e_stride + value_cols, cols);
}

void times_phi_derivative_rows(const float* grad, int64_t grad_stride, const float* add,
                               const float* phi, int64_t phi_stride, float* out, int64_t out_stride,
                               int64_t rows, int64_t cols, bool stream) {
  times_phi_derivative_rows_f(grad, grad_stride, add, phi, phi_stride, out, out_stride, rows, cols,
                              stream);
}

void times_phi_derivative_rows(const double* grad, int64_t grad_stride, const double* add,
                               const double* phi, int64_t phi_stride, double* out,
                               int64_t out_stride, int64_t rows, int64_t cols, bool) {
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead<true>(out, out_stride, r, rows, cols);
    times_phi_derivative_row(grad + r * grad_stride, add, phi + r * phi_stride,
                             out + r * out_stride, cols);
  }
}

void copy_rows(const float* src, int64_t src_stride, float* dst, int64_t dst_stride, int64_t rows,
               int64_t cols, bool stream) {
  const bool aligned = streams_to(src, src_stride) && streams_to(dst, dst_stride);
  for (int64_t r = 0; r < rows; ++r) {
    if (stream && aligned)
      stream_row(src + r * src_stride, dst + r * dst_stride, cols);
    else
      std::memcpy(dst + r * dst_stride, src + r * src_stride, size_t(cols) * sizeof(float));
  }
  if (stream && aligned) stream_fence();
}

void copy_rows(const double* src, int64_t src_stride, double* dst, int64_t dst_stride, int64_t rows,
               int64_t cols, bool) {
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(dst + r * dst_stride, src + r * src_stride, size_t(cols) * sizeof(double));
}

}  // namespace adala
