#pragma once
// `adala bench scaling`: a whole ViT at growing resolution, per attention mode: analytic and
// measured MACs, measured peak memory, latency and throughput (inference, and optionally one
// training step), each point in a fresh child process on CPU.
#include <c10/core/Device.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine/measure/bench_common.h"
#include "engine/bench/scaling_csv.h"
#include "engine/model/attention_plan.h"
#include "engine/model/vit_config.h"

namespace adala {

// "softmax" (plain), "softmax-chunked" (exact softmax, query-chunked: the memory-lean
// baseline), "linear" (ELU+1 linear attention), "window-linear" (every block window+linear
// attention, ScalingOptions::window), "plan" (ScalingOptions::plan: a hybrid student's blocks,
// attention_plan.h).
const std::vector<std::string>& scaling_mode_names();

struct ScalingOptions {
  std::string preset = "vit_base";
  std::vector<int64_t> resolutions{224, 448, 672, 1024, 2048};
  std::vector<std::string> modes{"softmax", "softmax-chunked", "linear"};
  int64_t batch = 1;
  int repeats = 3, warmup = 1;
  // Each resolution's modes are measured in this many interleaved rounds (a fresh child per
  // mode and round) and report the median over rounds; rounds after the first run only where
  // the first took at most round_budget_s for all modes together.
  int rounds = 3;
  double round_budget_s = 150;
  // Also time one training step per point, in rounds like the inference points (a fresh
  // child per mode and round, the modes interleaved); train_only: the training step alone.
  bool train_step = false;
  bool train_only = false;
  bool count_ops = true;  // measured MACs: the first warm-up forward runs under an OpCounter
  // Timed repeats are cut (to at least one) where the warm-up shows they would take longer
  // than this in all: a 2048^2 point can take minutes per forward on a small CPU.
  double point_budget_s = 120;
  int64_t softmax_chunk = 0;  // query rows per chunk; 0: auto_softmax_chunk per resolution
  // The "plan" mode's attention per block (one per block of the preset; its window is the
  // window+linear blocks' k), and the "window-linear" mode's k.
  AttentionPlan plan;
  int64_t window = kDefaultAttentionWindow;
  c10::Device device = c10::Device(c10::kCPU);
  // "fp32", or "bf16" / "fp16" autocast around the forward passes (linear attention stays in
  // float32 inside, engine/runtime/precision.h); weights stay float32.
  std::string precision = "fp32";
  double memory_margin = 1.5;
  int64_t available_bytes = -1;  // -1: MemAvailable when each point starts
  bool isolate = true;
  double timeout_s = 1800;
  // Read before and after every measurement (bench_common.h); null: default_rate_probe.
  RateProbe rate_probe;
};

struct ScalingPoint {
  std::string preset, mode;
  int64_t resolution = 0, tokens = 0, batch = 1, chunk = 0;
  double model_macs = 0;           // analytic, whole model, per image
  double attention_only_macs = 0;  // analytic, attention sub-layers + patch embed (paper's)
  double measured_macs = -1;       // counted from the operators that ran, per image; -1: not run
  // inference
  bool ran = false;
  std::string note;
  double ms_per_img = 0, imgs_per_s = 0;
  // The spread: the fastest and slowest single timed run over all rounds, per image
  // (ms_per_img, the median over rounds of each round's median, lies between them).
  double ms_min = 0, ms_max = 0;
  int timed_runs = 0;  // over all rounds
  int rounds = 0;      // rounds that measured this point
  int64_t peak_rss_bytes = -1, peak_alloc_bytes = -1, estimate_bytes = 0;
  int64_t peak_rss_min_bytes = -1, peak_rss_max_bytes = -1;  // over rounds (one per round)
  // The machine's 1-minute load average: the highest read just before any of the point's
  // measurements (each round's child, the training step's); -1 where none was read.
  double load_1m = -1;
  // one training step (forward, MSE to a fixed target, backward, AdamW)
  bool train_ran = false;
  std::string train_note;
  double train_ms = 0;
  double train_ms_min = 0, train_ms_max = 0;  // fastest and slowest timed step
  int train_timed_runs = 0;
  int train_rounds = 0;  // rounds that measured the training step (train_ms: their median)
  int64_t train_peak_rss_bytes = -1, train_peak_alloc_bytes = -1, train_estimate_bytes = 0;
  // The reference matmul's rate read before and after each of the point's measurements.
  RateRange rates;
};

// Our working-memory estimate of one point beyond what is in place before it (bytes).
int64_t vit_memory_estimate(const ViTConfig& config, const std::string& mode, int64_t resolution,
                            int64_t batch, int64_t chunk, bool train);

// Progress steps per resolution: every mode in every round, for inference and the training
// step.
size_t scaling_steps_per_resolution(const ScalingOptions& options);

std::vector<ScalingPoint> run_scaling_bench(const ScalingOptions& options,
                                            const ProgressFn& progress = nullptr);

// The rate range over all the points' readings.
RateRange scaling_rate_range(const std::vector<ScalingPoint>& points);

// The table, with the run's matmul rate range and, where it moved by more than
// kUnsteadyRateMove, the unsteady flag.
std::string format_scaling_table(const std::vector<ScalingPoint>& points,
                                 const ScalingOptions& options);
// The CSV of `--csv` (engine/bench/scaling_csv.h): one row per point.
ScalingCsvRow scaling_csv_row(const ScalingPoint& point);
void write_scaling_csv(std::ostream& out, const std::vector<ScalingPoint>& points);
void write_scaling_csv(const std::string& path, const std::vector<ScalingPoint>& points);

}  // namespace adala
