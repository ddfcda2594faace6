#include "engine/kernels/elu_plus_one_kernel.h"

#include <cstring>

#include "engine/kernels/row_prefetch.h"
#include "engine/kernels/vector_clones.h"

namespace adala {
namespace {

inline float float_from_bits(int32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline float elu_plus_one(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: x + kRound - kRound rounds to an integer
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  // NaN compares false: it takes xn = 0 here (no float-to-int of NaN below) and x + 1 at the end.
  const float xn = x < 0.0f ? (x > -87.0f ? x : -87.0f) : 0.0f;
  const float k = (xn * kLog2e + kRound) - kRound;
  const float r = (xn - k * kLn2Hi) - k * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float e = (p * r * r + r + 1.0f) * float_from_bits((static_cast<int32_t>(k) + 127) << 23);
  return x < 0.0f ? e : x + 1.0f;
}

inline __attribute__((always_inline)) void elu_plus_one_row_body(const float* __restrict in,
                                                                 float* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = elu_plus_one(in[i]);
}

inline __attribute__((always_inline)) void elu_plus_one_row_sum_body(const float* __restrict in,
                                                                     float* __restrict out,
                                                                     float* __restrict sum,
                                                                     int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float y = elu_plus_one(in[i]);
    out[i] = y;
    sum[i] += y;
  }
}

// The exp's polynomial is a chain of multiply-adds: the AVX2 version is built with FMA, which
// target_clones("avx2") leaves out (GCC names one feature per clone), so these are written out
// as C++ function versions, dispatched the same way when the program loads.
__attribute__((target("avx512f"))) void elu_plus_one_row(const float* in, float* out, int64_t n) {
  elu_plus_one_row_body(in, out, n);
}
__attribute__((target("avx2,fma"))) void elu_plus_one_row(const float* in, float* out, int64_t n) {
  elu_plus_one_row_body(in, out, n);
}
__attribute__((target("default"))) void elu_plus_one_row(const float* in, float* out, int64_t n) {
  elu_plus_one_row_body(in, out, n);
}

__attribute__((target("avx512f"))) void elu_plus_one_row_sum(const float* in, float* out,
                                                             float* sum, int64_t n) {
  elu_plus_one_row_sum_body(in, out, sum, n);
}
__attribute__((target("avx2,fma"))) void elu_plus_one_row_sum(const float* in, float* out,
                                                              float* sum, int64_t n) {
  elu_plus_one_row_sum_body(in, out, sum, n);
}
__attribute__((target("default"))) void elu_plus_one_row_sum(const float* in, float* out,
                                                             float* sum, int64_t n) {
  elu_plus_one_row_sum_body(in, out, sum, n);
}

ADALA_VECTOR_CLONES void divide_row(const float* __restrict in, float* __restrict out,
                                    float divisor, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = in[i] / divisor;
}

}  // namespace

void elu_plus_one_rows(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                       int64_t rows, int64_t cols, const RowStream& also, const RowStream& also2) {
  if (in_stride == cols && out_stride == cols && !also.base && !also2.base)
    return elu_plus_one_row(in, out, rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead(in, in_stride, r, rows, cols);
    prefetch_row_ahead(also, r, rows);
    prefetch_row_ahead(also2, r, rows);
    elu_plus_one_row(in + r * in_stride, out + r * out_stride, cols);
  }
}

void elu_plus_one_rows_colsum(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                              int64_t rows, int64_t cols, float* colsum, const RowStream& also,
                              const RowStream& also2) {
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead(in, in_stride, r, rows, cols);
    prefetch_row_ahead(also, r, rows);
    prefetch_row_ahead(also2, r, rows);
    elu_plus_one_row_sum(in + r * in_stride, out + r * out_stride, colsum, cols);
  }
}

void divide_rows_by_last_column(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                                int64_t rows, int64_t cols, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    prefetch_row_ahead<true>(out, out_stride, r, rows, cols);
    const float* row = in + r * in_stride;
    divide_row(row, out + r * out_stride, row[cols] + eps, cols);
  }
}

}  // namespace adala
