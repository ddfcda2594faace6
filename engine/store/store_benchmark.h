#pragma once
// Write cost of the run database with the pipeline's batching: add_metric() for each
// metric of a step, then one flush() (one transaction) — the two timed apart, so the
// overhead of any flush policy on a step of known length follows.
#include <cstdint>
#include <string>

namespace adala::store {

struct MetricWriteBenchmark {
  int64_t metrics = 0;
  int batch = 0;  // metrics per flush
  int64_t flushes = 0;
  double seconds = 0.0;  // adding + flushing
  double metrics_per_second = 0.0;
  double seconds_per_add = 0.0;    // one add_metric() (buffering only)
  double seconds_per_flush = 0.0;  // one commit of `batch` metrics, checkpoints included

  // Store time per step as a fraction of a step of `step_seconds`, for a pipeline that
  // adds `batch` metrics per step and commits every `flush_every_seconds` (0: every step).
  double overhead(double step_seconds, double flush_every_seconds = 0.0) const;
};

// Writes `metrics` metrics in flushes of `batch` into a new database at `path` (which must
// not exist; throws StoreError otherwise). The caller removes the file.
MetricWriteBenchmark run_metric_write_benchmark(const std::string& path, int64_t metrics,
                                                int batch);

// metrics / second of run_metric_write_benchmark.
double benchmark_metric_writes(const std::string& path, int64_t metrics, int batch);

}  // namespace adala::store
