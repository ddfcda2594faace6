#pragma once
// `adala bench attention`: the attention kernels alone on (batch, heads, N, d) float32 inputs,
// time (median of repeats after warm-up) and measured peak memory per point, each point in a
// fresh child process on CPU.
#include <c10/core/Device.h>

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "engine/measure/bench_common.h"
#include "engine/kernels/window_linear_attention.h"

namespace adala {

// "softmax" (plain, holds the N x N scores), "softmax-chunked" (query chunks: at most
// chunk x N scores at a time), "linear" (adala::linear_attention, the batched formula),
// "linear-blocked" (linear_attention_blocked, the head-parallel kernel the model runs at
// inference; forward only), "linear-fused" (linear_attention_autograd, the fused forward and
// backward the model trains with), "window-linear" (window_linear_attention: softmax over a
// k x k patch window, ELU+1 linear attention over the other tokens, phi applied inside the
// timed run; one point per window size k; the tokens laid out by window_bench_layout).
const std::vector<std::string>& attention_kernel_names();
bool is_attention_kernel(const std::string& name);
// The kernels timed by default with train (forward + backward): softmax, the batched formula
// and the fused kernel.
const std::vector<std::string>& attention_train_kernel_names();

// The token layout window-linear times for N tokens: a class token when N - 1 is a perfect
// square and N is not, then the patches on the most nearly square grid (h <= w, h x w = the
// patches); N = 1024, 4096, 16384 are 32^2, 64^2, 128^2 patches without prefix.
WindowLinearAttentionOptions window_bench_layout(int64_t n, int64_t window);

// Query rows per chunk so that one chunk's scores for all heads take about budget_bytes
// (float32), a multiple of 32, at least 32. The default keeps each chunk's scores well under
// glibc's 32 MB mmap threshold, so chunk buffers are reused from the heap instead of being
// mapped and page-faulted in afresh for every chunk, and mostly in cache.
int64_t auto_softmax_chunk(int64_t batch_heads, int64_t n, int64_t budget_bytes = 16LL << 20);

// Working memory a kernel needs beyond its inputs, in bytes (our estimate: two score-sized
// buffers for softmax, the scores and their softmax being alive together; with train, what
// the forward keeps for the backward and the backward's own buffers too).
int64_t attention_kernel_memory_estimate(const std::string& kernel, int64_t batch_heads, int64_t n,
                                         int64_t head_dim, int64_t chunk, bool train = false);

// window: window-linear's k (the others ignore it).
at::Tensor run_attention_kernel(const std::string& kernel, const at::Tensor& q, const at::Tensor& k,
                                const at::Tensor& v, int64_t chunk, double eps = 1e-6,
                                int64_t window = 3);

struct AttentionBenchOptions {
  int64_t batch = 1, heads = 6, head_dim = 64;
  std::vector<int64_t> tokens{196, 576, 1024, 2304, 4096, 9216, 16384};
  std::vector<std::string> kernels{"softmax", "softmax-chunked", "linear", "linear-blocked"};
  int repeats = 3, warmup = 1;
  // Warm-up also lasts at least this long (time_runs_ms): a point runs in a fresh process.
  double min_warmup_ms = 200;
  int64_t chunk = 0;  // softmax-chunked query rows; 0: auto_softmax_chunk
  // window-linear's window sizes k (odd): one point per k where the kernels name it.
  std::vector<int64_t> windows{3};
  // Time forward + backward (the gradients of q, k and v for a fixed output gradient) instead
  // of the forward alone; MACs then count 3x the forward's (the backward's two products per
  // forward product), whatever a kernel recomputes. linear-blocked has no backward.
  bool train = false;
  c10::Device device = c10::Device(c10::kCPU);
  double memory_margin = 1.5;    // a point runs when margin * estimate <= available memory
  int64_t available_bytes = -1;  // -1: MemAvailable when the point starts
  bool isolate = true;           // CPU: a fresh child process per point
  double point_budget_s = 120;   // fewer timed repeats (>= 1) where they would take longer
  double timeout_s = 900;
  // Read before and after every point (bench_common.h); null: default_rate_probe.
  RateProbe rate_probe;
};

struct AttentionBenchPoint {
  int64_t tokens = 0;
  std::string kernel;
  bool ran = false;
  std::string note;  // why it did not run, or what went wrong
  int64_t chunk = 0;
  int64_t window = 0;  // window-linear's k; 0 for the other kernels
  double median_ms = 0, min_ms = 0;
  int timed_runs = 0, warmup_runs = 0;
  int64_t peak_rss_bytes = -1, peak_alloc_bytes = -1, estimate_bytes = 0;
  double macs = 0;
  RateRange rates;  // the reference matmul's rate read before and after the point
  double gflops() const { return ran && median_ms > 0 ? 2.0 * macs / (median_ms * 1e6) : 0.0; }
};

std::vector<AttentionBenchPoint> run_attention_bench(const AttentionBenchOptions& options,
                                                     const ProgressFn& progress = nullptr);

// MACs of one point: the forward's, times 3 with train. window-linear: its own count
// (window_linear_attention_macs with F = dv = head_dim, ELU+1 not counted) at window `window`.
double attention_point_macs(const std::string& kernel, int64_t batch_heads, int64_t n,
                            int64_t head_dim, bool train, int64_t window = 3);

// The kernel as the table names it: "window-linear k=3" for window-linear, else its name.
std::string attention_point_label(const AttentionBenchPoint& point);

// One row per (N, kernel) with time, GFLOP/s (2 per MAC), both peak figures and the ratios
// to plain softmax at the same N (to softmax-chunked where plain softmax was skipped); then,
// where both ran, how many times faster linear-fused is than the batched formula per N. The
// header gives the run's reference-matmul rate range and, where it moved by more than
// kUnsteadyRateMove, the unsteady flag.
std::string format_attention_table(const std::vector<AttentionBenchPoint>& points,
                                   const AttentionBenchOptions& options);

// This machine's matmul rate at the current thread settings, float32 n x n x n:
// `library` is one at::mm (what LibTorch does with the configured threads);
// `all_threads` runs one independent at::mm per intra-op thread at once (the most the cores
// deliver when work is split by head, as linear_attention_blocked does).
struct GemmRate {
  int64_t n = 0;
  int threads = 0;
  double library_gflops = 0, all_threads_gflops = 0;
};
GemmRate measure_gemm_rate(int64_t n = 2048, int repeats = 5);

}  // namespace adala
