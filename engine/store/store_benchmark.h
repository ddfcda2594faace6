#pragma once
// Write throughput of the run database with the pipeline's batching: add_metric() for each
// metric of a step, then one flush() (one transaction) per step.
#include <cstdint>
#include <string>

namespace adala::store {

struct MetricWriteBenchmark {
  int64_t metrics = 0;
  int batch = 0;          // metrics per flush
  double seconds = 0.0;
  double metrics_per_second = 0.0;
  double seconds_per_flush = 0.0;  // the cost the pipeline pays once per step
};

// Writes `metrics` metrics in flushes of `batch` into a new database at `path` (which must
// not exist; throws StoreError otherwise). The caller removes the file.
MetricWriteBenchmark run_metric_write_benchmark(const std::string& path, int64_t metrics, int batch);

// metrics / second of run_metric_write_benchmark.
double benchmark_metric_writes(const std::string& path, int64_t metrics, int batch);

}  // namespace adala::store
