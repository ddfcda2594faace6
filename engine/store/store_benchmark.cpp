#include "engine/store/store_benchmark.h"

#include <chrono>
#include <filesystem>

#include "engine/store/run_store.h"

namespace adala::store {

MetricWriteBenchmark run_metric_write_benchmark(const std::string& path, int64_t metrics,
                                                int batch) {
  if (metrics <= 0 || batch <= 0) {
    throw StoreError(StoreErrorKind::InvalidArgument, "benchmark needs metrics > 0 and batch > 0");
  }
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "benchmark database " + path + " already exists; give a new path");
  }
  RunStore store(path);
  const int64_t run = store.create_run("benchmark", "{}", "cpu", "", "");
  store.set_run_status(run, "running");
  store.begin_stage(run, "stage2", 2, metrics / batch + 1);

  // Keys shaped like Stage 2's: a few per-step scalars, the rest per block.
  const char* scalar_keys[] = {"loss", "lr", "grad_norm", "step_ms", "throughput"};
  const int per_step = batch;
  const auto start = std::chrono::steady_clock::now();
  int64_t written = 0;
  int64_t flushes = 0;
  for (int64_t step = 0; written < metrics; ++step) {
    for (int i = 0; i < per_step && written < metrics; ++i, ++written) {
      const double value = 1.0 / static_cast<double>(step + i + 1);
      if (i < 5) {
        store.add_metric(run, "stage2", step, scalar_keys[i], -1, value);
      } else {
        store.add_metric(run, "stage2", step, "attn_mse", i - 5, value);
      }
    }
    store.flush();
    ++flushes;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  store.end_stage(run, "stage2", "done");
  store.set_run_status(run, "done");

  MetricWriteBenchmark result;
  result.metrics = written;
  result.batch = batch;
  result.seconds = seconds;
  result.metrics_per_second = seconds > 0 ? static_cast<double>(written) / seconds : 0.0;
  result.seconds_per_flush = flushes > 0 ? seconds / static_cast<double>(flushes) : 0.0;
  return result;
}

double benchmark_metric_writes(const std::string& path, int64_t metrics, int batch) {
  return run_metric_write_benchmark(path, metrics, batch).metrics_per_second;
}

}  // namespace adala::store
