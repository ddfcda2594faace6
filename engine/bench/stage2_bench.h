#pragma once
// `adala bench stage2`: the throughput of Stage 2's training step (feature alignment:
// FeatureAlignmentStage::loss, i.e. the frozen softmax teacher's forward, the student's forward,
// the final-feature MSE and the per-block diagnostics; then the backward and AdamW), in images
// per second, per student attention mode. The modes run interleaved in rounds (round_order:
// softmax, linear, linear, softmax, ...), each in a fresh child process on CPU, with the
// reference matmul's rate read before and after every one.
#include <c10/core/Device.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/measure/bench_common.h"
#include "engine/model/attention_plan.h"

namespace adala {

// The student's attention: "softmax" (a softmax student, the baseline), "linear", or "plan"
// (Stage2BenchOptions::plan: a hybrid student's blocks, attention_plan.h).
const std::vector<std::string>& stage2_mode_names();

struct Stage2BenchOptions {
  std::string preset = "vit_base";
  int64_t resolution = 224, batch = 64;
  std::vector<std::string> modes{"softmax", "linear"};
  // The "plan" mode's attention per block (one per block of the preset) and its window's k.
  AttentionPlan plan;
  // "fp32", or "bf16" / "fp16" autocast around the forward passes (precision.h), as Stage 2's
  // "precision" does; the backward runs outside it.
  std::string precision = "fp32";
  int repeats = 5, warmup = 2;
  int rounds = 3;
  double round_budget_s = 150;  // rounds after the first only where one took at most this
  double point_budget_s = 120;  // fewer timed steps (>= 1) where they would take longer
  c10::Device device = c10::Device(c10::kCPU);
  bool isolate = true;  // CPU: a fresh child process per mode and round
  double timeout_s = 1800;
  RateProbe rate_probe;  // null: default_rate_probe
};

struct Stage2BenchPoint {
  std::string mode;
  bool ran = false;
  std::string note;                         // why it did not run
  double step_ms = 0;                       // the median over rounds of each round's median
  double step_ms_min = 0, step_ms_max = 0;  // the fastest and slowest timed step
  double imgs_per_s = 0;                    // batch / step_ms
  int timed_runs = 0, rounds = 0;
  int64_t peak_rss_bytes = -1, peak_alloc_bytes = -1;  // medians over rounds
  RateRange rates;
};

std::vector<Stage2BenchPoint> run_stage2_bench(const Stage2BenchOptions& options,
                                               const ProgressFn& progress = nullptr);

// One row per mode: ms per step, img/s, the spread, peak memory, the ratio of img/s to the
// softmax student's; the run's matmul rate range and, where unsteady, the flag.
std::string format_stage2_table(const std::vector<Stage2BenchPoint>& points,
                                const Stage2BenchOptions& options);

}  // namespace adala
