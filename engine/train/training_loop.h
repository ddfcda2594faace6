#pragma once
// The loop every stage shares: AdamW, warm-up + cosine schedule, gradient clipping,
// deterministic batches, periodic checkpoints, resume, cooperative cancellation and events.
#include <torch/nn/module.h>
#include <torch/optim/adamw.h>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/train/batch_sampler.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/experiment_config.h"

namespace adala {

struct StepOutput {
  torch::Tensor loss;                  // scalar with a graph to the trained parameters
  std::vector<double> per_block_mse;   // optional diagnostics
  std::map<std::string, double> extra;
  double data_wait_seconds = 0.0;      // how long the step waited for its batch
};

// A step's loss was NaN or infinite: the stage stops before that step touches the parameters.
// The message names the stage and the step and says which checkpoint is kept.
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
};

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
  void run(const std::function<StepOutput(const at::Tensor& indices, int64_t step)>& step_fn);
  int64_t start_step() const { return start_step_; }

 private:
  void save(int64_t step);
  [[noreturn]] void stop_on_nonfinite_loss(double loss, int64_t step,
                                           std::chrono::steady_clock::time_point started);

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
};

}  // namespace adala
