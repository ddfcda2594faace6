#pragma once
// phi(x) = x + 1 for x >= 0, exp(x) otherwise, as one vectorised pass over float rows.
// LibTorch's CPU exp in this build is scalar (about 0.8 ns per element here, more than the
// matmuls of linear attention cost); this kernel uses a Cephes-style exp (range reduction to
// [-ln2/2, ln2/2], degree-6 polynomial, 2^k from the exponent bits; within 2 ulp of expf) that
// the compiler vectorises, with one version per instruction set (AVX-512, AVX2 with FMA, baseline)
// chosen at load time. Inputs below -87 are clamped to -87 (phi = exp(-87), about 1.6e-38, a
// normal float) instead of giving a denormal or 0, so phi stays strictly positive.
#include <cstdint>

#include "engine/kernels/row_prefetch.h"

namespace adala {

// out[r * out_stride + c] = phi(in[r * in_stride + c]) for r < rows, c < cols.
// Rows of `also` (up to two streams, same row count) are prefetched alongside the input's.
void elu_plus_one_rows(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                       int64_t rows, int64_t cols, const RowStream& also = {},
                       const RowStream& also2 = {});

// The same, and colsum[c] += sum over r of phi(in[r * in_stride + c]) (cols entries).
void elu_plus_one_rows_colsum(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                              int64_t rows, int64_t cols, float* colsum, const RowStream& also = {},
                              const RowStream& also2 = {});

// The blocked kernel's last step, out[r * out_stride + c] = in[r * in_stride + c] /
// (in[r * in_stride + cols] + eps) for c < cols: each row divided by the normaliser that the
// same matmul left in column `cols`.
void divide_rows_by_last_column(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                                int64_t rows, int64_t cols, float eps);

}  // namespace adala
