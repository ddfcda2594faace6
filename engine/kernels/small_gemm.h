#pragma once
// float32 row-major products in which one operand is a head's small d x (dv + 1) state, the
// fused linear-attention kernel's six products per row block (linear_attention_autograd.cpp):
//   nn  C (m x n) = A (m x k) B (k x n)        a block of rows times the state (k, n <= ~65)
//   tn  C (m x n) = A^T B, A k x m, B k x n    the state from two blocks of rows (m, n <= ~65)
// With AVX2 and FMA (checked at run time) they are register-tiled loops over the operands as
// they are stored: 6 rows x 16 columns of C held in registers across the whole inner
// dimension, B's rows read as vectors and A's elements broadcast. Nothing is packed, C is
// written once (no separate beta pass), and the products that produce the kernel's outputs
// can store them non-temporally. For d = 64 they run at 1.1-1.4x OpenBLAS's rate on the same
// blocks, which packs both operands on every call (a 256-row block: 95 vs 67 GFLOP/s for nn,
// 93 vs 80 for tn on one Zen 3 core). Without AVX2 and FMA they are row_major_gemm.
#include <algorithm>
#include <cstdint>

namespace adala {

// What nn does to each element of A B before storing it, each part optional:
//   x[i][j] = (AB[i][j] * row_scale[i] + col_add[j]) * min(phi[i][j], 1),
// the forward's division by the normaliser and the backward through phi(x) = elu(x) + 1
// (phi' = min(phi, 1)), fused with the products that precede them.
template <typename T>
struct ProductEpilogue {
  const T* row_scale = nullptr;
  const T* col_add = nullptr;
  const T* phi = nullptr;
  int64_t phi_stride = 0;

  bool empty() const { return !row_scale && !col_add && !phi; }
  T apply(T x, int64_t i, int64_t j) const {
    if (row_scale) x *= row_scale[i];
    if (col_add) x += col_add[j];
    if (phi) x *= std::min(phi[i * phi_stride + j], T(1));
    return x;
  }
};

// C (m x n, row stride ldc) = epilogue(product), or with accumulate C += epilogue(product),
// for a product computed elsewhere (contiguous m x n): the library fallbacks' epilogue.
template <typename T>
void store_product(const T* product, int64_t m, int64_t n, T* c, int64_t ldc, bool accumulate,
                   const ProductEpilogue<T>& epilogue) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const T x = epilogue.apply(product[i * n + j], i, j);
      c[i * ldc + j] = accumulate ? c[i * ldc + j] + x : x;
    }
}

// C = epilogue(A B), or with accumulate C += epilogue(A B). With stream, C's rows are written
// with non-temporal stores where C and its row stride are 32-byte aligned
// (linear_attention_rows.h); the values are the same either way.
void small_gemm_nn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                   int64_t ldb, float* c, int64_t ldc, bool accumulate, bool stream = false,
                   const ProductEpilogue<float>& epilogue = {});

// C = A^T B, or with accumulate C += A^T B; A is stored k x m, B k x n.
void small_gemm_tn(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                   int64_t ldb, float* c, int64_t ldc, bool accumulate);

// Whether the register-tiled loops run here (AVX2 and FMA), rather than row_major_gemm.
bool small_gemm_vectorised();

}  // namespace adala
