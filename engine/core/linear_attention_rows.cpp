#include "engine/core/linear_attention_rows.h"

#include <algorithm>
#include <cmath>

#include "engine/core/elu_plus_one_kernel.h"
#include "engine/core/row_prefetch.h"
#include "engine/core/vector_clones.h"

namespace adala {
namespace {

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
                                                     int64_t out_stride, int64_t rows,
                                                     int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead<true>(out, out_stride, r, rows, cols);
    times_phi_derivative_row(grad + r * grad_stride, add, phi + r * phi_stride,
                             out + r * out_stride, cols);
  }
}

}  // namespace

void phi_rows(const float* in, int64_t in_stride, float* out, int64_t out_stride, int64_t rows,
              int64_t cols, float* colsum) {
  if (colsum)
    elu_plus_one_rows_colsum(in, in_stride, out, out_stride, rows, cols, colsum);
  else
    elu_plus_one_rows(in, in_stride, out, out_stride, rows, cols);
}

void phi_rows(const double* in, int64_t in_stride, double* out, int64_t out_stride, int64_t rows,
              int64_t cols, double* colsum) {
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
                               int64_t out_stride, int64_t rows, int64_t cols, float eps) {
  divide_rows_by_last_column(numden, nd_stride, out, out_stride, rows, cols, eps);
}

void divide_by_normaliser_rows(const double* numden, int64_t nd_stride, double* out,
                               int64_t out_stride, int64_t rows, int64_t cols, double eps) {
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
                               int64_t rows, int64_t cols) {
  times_phi_derivative_rows_f(grad, grad_stride, add, phi, phi_stride, out, out_stride, rows, cols);
}

void times_phi_derivative_rows(const double* grad, int64_t grad_stride, const double* add,
                               const double* phi, int64_t phi_stride, double* out,
                               int64_t out_stride, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead<true>(out, out_stride, r, rows, cols);
    times_phi_derivative_row(grad + r * grad_stride, add, phi + r * phi_stride,
                             out + r * out_stride, cols);
  }
}

}  // namespace adala
