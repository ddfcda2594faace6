#include "engine/kernels/row_major_gemm.h"

#include <dlfcn.h>

#include <cstring>

#include <ATen/ATen.h>

namespace adala {
namespace {

// CBLAS's enums (cblas.h): the values are fixed by the standard interface.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

template <typename T>
using CblasGemm = void (*)(int, int, int, int, int, int, T, const T*, int, const T*, int, T, T*,
                           int);

template <typename T>
CblasGemm<T> find_cblas_gemm() {
  static const auto fn = reinterpret_cast<CblasGemm<T>>(
      dlsym(RTLD_DEFAULT, sizeof(T) == sizeof(float) ? "cblas_sgemm" : "cblas_dgemm"));
  return fn;
}

// The same product through LibTorch, on views of the raw storage.
template <typename T>
void aten_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
               const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  const auto options = at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value);
  auto view = [&](const T* data, int64_t rows, int64_t cols, int64_t ld, bool transposed) {
    auto stored =
        at::from_blob(const_cast<T*>(data), {transposed ? cols : rows, transposed ? rows : cols},
                      {ld, 1}, options);
    return transposed ? stored.t() : stored;
  };
  auto out = at::from_blob(c, {m, n}, {ldc, 1}, options);
  auto product = at::mm(view(a, m, k, lda, ta), view(b, k, n, ldb, tb));
  if (beta == T(0))
    out.copy_(alpha == T(1) ? product : product * alpha);
  else
    out.mul_(beta).add_(product, alpha);
}

template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
          const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (auto fn = find_cblas_gemm<T>()) {
    if (beta == T(0) && k > 0) {
      // OpenBLAS zeroes C for beta = 0 with a scalar loop (sgemm_beta: 9 % of the fused
      // kernel's time at N = 16384); glibc's vectorised memset and beta = 1 are the same product.
      for (int64_t r = 0; r < m; ++r) std::memset(c + r * ldc, 0, size_t(n) * sizeof(T));
      beta = T(1);
    }
    // BLAS wants a leading dimension of at least one even for an empty k.
    fn(kRowMajor, ta ? kTrans : kNoTrans, tb ? kTrans : kNoTrans, int(m), int(n), int(k), alpha, a,
       int(std::max<int64_t>(lda, 1)), b, int(std::max<int64_t>(ldb, 1)), beta, c, int(ldc));
    return;
  }
  aten_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace

void row_major_gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
                    float alpha, const float* a, int64_t lda, const float* b, int64_t ldb,
                    float beta, float* c, int64_t ldc) {
  gemm(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void row_major_gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
                    double alpha, const double* a, int64_t lda, const double* b, int64_t ldb,
                    double beta, double* c, int64_t ldc) {
  gemm(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void row_major_gemm_through_aten(bool transpose_a, bool transpose_b, int64_t m, int64_t n,
                                 int64_t k, float alpha, const float* a, int64_t lda,
                                 const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  aten_gemm(transpose_a, transpose_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

bool row_major_gemm_uses_cblas() {
  return find_cblas_gemm<float>() != nullptr && find_cblas_gemm<double>() != nullptr;
}

}  // namespace adala
