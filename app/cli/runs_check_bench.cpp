// `adala runs check` and `adala runs bench`: the database file's integrity, and how fast it
// takes metrics.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "app/cli/runs_common.h"
#include "engine/store/store_benchmark.h"

namespace adala::cli::runs {

namespace fs = std::filesystem;

namespace {

// The benchmark's own database file and the SQLite files beside it.
void remove_bench_files(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
}

}  // namespace

int check_database(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_reading(database_path(o));
  const std::string findings = store.integrity_check();
  out << store.path() << ": " << findings << "\n";
  return findings == "ok" ? 0 : 1;
}

int bench_store(const RunsOptions& o, std::ostream& out) {
  const int64_t metrics = o.metrics;
  const int64_t batch = o.batch;
  const bool own_file = o.db.empty();
  const std::string path = own_file
                               ? (fs::temp_directory_path() /
                                  ("adala-store-bench-" + std::to_string(getpid()) + ".sqlite"))
                                     .string()
                               : o.db;
  store::MetricWriteBenchmark result;
  try {
    result = store::run_metric_write_benchmark(path, metrics, static_cast<int>(batch));
  } catch (...) {
    if (own_file) remove_bench_files(path);
    throw;
  }
  if (own_file) remove_bench_files(path);
  out << fmt::format(
      "{} metrics in {} flushes of {}: {:.3f} s, {:.0f} metrics/s\n"
      "  add_metric {:.2f} us, flush (one commit of {}) {:.1f} us\n",
      result.metrics, result.flushes, result.batch, result.seconds, result.metrics_per_second,
      result.seconds_per_add * 1e6, result.batch, result.seconds_per_flush * 1e6);
  if (o.step_ms > 0) {
    out << fmt::format(
        "overhead on a {:.3f} ms step: {:.4f}% flushing every step, {:.4f}% with "
        "flush_if_due() every 250 ms\n",
        o.step_ms, 100.0 * result.overhead(o.step_ms / 1e3),
        100.0 * result.overhead(o.step_ms / 1e3, 0.25));
  }
  return 0;
}

}  // namespace adala::cli::runs
