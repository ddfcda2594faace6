#include "engine/train/training_loop.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include <ATen/record_function.h>

#include <fmt/format.h>

#include "engine/model/attention.h"
#include "engine/kernels/fused_adamw.h"
#include "engine/model/linear_eps_scope.h"
#include "engine/io/text_file.h"
#include "engine/train/data_parallel.h"
#include "engine/train/lr_schedule.h"
#include "engine/train/stage_checkpoint.h"
#include "engine/train/step_profiler.h"

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
      sampler_(spec_.dataset_size, spec_.config.batch_size, spec_.seed),
      gradient_health_(checkpointed, params_) {
  const auto& c = spec_.config;
  total_steps_ = c.max_steps > 0 ? c.max_steps : c.epochs * sampler_.steps_per_epoch();
  optimizer_ = std::make_unique<FusedAdamW>(param_groups(params, c, group_lr_scale_),
                                            torch::optim::AdamWOptions(c.lr));
  const std::string field = "stages." + spec_.stage + ".precision";
  try {
    precision_ = precision_from_string(c.precision);
    if (!params_.empty()) device_ = params_.front().device();
    check_precision_supported(precision_, device_);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(field, e.what());
  }
  if (c.loss_scaling == "dynamic" || (c.loss_scaling == "auto" && precision_ == Precision::FP16))
    scaler_ = std::make_unique<GradScaler>(
        GradScalerOptions{c.loss_scale_init, 2.0, 0.5, c.loss_scale_growth_interval}, device_);
  for (const auto& m : linear_attention_modules(checkpointed_)) {
    linear_eps_ = c.linear_eps > 0 ? c.linear_eps : default_linear_eps(precision_, m->eps());
    break;
  }
  if (!spec_.checkpoint_path.empty() && std::filesystem::exists(spec_.checkpoint_path)) {
    CheckpointExtras extras = checkpoint_extras();
    start_step_ = load_stage_checkpoint(spec_.checkpoint_path, checkpointed_, *optimizer_, &extras);
    if (scaler_) scaler_->load(extras.at("loss_scale"), extras.at("loss_scale_growth_tracker"));
    skipped_steps_ = extras.at("skipped_steps").item<int64_t>();
  }
}

CheckpointExtras TrainingLoop::checkpoint_extras() const {
  CheckpointExtras extras{{"skipped_steps", torch::tensor(skipped_steps_)}};
  if (scaler_) {
    extras["loss_scale"] = scaler_->scale_tensor();
    extras["loss_scale_growth_tracker"] = scaler_->growth_tracker_tensor();
  }
  return extras;
}

void TrainingLoop::save(int64_t step) {
  // Data parallelism: the ranks hold the same parameters; rank 0 alone writes.
  if (spec_.checkpoint_path.empty() || (spec_.parallel && spec_.parallel->rank() != 0)) return;
  save_stage_checkpoint(spec_.checkpoint_path, checkpointed_, *optimizer_, step,
                        checkpoint_extras());
  sink_.on_event(ArtifactEvent{spec_.stage, "checkpoint", spec_.checkpoint_path});
}

void TrainingLoop::stop_on_nonfinite(const std::string& what, int64_t step,
                                     const NonFiniteLocation& where, TimePoint started) {
  // Nothing of this step reached the parameters (no optimiser step): unless they were already
  // non-finite, they are the last good step's, and are checkpointed as such for a resume with
  // other settings. Otherwise the previous checkpoint is kept.
  bool finite = true;
  {
    torch::NoGradGuard no_grad;
    for (const auto& p : checkpointed_.parameters())
      if (!torch::isfinite(p).all().item<bool>()) {
        finite = false;
        break;
      }
  }
  std::string kept;
  if (spec_.checkpoint_path.empty()) {
    kept = "no checkpoint is written in this run";
  } else if (finite) {
    save(step);
    kept = "the last good step (" + std::to_string(step) + ") is checkpointed in " +
           spec_.checkpoint_path + "; --resume continues from it";
  } else if (std::filesystem::exists(spec_.checkpoint_path)) {
    kept = "the parameters are already non-finite: the earlier checkpoint " +
           spec_.checkpoint_path + " is kept";
  } else {
    kept = "the parameters are already non-finite and no checkpoint was written yet";
  }
  const std::string place =
      where.block >= -1 && !where.what.empty()
          ? "; first non-finite values in " + block_label(where.block) + " (" + where.what + ")"
          : std::string();
  const std::string message = "stage " + spec_.stage + ": " + what + " at step " +
                              std::to_string(step + 1) + " of " + std::to_string(total_steps_) +
                              place + "; training stopped (" + kept +
                              "; a lower learning rate, another precision or finite input "
                              "weights may help)";
  sink_.on_event(LogEvent{LogEvent::Level::Error, message});
  sink_.on_event(StageEvent{spec_.stage, StageEvent::Kind::Failed, total_steps_, step,
                            std::chrono::duration<double>(Clock::now() - started).count(),
                            message});
  throw NonFiniteLossError(message);
}

void TrainingLoop::report_profile(const StepProfile& profile) {
  const std::string table = format_step_profile(profile);
  std::string where;
  if (!spec_.profile_path.empty()) {
    try {
      write_text(spec_.profile_path, table);
      where = " (also in " + spec_.profile_path + ")";
    } catch (const std::exception& e) {
      where = std::string(" (not written: ") + e.what() + ")";
    }
  }
  sink_.on_event(
      LogEvent{LogEvent::Level::Info, "profile of stage " + spec_.stage + where + ":\n" + table});
}

void TrainingLoop::report_health(StepMetrics& m, const std::vector<BlockHealth>& health,
                                 const std::map<int64_t, double>& grad_nonfinite) {
  int64_t blocks = 0;
  for (const auto& h : health) blocks = std::max(blocks, h.block + 1);
  for (const auto& [block, count] : grad_nonfinite) blocks = std::max(blocks, block + 1);
  if (blocks == 0) return;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto column = [&](const char* key) -> std::vector<double>& {
    auto& v = m.per_block[key];
    v.assign(size_t(blocks), nan);
    return v;
  };
  auto& min_den = column("health.min_normaliser");
  auto& low = column("health.low_normaliser_share");
  auto& attn_bad = column("health.attention_nonfinite");
  auto& act_bad = column("health.activation_nonfinite");
  auto& max_abs = column("health.max_abs_activation");
  auto& grad_bad = column("health.grad_nonfinite");
  auto warn_once = [&](const std::string& kind, int64_t block, const std::string& text) {
    if (!warned_.insert(kind + "/" + std::to_string(block)).second) return;
    sink_.on_event(LogEvent{LogEvent::Level::Warning,
                            "stage " + spec_.stage + " step " + std::to_string(m.step) + ": " +
                                block_label(block) + ": " + text +
                                " (numerical health; later occurrences are in the run's metrics)"});
  };
  const double threshold = spec_.config.normaliser_threshold;
  for (const auto& h : health) {
    if (h.block < 0) continue;
    const auto b = size_t(h.block);
    if (h.min_normaliser >= -0.5 || h.low_normaliser_share >= 0) {
      min_den[b] = h.min_normaliser;
      low[b] = h.low_normaliser_share;
    }
    attn_bad[b] = h.attention_nonfinite;
    if (h.activation_nonfinite >= 0) act_bad[b] = h.activation_nonfinite;
    if (h.max_abs_activation >= 0) max_abs[b] = h.max_abs_activation;
    if (h.low_normaliser_share > 0)
      warn_once(
          "normaliser", h.block,
          fmt::format("{:.3g}% of the linear-attention normalisers are below {:g} "
                      "(smallest {:.3g}; eps {:g})",
                      100.0 * h.low_normaliser_share, threshold, h.min_normaliser, linear_eps_));
    if (h.attention_nonfinite > 0 || h.activation_nonfinite > 0)
      warn_once("nonfinite", h.block,
                fmt::format("{:g} non-finite values in the attention output, {:g} in the block "
                            "output",
                            h.attention_nonfinite, h.activation_nonfinite));
  }
  for (const auto& [block, count] : grad_nonfinite) {
    if (block >= 0) grad_bad[size_t(block)] = count;
    if (count > 0)
      warn_once("gradient", block, fmt::format("{:g} non-finite gradient values", count));
  }
}

// Throughput between two reports: a moving average of images per second over the steps, and
// the shares of the time since the previous report spent waiting for data and in the all-reduce.
class TrainingLoop::StepTimes {
 public:
  void add_step(int64_t images, double seconds, double data_wait_seconds) {
    const double rate = double(images) / std::max(seconds, 1e-9);
    images_per_second_ = images_per_second_ == 0.0 ? rate : 0.9 * images_per_second_ + 0.1 * rate;
    waited_ += data_wait_seconds;
    stepped_ += seconds;
  }
  void add_allreduce(double seconds) {
    reducing_ += seconds;
    ++reduced_steps_;
  }
  double images_per_second() const { return images_per_second_; }
  // The data-wait share and the mean all-reduce time since the previous report, into `m`; the
  // next report counts from here.
  void report_shares(StepMetrics& m) {
    if (reduced_steps_ > 0) m.extra["allreduce_ms"] = 1000.0 * reducing_ / double(reduced_steps_);
    m.data_wait_share = stepped_ > 0.0 ? std::min(1.0, waited_ / stepped_) : 0.0;
    reducing_ = waited_ = stepped_ = 0.0;
    reduced_steps_ = 0;
  }

 private:
  double images_per_second_ = 0.0;
  double waited_ = 0.0, stepped_ = 0.0, reducing_ = 0.0;
  int64_t reduced_steps_ = 0;
};

void TrainingLoop::run(const StepFunction& step_fn) {
  const auto& c = spec_.config;
  const CosineSchedule schedule(c.lr, c.warmup_steps, total_steps_, c.min_lr);
  // Moved later by each pause, so that the stage's seconds count training time only.
  auto started = Clock::now();
  announce_start();
  const LinearEpsScope eps_scope(checkpointed_, linear_eps_);
  if (spec_.parallel) start_from_rank0();
  TrainingStep trainer({params_, *optimizer_, scaler_.get(), gradient_health_, device_, precision_,
                        c.grad_clip, spec_.parallel});
  HealthProbe probe(c.normaliser_threshold);
  StepTimes times;
  std::unique_ptr<StepProfiler> profiler = make_profiler();
  for (int64_t step = start_step_; step < total_steps_; ++step) {
    stop_if_asked(step, started);
    const auto t0 = Clock::now();
    const int64_t done = step + 1;
    const bool report = done % c.log_every == 0 || done == total_steps_;
    const double lr = schedule.lr_at(step);
    set_learning_rate(lr);
    const auto indices = sampler_.indices(step);
    // The normaliser statistics cost a phi pass over Q and K: logged steps only. The
    // non-finite counts (which name the block when the loss goes bad) run every step.
    probe.clear();
    probe.set_normaliser_stats(report);
    if (profiler) profiler->before_step(step);
    StepResult result = trainer.run(step_fn, indices, step, probe);
    if (result.stopped()) stop_on_nonfinite(result.problem, step, result.where, started);
    if (result.outcome == StepOutcome::SkippedByScaler) report_skipped_step(done, result);
    if (spec_.parallel) times.add_allreduce(result.allreduce_seconds);
    times.add_step(indices.size(0), std::chrono::duration<double>(Clock::now() - t0).count(),
                   result.output.data_wait_seconds);
    if (report) {
      RECORD_USER_SCOPE("step: metrics and events");
      sink_.on_event(step_metrics(step, lr, result, times, probe));
    }
    if (profiler && profiler->after_step(step)) {
      report_profile(profiler->result());
      profiler.reset();
    }
    if (c.checkpoint_every > 0 && done % c.checkpoint_every == 0 && done < total_steps_) save(done);
  }
  finish(started);
}

void TrainingLoop::announce_start() {
  StageEvent start{spec_.stage, StageEvent::Kind::Started, total_steps_, start_step_, 0.0, ""};
  if (start_step_ > 0) start.message = "resumed at step " + std::to_string(start_step_);
  sink_.on_event(start);
  if (precision_ == Precision::FP32 && !scaler_) return;
  sink_.on_event(LogEvent{
      LogEvent::Level::Info,
      fmt::format("stage {}: {} autocast (linear attention in fp32, eps {:g}){}", spec_.stage,
                  to_string(precision_), linear_eps_,
                  scaler_ ? fmt::format(", dynamic loss scaling from {:g}", scaler_->scale_value())
                          : std::string())});
}

// Every rank starts from rank 0's parameters and buffers (and so from its checkpoint).
void TrainingLoop::start_from_rank0() {
  std::vector<torch::Tensor> state = checkpointed_.parameters();
  for (const auto& b : checkpointed_.buffers()) state.push_back(b);
  broadcast_from_rank0(*spec_.parallel, state);
}

std::unique_ptr<StepProfiler> TrainingLoop::make_profiler() const {
  if (spec_.profile_steps <= 0 || start_step_ >= total_steps_) return nullptr;
  // The session's first step warms caches and allocators up: from the second where there is one.
  const int64_t first = start_step_ + (total_steps_ - start_step_ > 1 ? 1 : 0);
  return std::make_unique<StepProfiler>(spec_.stage, first,
                                        std::min(spec_.profile_steps, total_steps_ - first));
}

// Waits while paused (the time held paused is not training time: `started` moves by it); when
// a cancel was asked for, checkpoints, reports and throws JobCancelled.
void TrainingLoop::stop_if_asked(int64_t step, TimePoint& started) {
  const auto before_pause = Clock::now();
  bool stop = control_.cancel_requested() || control_.wait_while_paused();
  started += Clock::now() - before_pause;
  // Every rank stops at the same step when any was asked to (Ctrl-C reaches them at slightly
  // different times).
  if (spec_.parallel) stop = average_value(*spec_.parallel, stop ? 1.0 : 0.0) > 0.0;
  if (!stop) return;
  save(step);
  sink_.on_event(StageEvent{spec_.stage, StageEvent::Kind::Cancelled, total_steps_, step,
                            std::chrono::duration<double>(Clock::now() - started).count(),
                            "cancelled at step " + std::to_string(step)});
  throw JobCancelled(spec_.stage);
}

void TrainingLoop::set_learning_rate(double lr) {
  auto& groups = optimizer_->param_groups();
  for (size_t g = 0; g < groups.size(); ++g)
    static_cast<torch::optim::AdamWOptions&>(groups[g].options()).lr(lr * group_lr_scale_[g]);
}

// Dynamic loss scaling: the step's gradients overflowed, so it was skipped and the scale backed
// off.
void TrainingLoop::report_skipped_step(int64_t done, const StepResult& result) {
  ++skipped_steps_;
  const std::string where =
      result.where.what.empty() ? "" : " first in " + block_label(result.where.block);
  sink_.on_event(
      LogEvent{LogEvent::Level::Info,
               fmt::format("stage {} step {}: skipped (non-finite gradients{}), loss scale {:g} "
                           "-> {:g}",
                           spec_.stage, done, where, result.loss_scale,
                           result.loss_scale * scaler_->options().backoff_factor)});
}

StepMetrics TrainingLoop::step_metrics(int64_t step, double lr, StepResult& result,
                                       StepTimes& times, const HealthProbe& probe) {
  StepMetrics m;
  m.stage = spec_.stage;
  m.step = step + 1;
  m.total_steps = total_steps_;
  m.epoch = step / sampler_.steps_per_epoch();
  m.loss = result.loss;
  auto& mse = result.output.per_block_mse;
  m.per_block_mse = spec_.parallel ? average_values(*spec_.parallel, mse) : std::move(mse);
  m.lr = lr;
  m.images_per_second = times.images_per_second();
  m.eta_seconds =
      double(total_steps_ - m.step) * double(sampler_.batch_size()) / times.images_per_second();
  m.extra = std::move(result.output.extra);
  // When the step was taken (seconds since the epoch): plots by wall time read it back.
  m.extra["wall_time"] =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (scaler_) {
    m.extra["loss_scale"] = scaler_->scale_value();
    m.extra["skipped_steps"] = double(skipped_steps_);
  }
  times.report_shares(m);
  report_health(m, probe.values(), result.grad_nonfinite);
  return m;
}

void TrainingLoop::finish(TimePoint started) {
  save(total_steps_);
  if (scaler_)
    sink_.on_event(EvalMetrics{spec_.stage, "skipped_steps", double(skipped_steps_), total_steps_});
  sink_.on_event(StageEvent{spec_.stage, StageEvent::Kind::Finished, total_steps_, total_steps_,
                            std::chrono::duration<double>(Clock::now() - started).count(), ""});
}

}  // namespace adala
