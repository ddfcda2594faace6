#include "engine/measure/bench_common.h"

#include <fmt/printf.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <sys/resource.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <torch/cuda.h>

#include "engine/measure/child_process.h"
#include "engine/runtime/device.h"

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

std::vector<size_t> round_order(size_t count, int round) {
  std::vector<size_t> order(count);
  for (size_t j = 0; j < count; ++j) order[j] = round % 2 == 0 ? j : count - 1 - j;
  return order;
}

ReferenceMatmul reference_matmul_for(const c10::Device& device) {
  ReferenceMatmul m;
  if (device.is_cuda()) m.n = 4096;
  return m;
}

std::string reference_matmul_text(const c10::Device& device) {
  const ReferenceMatmul m = reference_matmul_for(device);
  const std::string runs =
      fmt::sprintf("median of >= %d runs over >= %.0f ms", m.repeats, m.min_ms);
  if (device.is_cuda())
    return fmt::sprintf("float32 %lld^3 at::mm on %s, %s", (long long)m.n, device.str().c_str(),
                        runs.c_str());
  return fmt::sprintf("float32 %lld^3 at::mm, %d threads, %s", (long long)m.n, m.threads,
                      runs.c_str());
}

std::string run_rate_lines(const RateRange& rates, const c10::Device& device) {
  std::string out = "matmul rate (" + reference_matmul_text(device) +
                    ", read before and after every point): " + rate_range_text(rates) + "\n";
  if (rates.unsteady())
    out += unsteady_rate_text(rates) +
           ": the machine's speed changed during the run, these figures are not to be trusted\n";
  return out;
}

double reference_matmul_gflops(const c10::Device& device, const ReferenceMatmul& m) {
  c10::InferenceMode inference;
  const int previous_threads = at::get_num_threads();
  if (device.is_cpu()) configure_threads(m.threads);
  const auto options = at::TensorOptions().dtype(at::kFloat).device(device);
  auto a = at::randn({m.n, m.n}, options), b = at::randn({m.n, m.n}, options);
  auto c = at::empty({m.n, m.n}, options);
  const auto run_ms = [&] {
    const auto start = std::chrono::steady_clock::now();
    at::mm_out(c, a, b);
    synchronize_device(device);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  for (int i = 0; i < 2; ++i) run_ms();
  std::vector<double> times;
  double total_ms = 0;
  constexpr size_t kMaxRuns = 200;
  while ((int(times.size()) < m.repeats || total_ms < m.min_ms) && times.size() < kMaxRuns) {
    times.push_back(run_ms());
    total_ms += times.back();
  }
  if (device.is_cpu()) configure_threads(previous_threads);
  const double flops = 2.0 * double(m.n) * double(m.n) * double(m.n);
  const double ms = median(times);
  return ms > 0 ? flops / (ms * 1e6) : RateRange::kNone;
}

RateProbe default_rate_probe(const c10::Device& device, bool isolate) {
  const ReferenceMatmul m = reference_matmul_for(device);
  if (!(device.is_cpu() && isolate))
    return [device, m] { return reference_matmul_gflops(device, m); };
  return [m] {
    const auto outcome = run_in_child(
        [m] { return fmt::format("{}", reference_matmul_gflops(c10::Device(c10::kCPU), m)); }, 60);
    if (!outcome.ok) return RateRange::kNone;
    try {
      return std::stod(outcome.payload);
    } catch (const std::exception&) {
      return RateRange::kNone;
    }
  };
}

double RateProbes::read() {
  const double gflops = probe_ ? probe_() : RateRange::kNone;
  all_.add(gflops);
  return gflops;
}

void RateProbes::before() {
  if (!fresh_) last_ = read();
  fresh_ = false;
}

void RateProbes::after(RateRange& point) {
  const double now = read();
  point.add(last_);
  point.add(now);
  last_ = now;
  fresh_ = true;
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
