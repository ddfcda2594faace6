#pragma once
// The head loop of the CPU attention kernels (linear_attention_autograd, softmax_attention_heads):
// make_worker() gives one worker's head function (with its own buffers); it runs every head
// once. With at least as many heads as threads, each thread makes a worker and takes the next
// head until none is left (OpenBLAS single-threaded meanwhile, so each worker's products run on
// its own core; a thread that loses its core for a while holds up no fixed share); otherwise
// the heads run one after another with the library's threading.
#include <algorithm>
#include <atomic>
#include <cstdint>

#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>

#include "engine/runtime/device.h"

namespace adala {

// Rows per block of a head's N rows: block_rows, at most N, at least 1.
inline int64_t rows_per_block(int64_t block_rows, int64_t n) {
  return std::max<int64_t>(1, std::min(block_rows, n));
}

// The tensor itself when its last stride is 1 (what head_of needs), else a contiguous copy.
inline at::Tensor with_unit_last_stride(const at::Tensor& t) {
  return t.stride(-1) == 1 ? t : t.contiguous();
}

template <typename MakeWorker>
void for_each_head(int64_t heads, const MakeWorker& make_worker) {
  const int64_t threads = at::get_num_threads();
  if (heads < threads || threads <= 1 || at::in_parallel_region()) {
    auto work = make_worker();
    for (int64_t h = 0; h < heads; ++h) work(h);
    return;
  }
  // at::parallel_for does not carry thread-local state (grad mode, the allocator's memory
  // reporting) to OpenMP workers; each task takes the caller's.
  const at::ThreadLocalState caller_state;
  std::atomic<int64_t> next_head{0};
  const SingleThreadedBlas one_blas_thread_per_worker;
  at::parallel_for(0, threads, 1, [&](int64_t, int64_t) {
    at::ThreadLocalStateGuard state_guard(caller_state);
    auto work = make_worker();
    for (int64_t h = next_head++; h < heads; h = next_head++) work(h);
  });
}

// One head's (N, x) matrix inside a 4-d tensor: where it starts and its row stride. Rows are
// dimension 2 of a (B, H, N, x) tensor (head_of) and dimension 1 of one stored as (B, N, H, x)
// (head_of_token_major); the last stride must be 1.
template <typename T>
struct HeadRows {
  T* data;
  int64_t stride;
  T* row(int64_t r) const { return data + r * stride; }
};

template <typename T>
HeadRows<T> head_of(const at::Tensor& t, int64_t h) {
  T* base = t.data_ptr<T>() + (h / t.size(1)) * t.stride(0) + (h % t.size(1)) * t.stride(1);
  return {base, t.stride(2)};
}

template <typename T>
HeadRows<T> head_of_token_major(const at::Tensor& t, int64_t h) {
  T* base = t.data_ptr<T>() + (h / t.size(2)) * t.stride(0) + (h % t.size(2)) * t.stride(2);
  return {base, t.stride(1)};
}

}  // namespace adala
