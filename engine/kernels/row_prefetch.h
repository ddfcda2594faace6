#pragma once
// Software prefetch for the attention kernels' row streams. A head's rows inside a
// token-major (B, N, H, d) tensor are H * d floats apart, and inside the model's qkv output
// 3 * H * d: 1.5-4.6 kB, so most rows start on a new 4 kB page, where the hardware prefetchers
// stop. Without a hint each row's first load waits on memory: the fused kernel's backward
// spent 80 % of its normaliser pass on the load of g and out at N = 16384.
#include <cstdint>

namespace adala {

// How many rows ahead of the one being worked on to prefetch.
constexpr int64_t kPrefetchRowsAhead = 4;

// A strided row stream that a pass over other rows prefetches alongside its own (the matrix
// that the next product reads, or writes, row by row).
struct RowStream {
  const void* base = nullptr;
  int64_t stride_bytes = 0;
  int64_t row_bytes = 0;
  bool for_write = false;
};

template <typename T>
RowStream row_stream(const T* base, int64_t stride, int64_t cols, bool for_write = false) {
  return {base, stride * int64_t(sizeof(T)), cols * int64_t(sizeof(T)), for_write};
}

// Prefetches row `row + kPrefetchRowsAhead` of the stream when it exists.
inline void prefetch_row_ahead(const RowStream& s, int64_t row, int64_t rows) {
  const int64_t ahead = row + kPrefetchRowsAhead;
  if (!s.base || ahead >= rows) return;
  const char* p = static_cast<const char*>(s.base) + ahead * s.stride_bytes;
  for (int64_t b = 0; b < s.row_bytes; b += 64) {
    if (s.for_write)
      __builtin_prefetch(p + b, 1, 3);
    else
      __builtin_prefetch(p + b, 0, 3);
  }
}

// The same for a stream given by its parts (rows: the stream's length).
template <bool kForWrite = false, typename T>
inline void prefetch_row_ahead(const T* base, int64_t stride, int64_t row, int64_t rows,
                               int64_t cols) {
  prefetch_row_ahead(row_stream(base, stride, cols, kForWrite), row, rows);
}

}  // namespace adala
