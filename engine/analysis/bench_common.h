#pragma once
// Small pieces every benchmark in engine/analysis shares: progress reporting, timing with a
// device synchronisation, medians and byte formatting.
#include <c10/core/Device.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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

// "12.4 GB", "274 MB", "3.1 kB" (decimal units, as memory figures are usually quoted).
std::string format_bytes(double bytes);

}  // namespace adala
