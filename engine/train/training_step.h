#pragma once
// One optimisation step of the training loop (engine/train/training_loop.h), the part that
// touches the gradients: the stage's step function under autocast at the stage's precision with
// a HealthProbe installed, the loss on the host (the mean over the ranks), backward from the
// float32 loss (scaled when there is a GradScaler), the gradients' mean over the ranks,
// unscaling and the per-block gradient check, then clipping and the optimiser step. A step whose
// loss or gradients are not finite changes no parameter and says so in its result. What happens
// between steps (the learning-rate schedule, pause and cancel, checkpoints, events) is the loop's.
#include <torch/optim/optimizer.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/model/numerical_health.h"
#include "engine/runtime/precision.h"
#include "engine/train/gradient_health.h"
#include "engine/train/grad_scaler.h"

namespace adala {

class DataParallel;

// What a stage's step function returns for its batch.
struct StepOutput {
  torch::Tensor loss;                 // scalar with a graph to the trained parameters
  std::vector<double> per_block_mse;  // optional diagnostics
  std::map<std::string, double> extra;
  double data_wait_seconds = 0.0;  // how long the step waited for its batch
};

// A stage's step function: the loss for the batch of `indices` at the 0-based `step`.
using StepFunction = std::function<StepOutput(const at::Tensor& indices, int64_t step)>;

enum class StepOutcome {
  Taken,               // the optimiser updated the parameters
  SkippedByScaler,     // the scaled gradients overflowed: no update, the loss scale backed off
  NonFiniteLoss,       // stopped before backward: no update
  NonFiniteGradients,  // no loss scaling and a non-finite gradient: no update
};

struct StepResult {
  StepOutcome outcome = StepOutcome::Taken;
  StepOutput output;  // the step function's
  double loss = 0.0;  // the global batch's loss: the mean of the ranks' (equal) slices' means
  // Non-finite gradient values per block (after unscaling); empty when stopped before backward.
  std::map<int64_t, double> grad_nonfinite;
  double allreduce_seconds = 0.0;  // in the gradients' mean over the ranks (0: one process)
  // NonFiniteLoss / NonFiniteGradients: what was not finite ("the loss is nan").
  std::string problem;
  // Where the first non-finite values were (block, what was found there); for SkippedByScaler
  // the first block with non-finite gradients. `what` is empty when no block was named.
  NonFiniteLocation where;
  double loss_scale = 0.0;  // SkippedByScaler: the scale this step's loss was multiplied by

  bool stopped() const {
    return outcome == StepOutcome::NonFiniteLoss || outcome == StepOutcome::NonFiniteGradients;
  }
};

// What a step works on; the caller owns it all (the optimiser and the scaler are checkpoint
// state) and keeps it alive while the TrainingStep is used.
struct TrainingStepParts {
  std::vector<torch::Tensor> params;  // the tensors the optimiser updates
  torch::optim::Optimizer& optimizer;
  GradScaler* scaler = nullptr;  // null: the loss is not scaled
  const GradientHealth& gradient_health;
  c10::Device device = c10::kCPU;  // where autocast runs
  Precision precision = Precision::FP32;
  double grad_clip = 0.0;            // max gradient norm; 0: no clipping
  DataParallel* parallel = nullptr;  // null: one process
};

class TrainingStep {
 public:
  explicit TrainingStep(TrainingStepParts parts) : parts_(std::move(parts)) {}

  // Zeroes the gradients and runs one step on the batch of `indices` at the 0-based `step`;
  // `probe` sees the forward pass. With data parallelism every rank must call it at the same
  // step (the loss and the gradients are averaged over the ranks, so all reach the same outcome).
  StepResult run(const StepFunction& step_fn, const at::Tensor& indices, int64_t step,
                 HealthProbe& probe);

 private:
  StepOutput forward(const StepFunction& step_fn, const at::Tensor& indices, int64_t step,
                     HealthProbe& probe) const;
  double global_loss(const at::Tensor& loss) const;
  void backward(const at::Tensor& loss) const;
  double average_gradients_over_ranks() const;
  std::map<int64_t, double> count_nonfinite_gradients() const;
  void clip_and_update();

  TrainingStepParts parts_;
};

}  // namespace adala
