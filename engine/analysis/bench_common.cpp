#include "engine/analysis/bench_common.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <torch/cuda.h>

namespace adala {

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
                                 const std::function<void()>& first_warmup) {
  using clock = std::chrono::steady_clock;
  double last_warmup_ms = 0;
  if (warmup <= 0 && first_warmup) first_warmup();
  for (int i = 0; i < warmup; ++i) {
    const auto start = clock::now();
    if (i == 0 && first_warmup)
      first_warmup();
    else
      fn();
    synchronize_device(device);
    last_warmup_ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
  }
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

std::string format_bytes(double bytes) {
  char buf[32];
  const double a = bytes < 0 ? -bytes : bytes;
  if (a >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  else if (a >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  else if (a >= 1e3)
    std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  return buf;
}

}  // namespace adala
