#include "engine/store/store_benchmark.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"

namespace adala::store {

double MetricWriteBenchmark::overhead(double step_seconds, double flush_every_seconds) const {
  if (step_seconds <= 0) return 0.0;
  // Steps per commit: one when flushing every step, else as many as fit in the interval.
  const double steps_per_flush = std::max(1.0, flush_every_seconds / step_seconds);
  const double per_step = batch * seconds_per_add + seconds_per_flush / steps_per_flush;
  return per_step / step_seconds;
}

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
  store.set_run_status(run, RunStatus::Running);
  const StageSpec& stage = *stage_by_index(2);  // feature alignment, the stage with most rows
  store.begin_stage(run, stage.name, stage.index, metrics / batch + 1);

  // Keys shaped like Stage 2's: a few per-step scalars, the rest per block.
  const char* scalar_keys[] = {"loss", "lr", "images_per_second", "grad_norm", "step_ms"};
  using Clock = std::chrono::steady_clock;
  Clock::duration adding{}, flushing{};
  int64_t written = 0, flushes = 0;
  for (int64_t step = 0; written < metrics; ++step) {
    const auto add_start = Clock::now();
    for (int i = 0; i < batch && written < metrics; ++i, ++written) {
      const double value = 1.0 / static_cast<double>(step + i + 1);
      if (i < 5) {
        store.add_metric(run, stage.name, step, scalar_keys[i], -1, value);
      } else {
        store.add_metric(run, stage.name, step, "block_mse", i - 5, value);
      }
    }
    const auto flush_start = Clock::now();
    store.flush();
    flushing += Clock::now() - flush_start;
    adding += flush_start - add_start;
    ++flushes;
  }
  store.end_stage(run, stage.name, RunStatus::Done);
  store.set_run_status(run, RunStatus::Done);

  const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
  MetricWriteBenchmark result;
  result.metrics = written;
  result.batch = batch;
  result.flushes = flushes;
  result.seconds = seconds(adding + flushing);
  result.metrics_per_second =
      result.seconds > 0 ? static_cast<double>(written) / result.seconds : 0.0;
  result.seconds_per_add = written > 0 ? seconds(adding) / static_cast<double>(written) : 0.0;
  result.seconds_per_flush = flushes > 0 ? seconds(flushing) / static_cast<double>(flushes) : 0.0;
  return result;
}

double benchmark_metric_writes(const std::string& path, int64_t metrics, int batch) {
  return run_metric_write_benchmark(path, metrics, batch).metrics_per_second;
}

}  // namespace adala::store
