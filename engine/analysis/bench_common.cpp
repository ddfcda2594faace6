#include "engine/analysis/bench_common.h"

#include <fmt/printf.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <sys/resource.h>

#include <torch/cuda.h>

#include "engine/core/device.h"

namespace adala {
namespace {

// Minor page faults of this process so far (getrusage); -1 where they cannot be read.
long minor_page_faults() {
  rusage usage{};
  return getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_minflt : -1;
}

}  // namespace

void synchronize_device(const c10::Device& device) {
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<double> time_runs_ms(const std::function<void()>& fn, int warmup, int repeats,
                                 const c10::Device& device, double budget_s,
                                 const std::function<void()>& first_warmup, int* warmup_runs,
                                 double min_warmup_ms) {
  using clock = std::chrono::steady_clock;
  double last_warmup_ms = 0, warmup_total_ms = 0;
  int runs = 0;
  // One warm-up run; returns the pages it faulted.
  auto warm_up = [&](bool first) {
    const long faults_before = minor_page_faults();
    const auto start = clock::now();
    if (first && first_warmup)
      first_warmup();
    else
      fn();
    synchronize_device(device);
    last_warmup_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
    warmup_total_ms += last_warmup_ms;
    ++runs;
    return faults_before < 0 ? 0 : minor_page_faults() - faults_before;
  };
  if (warmup <= 0 && first_warmup) first_warmup();
  long faults = 0;
  for (int i = 0; i < warmup; ++i) faults = warm_up(i == 0);
  for (int extra = 0; warmup > 0 && faults > kSettledRunPageFaults && extra < kMaxSettlingRuns;
       ++extra) {
    if (budget_s > 0 && warmup_total_ms + last_warmup_ms > budget_s * 500.0) break;
    faults = warm_up(false);
  }
  while (warmup > 0 && warmup_total_ms < min_warmup_ms &&
         !(budget_s > 0 && warmup_total_ms + last_warmup_ms > budget_s * 500.0))
    warm_up(false);
  if (warmup_runs) *warmup_runs = runs;
  synchronize_device(device);
  if (budget_s > 0 && last_warmup_ms > 0) {
    const int affordable = static_cast<int>(budget_s * 1000.0 / last_warmup_ms);
    repeats = std::max(1, std::min(repeats, affordable));
  }
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    const auto start = clock::now();
    fn();
    synchronize_device(device);
    times.push_back(std::chrono::duration<double, std::milli>(clock::now() - start).count());
  }
  return times;
}

double load_average() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  in >> load;
  return in ? load : -1;
}

std::string machine_conditions() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* timeout = std::getenv("OPENBLAS_THREAD_TIMEOUT");
  std::string buf = fmt::sprintf(
      "load %.1f on %u cores, OMP_WAIT_POLICY=%s, OpenBLAS %d threads (OPENBLAS_THREAD_TIMEOUT=%s)",
      load_average(), std::thread::hardware_concurrency(),
      policy && *policy ? policy : "(unset: active spin)", openblas_threads(),
      timeout && *timeout ? timeout : "unset");
  return buf;
}

std::string busy_machine_warning() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const double load = load_average();
  if ((policy && *policy) || load < 0 || load <= double(std::thread::hardware_concurrency()))
    return "";
  std::string buf = fmt::sprintf(
      "warning: this machine is busy (load %.1f on %u cores) and OMP_WAIT_POLICY is unset: "
      "OpenMP threads spin while waiting and take the time slices working threads need, so "
      "timings can be off by 10x; run with OMP_WAIT_POLICY=PASSIVE for stable figures\n",
      load, std::thread::hardware_concurrency());
  return buf;
}

std::string format_bytes(double bytes) {
  std::string buf;
  const double a = bytes < 0 ? -bytes : bytes;
  if (a >= 1e9)
    buf = fmt::sprintf("%.2f GB", bytes / 1e9);
  else if (a >= 1e6)
    buf = fmt::sprintf("%.1f MB", bytes / 1e6);
  else if (a >= 1e3)
    buf = fmt::sprintf("%.1f kB", bytes / 1e3);
  else
    buf = fmt::sprintf("%.0f B", bytes);
  return buf;
}

}  // namespace adala
