#include "engine/train/training_loop.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <torch/autograd.h>
#include <torch/nn/utils/clip_grad.h>

#include "engine/core/fused_adamw.h"
#include "engine/train/lr_schedule.h"
#include "engine/train/stage_checkpoint.h"

namespace adala {

namespace {
using Clock = std::chrono::steady_clock;

// Weight decay on matrices only, as timm: biases, norms, tokens and gammas are exempt. One
// decay and one no-decay group per learning-rate multiplier; `scales` receives each group's.
std::vector<torch::optim::OptimizerParamGroup> param_groups(const TrainingLoop::ScaledParams& sets,
                                                            const StageConfig& c,
                                                            std::vector<double>& scales) {
  std::vector<torch::optim::OptimizerParamGroup> groups;
  auto opts = [&](double wd) {
    return std::make_unique<torch::optim::AdamWOptions>(
        torch::optim::AdamWOptions(c.lr).weight_decay(wd).betas({0.9, 0.999}));
  };
  for (const auto& [params, scale] : sets) {
    std::vector<torch::Tensor> decay, no_decay;
    for (const auto& p : params) (p.dim() >= 2 ? decay : no_decay).push_back(p);
    if (!decay.empty()) groups.emplace_back(decay, opts(c.weight_decay)), scales.push_back(scale);
    if (!no_decay.empty()) groups.emplace_back(no_decay, opts(0.0)), scales.push_back(scale);
  }
  return groups;
}

std::vector<torch::Tensor> flatten(const TrainingLoop::ScaledParams& sets) {
  std::vector<torch::Tensor> all;
  for (const auto& set : sets) all.insert(all.end(), set.first.begin(), set.first.end());
  return all;
}
}  // namespace

TrainingLoop::TrainingLoop(TrainingLoopSpec spec, torch::nn::Module& checkpointed,
                           std::vector<torch::Tensor> params, EventSink& sink, JobControl& control)
    : TrainingLoop(std::move(spec), checkpointed, ScaledParams{{std::move(params), 1.0}}, sink,
                   control) {}

TrainingLoop::TrainingLoop(TrainingLoopSpec spec, torch::nn::Module& checkpointed,
                           const ScaledParams& params, EventSink& sink, JobControl& control)
    : spec_(std::move(spec)),
      checkpointed_(checkpointed),
      params_(flatten(params)),
      sink_(sink),
      control_(control),
      sampler_(spec_.dataset_size, spec_.config.batch_size, spec_.seed) {
  const auto& c = spec_.config;
  total_steps_ = c.max_steps > 0 ? c.max_steps : c.epochs * sampler_.steps_per_epoch();
  optimizer_ = std::make_unique<FusedAdamW>(param_groups(params, c, group_lr_scale_),
                                            torch::optim::AdamWOptions(c.lr));
  if (!spec_.checkpoint_path.empty() && std::filesystem::exists(spec_.checkpoint_path))
    start_step_ = load_stage_checkpoint(spec_.checkpoint_path, checkpointed_, *optimizer_);
}

void TrainingLoop::save(int64_t step) {
  if (spec_.checkpoint_path.empty()) return;
  save_stage_checkpoint(spec_.checkpoint_path, checkpointed_, *optimizer_, step);
  sink_.on_event(ArtifactEvent{spec_.stage, "checkpoint", spec_.checkpoint_path});
}

void TrainingLoop::stop_on_nonfinite_loss(double loss, int64_t step,
                                          std::chrono::steady_clock::time_point started) {
  // Nothing of this step reached the parameters (no backward, no optimiser step), and the
  // checkpoint file is not rewritten: the last good one stays for a resume with other settings.
  const bool has_checkpoint =
      !spec_.checkpoint_path.empty() && std::filesystem::exists(spec_.checkpoint_path);
  const std::string message =
      "stage " + spec_.stage + ": the loss is " + std::to_string(loss) + " at step " +
      std::to_string(step + 1) + " of " + std::to_string(total_steps_) + "; training stopped (" +
      (has_checkpoint ? "the last good checkpoint " + spec_.checkpoint_path + " is kept"
                      : std::string("no checkpoint was written yet")) +
      "; a lower learning rate or finite input weights may help)";
  sink_.on_event(StageEvent{spec_.stage, StageEvent::Kind::Failed, total_steps_, step,
                            std::chrono::duration<double>(Clock::now() - started).count(),
                            message});
  throw NonFiniteLossError(message);
}

void TrainingLoop::run(const std::function<StepOutput(const at::Tensor&, int64_t)>& step_fn) {
  const auto& c = spec_.config;
  CosineSchedule schedule(c.lr, c.warmup_steps, total_steps_, c.min_lr);
  const auto started = Clock::now();
  StageEvent start{spec_.stage, StageEvent::Kind::Started, total_steps_, start_step_, 0.0, ""};
  if (start_step_ > 0) start.message = "resumed at step " + std::to_string(start_step_);
  sink_.on_event(start);
  double images_per_second = 0.0;
  double waited = 0.0, stepped = 0.0;  // since the previous report
  for (int64_t step = start_step_; step < total_steps_; ++step) {
    if (control_.cancel_requested() || control_.wait_while_paused()) {
      save(step);
      sink_.on_event(StageEvent{spec_.stage, StageEvent::Kind::Cancelled, total_steps_, step,
                                std::chrono::duration<double>(Clock::now() - started).count(),
                                "cancelled at step " + std::to_string(step)});
      throw JobCancelled(spec_.stage);
    }
    const auto t0 = Clock::now();
    const double lr = schedule.lr_at(step);
    auto& groups = optimizer_->param_groups();
    for (size_t g = 0; g < groups.size(); ++g)
      static_cast<torch::optim::AdamWOptions&>(groups[g].options()).lr(lr * group_lr_scale_[g]);
    auto indices = sampler_.indices(step);
    optimizer_->zero_grad();
    StepOutput out = step_fn(indices, step);
    const double loss = out.loss.item<double>();
    if (!std::isfinite(loss)) stop_on_nonfinite_loss(loss, step, started);
    out.loss.backward();
    if (c.grad_clip > 0) torch::nn::utils::clip_grad_norm_(params_, c.grad_clip);
    optimizer_->step();
    const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
    const double rate = double(indices.size(0)) / std::max(dt, 1e-9);
    images_per_second = images_per_second == 0.0 ? rate : 0.9 * images_per_second + 0.1 * rate;
    waited += out.data_wait_seconds;
    stepped += dt;
    const int64_t done = step + 1;
    if (done % c.log_every == 0 || done == total_steps_) {
      StepMetrics m;
      m.stage = spec_.stage;
      m.step = done;
      m.total_steps = total_steps_;
      m.epoch = step / sampler_.steps_per_epoch();
      m.loss = loss;
      m.per_block_mse = std::move(out.per_block_mse);
      m.lr = lr;
      m.images_per_second = images_per_second;
      m.eta_seconds =
          double(total_steps_ - done) * double(sampler_.batch_size()) / images_per_second;
      m.extra = std::move(out.extra);
      m.data_wait_share = stepped > 0.0 ? std::min(1.0, waited / stepped) : 0.0;
      waited = stepped = 0.0;
      sink_.on_event(m);
    }
    if (c.checkpoint_every > 0 && done % c.checkpoint_every == 0 && done < total_steps_) save(done);
  }
  save(total_steps_);
  sink_.on_event(StageEvent{spec_.stage, StageEvent::Kind::Finished, total_steps_, total_steps_,
                            std::chrono::duration<double>(Clock::now() - started).count(), ""});
}

}  // namespace adala
