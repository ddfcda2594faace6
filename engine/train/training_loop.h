#pragma once
// The loop every stage shares: AdamW, warm-up + cosine schedule, deterministic batches,
// periodic checkpoints, resume, cooperative cancellation and events. Each step (forward,
// backward, loss scaling, clipping, the optimiser step) is a TrainingStep
// (engine/train/training_step.h); the loop schedules the steps and reports them.
#include <torch/nn/module.h>
#include <torch/optim/adamw.h>

#include <chrono>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/model/numerical_health.h"
#include "engine/runtime/precision.h"
#include "engine/train/batch_sampler.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/stage_checkpoint.h"
#include "engine/train/gradient_health.h"
#include "engine/train/grad_scaler.h"
#include "engine/train/training_step.h"

namespace adala {

class DataParallel;
class StepProfiler;
struct StepProfile;

// A step's loss (or, without loss scaling, its gradients) was NaN or infinite: the stage stops
// before that step touches the parameters, saves a checkpoint of the last good step (when the
// parameters are finite) and throws this. The message names the stage, the step, the first
// block where the forward pass (or the gradients) went non-finite, and the checkpoint.
class NonFiniteLossError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TrainingLoopSpec {
  std::string stage;
  StageConfig config;
  int64_t dataset_size = 0;
  uint64_t seed = 0;
  std::string checkpoint_path;  // empty: no checkpoints
  // Data parallelism (null: one process). The loop starts every rank from rank 0's state,
  // averages the loss, the gradients and the per-block MSE over the ranks, and only rank 0
  // writes checkpoints; the step function trains on this rank's slice of each batch.
  DataParallel* parallel = nullptr;
  // Profile this many steps (from the second this session runs) with LibTorch's operator
  // profiler and log where their time goes (engine/train/step_profiler.h); 0: off. With
  // profile_path set, the table is also written there (Markdown).
  int64_t profile_steps = 0;
  std::string profile_path{};
};

// The loop's numerics: the step function's forward runs under autocast at the stage's
// precision (float32 linear attention inside), with every linear-attention module of
// `checkpointed` at the stage's eps; fp16 (or loss_scaling "dynamic") adds a GradScaler whose
// skipped steps are counted ("skipped_steps" in the logged steps' extra and as an evaluation at
// the end) and whose state is part of the checkpoint. Every step's forward reports to a
// HealthProbe; logged steps carry its values per block in StepMetrics::per_block
// ("health.min_normaliser", "health.low_normaliser_share", "health.attention_nonfinite",
// "health.activation_nonfinite", "health.max_abs_activation", "health.grad_nonfinite"), and the
// first sign of trouble per block and kind is a warning in the log.
class TrainingLoop {
 public:
  // `checkpointed` is the module whose tensors the checkpoint holds (it must contain every
  // trained parameter); `params` are the tensors the optimiser updates.
  TrainingLoop(TrainingLoopSpec spec, torch::nn::Module& checkpointed,
               std::vector<torch::Tensor> params, EventSink& sink, JobControl& control);
  // Parameter sets with their own learning-rate multiplier (e.g. a backbone at 0.1x its head).
  using ScaledParams = std::vector<std::pair<std::vector<torch::Tensor>, double>>;
  TrainingLoop(TrainingLoopSpec spec, torch::nn::Module& checkpointed, const ScaledParams& params,
               EventSink& sink, JobControl& control);

  int64_t total_steps() const { return total_steps_; }
  // Runs from the checkpoint's step (if one exists) to total_steps. The step function gets
  // the batch indices and the 0-based step. Throws JobCancelled after checkpointing, and
  // NonFiniteLossError (after a StageEvent Failed) when a step's loss is not finite.
  void run(const StepFunction& step_fn);
  int64_t start_step() const { return start_step_; }
  // Steps skipped by the loss scaler in this stage (resumed runs count from the checkpoint).
  int64_t skipped_steps() const { return skipped_steps_; }
  // The loss scaler, when the stage scales its loss.
  const GradScaler* grad_scaler() const { return scaler_.get(); }
  double linear_eps() const { return linear_eps_; }

 private:
  using TimePoint = std::chrono::steady_clock::time_point;
  class StepTimes;  // throughput between reports (training_loop.cpp)

  // run()'s parts, in the order they run.
  void announce_start();
  void start_from_rank0();
  std::unique_ptr<StepProfiler> make_profiler() const;
  void stop_if_asked(int64_t step, TimePoint& started);
  void set_learning_rate(double lr);
  void report_skipped_step(int64_t done, const StepResult& result);
  StepMetrics step_metrics(int64_t step, double lr, StepResult& result, StepTimes& times,
                           const HealthProbe& probe);
  void finish(TimePoint started);

  void save(int64_t step);
  CheckpointExtras checkpoint_extras() const;
  [[noreturn]] void stop_on_nonfinite(const std::string& what, int64_t step,
                                      const NonFiniteLocation& where, TimePoint started);
  void report_profile(const StepProfile& profile);
  void report_health(StepMetrics& m, const std::vector<BlockHealth>& health,
                     const std::map<int64_t, double>& grad_nonfinite);

  TrainingLoopSpec spec_;
  torch::nn::Module& checkpointed_;
  std::vector<torch::Tensor> params_;
  std::vector<double> group_lr_scale_;  // per optimiser group
  EventSink& sink_;
  JobControl& control_;
  BatchSampler sampler_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  int64_t total_steps_ = 0;
  int64_t start_step_ = 0;
  Precision precision_ = Precision::FP32;
  c10::Device device_{c10::kCPU};
  double linear_eps_ = 0.0;
  std::unique_ptr<GradScaler> scaler_;
  int64_t skipped_steps_ = 0;
  GradientHealth gradient_health_;
  std::set<std::string> warned_;  // "<kind>/<block>": one warning each per stage
};

}  // namespace adala
