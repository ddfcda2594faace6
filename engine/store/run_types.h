#pragma once
// Plain rows of the run database, as RunStore returns them. Times are UTC ISO-8601
// ("2024-05-01T12:00:00.000Z"); "" means not set.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace adala::store {

struct RunInfo {
  int64_t id = 0;
  std::string name, config_json;
  std::string status;  // queued | running | interrupted | failed | done
  std::string device, torch_version, project_version;
  std::string started_at, ended_at;
  std::vector<std::string> tags;  // sorted
  std::string notes;
  std::string created_at;
  std::string kind = "training";  // training | benchmark
  std::string folder;             // absolute; "" for a run with no folder (benchmarks)
};

struct StageInfo {
  int64_t run_id = 0;
  std::string stage;
  int index = 0;
  std::string status;                       // running | interrupted | failed | done
  int64_t total_steps = 0, last_step = -1;  // last_step: highest step with committed metrics
  std::string started_at, ended_at;
  // Seconds spent training, summed over the sessions that ran the stage (pauses and the time
  // between a cancel and the resume left out); NaN when not recorded (older runs).
  double compute_seconds = std::numeric_limits<double>::quiet_NaN();
};

struct MetricRow {
  std::string stage;
  int64_t step = 0;
  std::string key;
  int block = -1;      // -1 = not per block (NULL in the database)
  double value = 0.0;  // NaN survives the round trip
};

struct ArtifactInfo {
  int64_t id = 0, run_id = 0;
  std::string kind, path, sha256;  // path is absolute
  int64_t bytes = 0;
  std::string created_at;
};

// One measured point of a benchmark run (runs.kind = "benchmark"). GFLOPs count one
// multiply-add as one FLOP (the paper's convention). NaN = not measured (NULL in the file).
struct BenchmarkPoint {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::string benchmark;  // scaling | attention | peer
  std::string preset;     // model preset ("" for the attention kernels alone)
  std::string mode;       // softmax | softmax-chunked | linear | ... (attention: the kernel)
  int64_t resolution = 0, tokens = 0, batch = 1;
  double gflops = kNone;                 // analytic, whole model (attention: the kernel), per image
  double gflops_attention_only = kNone;  // analytic, attention sub-layers + patch embed
  double gflops_measured = kNone;        // counted from the operators that ran
  double peak_mb = kNone;                // peak RSS above the baseline, 1 MB = 1e6 bytes
  double peak_alloc_mb = kNone;          // LibTorch allocator peak
  double ms_per_img = kNone;             // median (attention: per kernel call of the batch)
  double imgs_per_s = kNone;
  bool ran = true;
  std::string note;               // why it did not run
  std::string extra_json = "{}";  // anything else the benchmark measured
};

struct AttentionSnapshot {
  std::string stage;
  int64_t step = 0, image = 0;
  int block = 0, head = 0;
  int64_t query = 0;
  std::vector<float> softmax_row, linear_row;
};

}  // namespace adala::store
