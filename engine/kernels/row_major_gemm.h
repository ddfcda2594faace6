#pragma once
// C = alpha * op(A) op(B) + beta * C on raw row-major matrices (op: as is or transposed), for
// kernels that run thousands of small products per call (softmax_attention_heads; the fused
// linear-attention kernel in float64 and where small_gemm.h has no AVX2). Through the CBLAS of the
// BLAS LibTorch loaded (OpenBLAS here, found at run time as the thread controls in device.cpp are):
// no tensors, no operator dispatch, which cost more than a (50 x 16) x (16 x 17) product itself.
// Where no CBLAS symbol is found (a LibTorch with MKL linked in statically) the same product goes
// through at::mm.
#include <cstdint>

namespace adala {

// C (m x n, row stride ldc) = alpha * op(A) op(B) + beta * C, where op(A) is m x k and op(B)
// is k x n; A is stored m x k (row stride lda) or, transposed, k x m; B likewise.
void row_major_gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
                    float alpha, const float* a, int64_t lda, const float* b, int64_t ldb,
                    float beta, float* c, int64_t ldc);
void row_major_gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
                    double alpha, const double* a, int64_t lda, const double* b, int64_t ldb,
                    double beta, double* c, int64_t ldc);

// Whether the products go straight to CBLAS (false: through at::mm).
bool row_major_gemm_uses_cblas();

// The fallback on its own (tested against CBLAS where both exist).
void row_major_gemm_through_aten(bool transpose_a, bool transpose_b, int64_t m, int64_t n,
                                 int64_t k, float alpha, const float* a, int64_t lda,
                                 const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

}  // namespace adala
