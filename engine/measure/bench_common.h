#pragma once
// Small pieces every benchmark in engine/bench shares: progress reporting, timing with a
// device synchronisation, medians, the order of interleaved rounds, the reference-matmul rate
// probe and byte formatting.
#include <c10/core/Device.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/measure/rate_range.h"

namespace adala {

// Called before each measured point: (points done so far, total points, what runs next).
// Called once more with done == total and an empty label when everything has run.
using ProgressFn = std::function<void(size_t done, size_t total, const std::string& label)>;

// Waits for queued work on a CUDA device; nothing to do on CPU.
void synchronize_device(const c10::Device& device);

// Median of the values (0 for none).
double median(std::vector<double> values);

// A warm-up run that page-faults no more than this many pages counts as settled.
constexpr long kSettledRunPageFaults = 64;
// Warm-up runs added, at most, until one is settled.
constexpr int kMaxSettlingRuns = 8;

// Runs fn `warmup` times, then `repeats` timed times; returns each timed run in milliseconds.
// With warmup >= 1, warm-up goes on (up to kMaxSettlingRuns more runs, and while the warm-up
// has taken under half of budget_s) until a run page-faults no more than kSettledRunPageFaults
// pages: until then the allocator's heaps are still growing to the run's working set (the
// first three or four runs of the fused attention kernel at N = 16384 fault ~45000 pages and
// take up to twice as long, though freed memory is kept for reuse), which a training
// loop pays in its first steps only. warmup_runs, when given, receives how many warm-up runs
// took place. min_warmup_ms > 0: warm-up also goes on until it has lasted that long (as far as
// half of budget_s allows): a process that has just started (a benchmark child) or a core
// that has been idle runs a few-millisecond kernel up to 1.6x slower for its first ~100 ms,
// whatever the page faults (the fused attention kernel at N = 1024: 4.1-4.2 ms timed after
// 3 warm-up runs, 2.6 ms after 40).
// budget_s > 0: fewer timed runs (at least one) when the last warm-up run shows that `repeats`
// of them would take longer than that. first_warmup, when given, replaces fn for the first
// warm-up run (e.g. fn under an operation counter); with warmup == 0 it runs once, untimed.
std::vector<double> time_runs_ms(const std::function<void()>& fn, int warmup, int repeats,
                                 const c10::Device& device, double budget_s = 0,
                                 const std::function<void()>& first_warmup = nullptr,
                                 int* warmup_runs = nullptr, double min_warmup_ms = 0);

// The 1-minute load average (/proc/loadavg); -1 where it cannot be read.
double load_average();

// "load 5.9 on 2 cores, OMP_WAIT_POLICY=passive": what the timings ran alongside.
std::string machine_conditions();
// A warning (empty when none): on a busy machine (load above the core count) OpenMP's default
// spin-waiting lets idle team threads burn the time slices the working ones need; timings of
// 2-thread kernels then swing by 10x or more. OMP_WAIT_POLICY=PASSIVE (read when the process
// starts) avoids it.
std::string busy_machine_warning();

// The order in which round `round` (0-based) visits `count` modes: 0 .. count-1 in even
// rounds, reversed in odd ones (softmax, linear, linear, softmax, ...), so that a slow drift in
// the machine's speed falls on every mode alike.
std::vector<size_t> round_order(size_t count, int round);

// One reading of the machine's rate in GFLOP/s (not a finite positive number: no reading).
using RateProbe = std::function<double()>;

// The reference matmul the probe times: float32 n x n x n at::mm, two warm-up runs, then timed
// runs until there are at least `repeats` of them and they took at least min_ms together; the
// rate of their median. On CPU at `threads` intra-op threads: 1024 on 2 threads is 2.1 GFLOP a
// run, 7-60 ms on this project's 2-core VM (35-300 GFLOP/s), so a reading takes 60-250 ms.
// On CUDA at 4096.
struct ReferenceMatmul {
  int64_t n = 1024;
  int threads = 2;
  int repeats = 3;
  double min_ms = 60;
};
ReferenceMatmul reference_matmul_for(const c10::Device& device);
// "float32 1024^3 at::mm, 2 threads, median of >= 3 runs over >= 60 ms"
std::string reference_matmul_text(const c10::Device& device);
// The lines a benchmark's table opens with about the run's matmul rate: its range, and the
// unsteady warning when it moved by more than 25 %.
std::string run_rate_lines(const RateRange& rates, const c10::Device& device);

// One reading in this process (on CPU the thread counts are set for it and restored).
double reference_matmul_gflops(const c10::Device& device, const ReferenceMatmul& matmul);
// The probe the benchmarks use unless given one: on CPU with `isolate`, each reading in a fresh
// child process, like the points (the parent never starts an OpenMP pool of its own, which
// would also make its later children's pools unusable); otherwise in this process.
RateProbe default_rate_probe(const c10::Device& device, bool isolate);

// Probes around a sequence of measurements, one reading between each two: before the first,
// then after each (the reading after one point is the one before the next).
class RateProbes {
 public:
  explicit RateProbes(RateProbe probe) : probe_(std::move(probe)) {}
  // The reading before the next measurement (taken now unless the last one still stands).
  void before();
  // The reading after the measurement, added with the one before it to `point`.
  void after(RateRange& point);
  const RateRange& all() const { return all_; }

 private:
  double read();
  RateProbe probe_;
  double last_ = RateRange::kNone;
  bool fresh_ = false;  // last_ was read after the latest measurement
  RateRange all_;
};

// "12.4 GB", "274 MB", "3.1 kB" (decimal units, as memory figures are usually quoted).
std::string format_bytes(double bytes);

}  // namespace adala
