#include "engine/train/training_step.h"

#include <chrono>
#include <cmath>

#include <torch/autograd.h>
#include <torch/nn/utils/clip_grad.h>
#include <ATen/record_function.h>

#include <fmt/format.h>

#include "engine/train/data_parallel.h"

namespace adala {

namespace {

// The first block (in block order) with non-finite gradient values; end() when there is none.
std::map<int64_t, double>::const_iterator first_block_with_nonfinite(
    const std::map<int64_t, double>& counts) {
  auto it = counts.begin();
  while (it != counts.end() && !(it->second > 0)) ++it;
  return it;
}

NonFiniteLocation gradient_location(int64_t block) {
  return {block, "gradients of its trained parameters"};
}

}  // namespace

StepResult TrainingStep::run(const StepFunction& step_fn, const at::Tensor& indices, int64_t step,
                             HealthProbe& probe) {
  StepResult r;
  parts_.optimizer.zero_grad();
  r.output = forward(step_fn, indices, step, probe);
  r.loss = global_loss(r.output.loss);
  if (!std::isfinite(r.loss)) {
    r.outcome = StepOutcome::NonFiniteLoss;
    r.problem = "the loss is " + std::to_string(r.loss);
    r.where = first_nonfinite_block(probe.values());
    return r;
  }
  backward(r.output.loss);
  r.allreduce_seconds = average_gradients_over_ranks();
  const bool overflow = parts_.scaler && parts_.scaler->unscale(parts_.params);
  r.grad_nonfinite = count_nonfinite_gradients();
  const auto bad = first_block_with_nonfinite(r.grad_nonfinite);
  if (bad != r.grad_nonfinite.end()) r.where = gradient_location(bad->first);
  if (!parts_.scaler && bad != r.grad_nonfinite.end()) {
    r.outcome = StepOutcome::NonFiniteGradients;
    r.problem = fmt::format("{:g} gradient values are not finite", bad->second);
    return r;
  }
  if (overflow) {
    r.outcome = StepOutcome::SkippedByScaler;
    r.loss_scale = parts_.scaler->scale_value();
  } else {
    clip_and_update();
  }
  if (parts_.scaler) parts_.scaler->update();
  return r;
}

StepOutput TrainingStep::forward(const StepFunction& step_fn, const at::Tensor& indices,
                                 int64_t step, HealthProbe& probe) const {
  RECORD_USER_SCOPE("step: forward + loss");
  const HealthProbe::Scope probing(&probe);
  const AutocastScope autocast(parts_.device, parts_.precision);
  return step_fn(indices, step);
}

// The global batch's loss: the mean of the ranks' (equal) slices' means, so that a non-finite
// loss on any rank stops every rank at the same step.
double TrainingStep::global_loss(const at::Tensor& loss) const {
  const double local = [&] {
    RECORD_USER_SCOPE("step: loss to host");
    return loss.item<double>();
  }();
  return parts_.parallel ? average_value(*parts_.parallel, local) : local;
}

// Outside autocast (its ops follow the forward's types), in float32 from the loss.
void TrainingStep::backward(const at::Tensor& loss) const {
  RECORD_USER_SCOPE("step: backward");
  auto loss32 = loss.to(torch::kFloat);
  (parts_.scaler ? parts_.scaler->scale(loss32) : loss32).backward();
}

// The global batch's gradient: the mean of the ranks', before unscaling so that an overflow on
// any rank is seen by all. The seconds include waiting for the slowest rank's backward pass.
double TrainingStep::average_gradients_over_ranks() const {
  if (!parts_.parallel) return 0.0;
  const auto start = std::chrono::steady_clock::now();
  average_gradients(*parts_.parallel, parts_.params);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::map<int64_t, double> TrainingStep::count_nonfinite_gradients() const {
  RECORD_USER_SCOPE("step: gradient checks");
  return parts_.gradient_health.nonfinite_counts();
}

void TrainingStep::clip_and_update() {
  RECORD_USER_SCOPE("step: clip + optimiser");
  if (parts_.grad_clip > 0) torch::nn::utils::clip_grad_norm_(parts_.params, parts_.grad_clip);
  parts_.optimizer.step();
}

}  // namespace adala
