#include "engine/kernels/small_gemm.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/kernels/row_major_gemm.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ADALA_SMALL_GEMM_AVX2 1
#else
#define ADALA_SMALL_GEMM_AVX2 0
#endif

namespace adala {
namespace {

void through_blas_nn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                     int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  row_major_gemm(false, false, m, n, k, 1.0f, a, lda, b, ldb, accumulate ? 1.0f : 0.0f, c, ldc);
}

void through_blas_tn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                     int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  row_major_gemm(true, false, m, n, k, 1.0f, a, lda, b, ldb, accumulate ? 1.0f : 0.0f, c, ldc);
}

#if ADALA_SMALL_GEMM_AVX2

#define ADALA_TILE __attribute__((target("avx2,fma"), always_inline)) inline
#define ADALA_AVX2 __attribute__((target("avx2,fma")))

// Rows of C per tile: 6 rows x 2 vectors of accumulators, 2 of B and 1 broadcast are 15 of
// the 16 vector registers.
constexpr int kTileRows = 6;
// tn sums its k rows in chunks of this many, so that a chunk of A and of B (64 x 64 floats
// each for d = 64) stay in the 32 kB L1 while every tile of C goes over them (k = 256 in one
// go: 70 GFLOP/s, in chunks of 64: 93).
constexpr int64_t kTnChunkRows = 64;
// nn's leftover columns (n % 8) are gathered into a contiguous buffer, on the stack up to this
// many rows.
constexpr int64_t kColumnOnStack = 256;
const ProductEpilogue<float> kNoEpilogue{};

// Stores one vector of C, row i, columns j .. j + 7: the epilogue, then the accumulation.
template <bool kStream>
ADALA_TILE void finish_vector(float* c, __m256 v, bool accumulate, const ProductEpilogue<float>& e,
                              int64_t i, int64_t j) {
  if (e.row_scale) v = _mm256_mul_ps(v, _mm256_broadcast_ss(e.row_scale + i));
  if (e.col_add) v = _mm256_add_ps(v, _mm256_loadu_ps(e.col_add + j));
  // min(1, phi) as the instruction orders it: NaN when phi is NaN, like std::min(phi, 1).
  if (e.phi)
    v = _mm256_mul_ps(
        v, _mm256_min_ps(_mm256_set1_ps(1.0f), _mm256_loadu_ps(e.phi + i * e.phi_stride + j)));
  if (accumulate) v = _mm256_add_ps(v, _mm256_loadu_ps(c));
  if constexpr (kStream)
    _mm256_stream_ps(c, v);
  else
    _mm256_storeu_ps(c, v);
}

ADALA_TILE float horizontal_sum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

ADALA_TILE float dot(const float* x, const float* y, int64_t n) {
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    s0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), s0);
    s1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(y + i + 8), s1);
  }
  if (i + 8 <= n) {
    s0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), s0);
    i += 8;
  }
  float sum = horizontal_sum(_mm256_add_ps(s0, s1));
  for (; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

// Where A's element (r, p) is: row r of C pairs with A's row r in nn, with its column r in tn
// (A^T B); p runs over the inner dimension.
template <bool kTransposedA>
ADALA_TILE const float* a_element(const float* a, int64_t lda, int64_t r, int64_t p) {
  return kTransposedA ? a + p * lda + r : a + r * lda + p;
}

// kRows x 8 kVectors of C = (kRows rows of op(A)) B, over the whole inner dimension k; the
// tile's first element is C[i0][j0] (for the epilogue).
template <int kRows, int kVectors, bool kStream, bool kTransposedA>
ADALA_TILE void tile(const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
                     int64_t ldc, int64_t k, bool accumulate, const ProductEpilogue<float>& e,
                     int64_t i0, int64_t j0) {
  __m256 acc[kRows][kVectors];
  _Pragma("GCC unroll 8") for (int r = 0; r < kRows; ++r)
      _Pragma("GCC unroll 2") for (int v = 0; v < kVectors; ++v) acc[r][v] = _mm256_setzero_ps();
  for (int64_t p = 0; p < k; ++p) {
    __m256 bv[kVectors];
    _Pragma("GCC unroll 2") for (int v = 0; v < kVectors; ++v) bv[v] =
        _mm256_loadu_ps(b + p * ldb + 8 * v);
    _Pragma("GCC unroll 8") for (int r = 0; r < kRows; ++r) {
      const __m256 av = _mm256_broadcast_ss(a_element<kTransposedA>(a, lda, r, p));
      _Pragma("GCC unroll 2") for (int v = 0; v < kVectors; ++v) acc[r][v] =
          _mm256_fmadd_ps(av, bv[v], acc[r][v]);
    }
  }
  _Pragma("GCC unroll 8") for (int r = 0; r < kRows; ++r)
      _Pragma("GCC unroll 2") for (int v = 0; v < kVectors; ++v)
          finish_vector<kStream>(c + r * ldc + 8 * v, acc[r][v], accumulate, e, i0 + r, j0 + 8 * v);
}

// The last rows (fewer than a full tile) of a column strip: a tile of exactly that many rows,
// found by counting down from kRows at compile time.
template <int kRows, int kVectors, bool kStream, bool kTransposedA>
ADALA_TILE void row_tail(int64_t rows, const float* a, int64_t lda, const float* b, int64_t ldb,
                         float* c, int64_t ldc, int64_t k, bool accumulate,
                         const ProductEpilogue<float>& e, int64_t i0, int64_t j0) {
  if constexpr (kRows > 0) {
    if (rows == kRows)
      return tile<kRows, kVectors, kStream, kTransposedA>(a, lda, b, ldb, c, ldc, k, accumulate, e,
                                                          i0, j0);
    row_tail<kRows - 1, kVectors, kStream, kTransposedA>(rows, a, lda, b, ldb, c, ldc, k,
                                                         accumulate, e, i0, j0);
  }
}

// Columns j0 .. j0 + 8 kVectors - 1 of C, all m rows (b and c start at column j0).
template <int kVectors, bool kStream, bool kTransposedA>
ADALA_AVX2 void columns(int64_t m, const float* a, int64_t lda, const float* b, int64_t ldb,
                        float* c, int64_t ldc, int64_t k, bool accumulate,
                        const ProductEpilogue<float>& e, int64_t j0) {
  int64_t i = 0;
  for (; i + kTileRows <= m; i += kTileRows)
    tile<kTileRows, kVectors, kStream, kTransposedA>(a_element<kTransposedA>(a, lda, i, 0), lda, b,
                                                     ldb, c + i * ldc, ldc, k, accumulate, e, i,
                                                     j0);
  row_tail<kTileRows - 1, kVectors, kStream, kTransposedA>(
      m - i, a_element<kTransposedA>(a, lda, i, 0), lda, b, ldb, c + i * ldc, ldc, k, accumulate, e,
      i, j0);
}

// Column j of C (a leftover beyond the multiples of 8; b and c start at column j): each row a
// dot product of A's row with B's column, gathered into a contiguous buffer first.
ADALA_AVX2 void nn_column(int64_t m, const float* a, int64_t lda, const float* b, int64_t ldb,
                          float* c, int64_t ldc, int64_t k, bool accumulate,
                          const ProductEpilogue<float>& e, int64_t j) {
  alignas(32) float on_stack[kColumnOnStack];
  std::vector<float> on_heap(size_t(k > kColumnOnStack ? k : 0));
  float* column = k > kColumnOnStack ? on_heap.data() : on_stack;
  for (int64_t p = 0; p < k; ++p) column[p] = b[p * ldb];
  for (int64_t i = 0; i < m; ++i) {
    const float s = e.apply(dot(a + i * lda, column, k), i, j);
    c[i * ldc] = accumulate ? c[i * ldc] + s : s;
  }
}

template <bool kStream>
ADALA_AVX2 void nn_all_columns(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                               const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate,
                               const ProductEpilogue<float>& e) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16)
    columns<2, kStream, false>(m, a, lda, b + j, ldb, c + j, ldc, k, accumulate, e, j);
  if (j + 8 <= n) {
    columns<1, kStream, false>(m, a, lda, b + j, ldb, c + j, ldc, k, accumulate, e, j);
    j += 8;
  }
  for (; j < n; ++j) nn_column(m, a, lda, b + j, ldb, c + j, ldc, k, accumulate, e, j);
  if constexpr (kStream) _mm_sfence();
}

// One leftover column of C = A^T B: C[i] = sum over p of A[p][i] B[p], 8 rows of C at a time.
ADALA_AVX2 void tn_column(int64_t m, const float* a, int64_t lda, const float* b, int64_t ldb,
                          float* c, int64_t ldc, int64_t k, bool accumulate) {
  int64_t i = 0;
  for (; i + 8 <= m; i += 8) {
    __m256 acc = _mm256_setzero_ps();
    for (int64_t p = 0; p < k; ++p)
      acc =
          _mm256_fmadd_ps(_mm256_broadcast_ss(b + p * ldb), _mm256_loadu_ps(a + p * lda + i), acc);
    alignas(32) float sums[8];
    _mm256_store_ps(sums, acc);
    for (int t = 0; t < 8; ++t)
      c[(i + t) * ldc] = accumulate ? c[(i + t) * ldc] + sums[t] : sums[t];
  }
  for (; i < m; ++i) {
    float s = 0.0f;
    for (int64_t p = 0; p < k; ++p) s += a[p * lda + i] * b[p * ldb];
    c[i * ldc] = accumulate ? c[i * ldc] + s : s;
  }
}

ADALA_AVX2 void tn_all_columns(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                               const float* b, int64_t ldb, float* c, int64_t ldc,
                               bool accumulate) {
  const int64_t vector_cols = n / 8 * 8;
  for (int64_t p0 = 0; p0 < k; p0 += kTnChunkRows) {
    const int64_t len = std::min(kTnChunkRows, k - p0);
    const bool add = accumulate || p0 > 0;
    const float* ap = a + p0 * lda;
    const float* bp = b + p0 * ldb;
    int64_t j = 0;
    for (; j + 16 <= vector_cols; j += 16)
      columns<2, false, true>(m, ap, lda, bp + j, ldb, c + j, ldc, len, add, kNoEpilogue, j);
    if (j < vector_cols)
      columns<1, false, true>(m, ap, lda, bp + j, ldb, c + j, ldc, len, add, kNoEpilogue, j);
  }
  for (int64_t j = vector_cols; j < n; ++j)
    tn_column(m, a, lda, b + j, ldb, c + j, ldc, k, accumulate);
}

bool has_avx2_and_fma() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return has;
}

#else

bool has_avx2_and_fma() { return false; }

#endif

// C = 0 (or left as it is, accumulating) for an empty inner dimension.
void fill_for_empty_product(int64_t m, int64_t n, float* c, int64_t ldc, bool accumulate) {
  if (accumulate) return;
  for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
}

}  // namespace

bool small_gemm_vectorised() { return has_avx2_and_fma(); }

void small_gemm_nn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                   int64_t ldb, float* c, int64_t ldc, bool accumulate, bool stream,
                   const ProductEpilogue<float>& epilogue) {
  if (m <= 0 || n <= 0) return;
#if ADALA_SMALL_GEMM_AVX2
  if (has_avx2_and_fma()) {
    const bool aligned = reinterpret_cast<uintptr_t>(c) % 32 == 0 && ldc % 8 == 0;
    if (stream && aligned)
      return nn_all_columns<true>(m, n, k, a, lda, b, ldb, c, ldc, accumulate, epilogue);
    return nn_all_columns<false>(m, n, k, a, lda, b, ldb, c, ldc, accumulate, epilogue);
  }
#endif
  (void)stream;
  if (epilogue.empty()) return through_blas_nn(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
  // The product into a buffer, then the epilogue on the way into C.
  std::vector<float> product(size_t(m * n));
  through_blas_nn(m, n, k, a, lda, b, ldb, product.data(), n, false);
  store_product(product.data(), m, n, c, ldc, accumulate, epilogue);
}

void small_gemm_tn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                   int64_t ldb, float* c, int64_t ldc, bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) return fill_for_empty_product(m, n, c, ldc, accumulate);
#if ADALA_SMALL_GEMM_AVX2
  if (has_avx2_and_fma()) return tn_all_columns(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
#endif
  through_blas_tn(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

}  // namespace adala
