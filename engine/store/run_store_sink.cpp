#include "engine/store/run_store_sink.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <thread>

namespace adala::store {

RunStoreSink::RunStoreSink(RunStore& store, int64_t run, BusyPolicy policy, Notice notice)
    : store_(store), run_(run), policy_(policy), notice_(std::move(notice)) {
  if (!notice_) notice_ = [](const std::string& line) { std::cerr << "adala: " << line << "\n"; };
}

// Every branch is safe to repeat after a Busy failure part-way: metrics and evaluations are
// upserts, stage and artifact rows are updated in place.
void RunStoreSink::write(const Event& event) {
  if (const auto* m = std::get_if<StepMetrics>(&event)) {
    store_.add_metric(run_, m->stage, m->step, "loss", -1, m->loss);
    store_.add_metric(run_, m->stage, m->step, "lr", -1, m->lr);
    store_.add_metric(run_, m->stage, m->step, "images_per_second", -1, m->images_per_second);
    for (const auto& [key, value] : m->extra)
      store_.add_metric(run_, m->stage, m->step, key, -1, value);
    // NaN: a block the stage does not measure (a softmax block of the plan in Stage 1).
    for (size_t b = 0; b < m->per_block_mse.size(); ++b)
      if (!std::isnan(m->per_block_mse[b]))
        store_.add_metric(run_, m->stage, m->step, "block_mse", static_cast<int>(b),
                          m->per_block_mse[b]);
    for (const auto& [key, values] : m->per_block)
      for (size_t b = 0; b < values.size(); ++b)
        if (!std::isnan(values[b]))
          store_.add_metric(run_, m->stage, m->step, key, static_cast<int>(b), values[b]);
    store_.flush();
  } else if (const auto* e = std::get_if<EvalMetrics>(&event)) {
    store_.add_evaluation(run_, e->stage, e->key, e->value);
  } else if (const auto* s = std::get_if<StageEvent>(&event)) {
    switch (s->kind) {
      case StageEvent::Kind::Started:
        store_.begin_stage(run_, s->stage, adala::stage_index(s->stage), s->total_steps);
        store_.delete_metrics_after(run_, s->stage, s->step);
        break;
      case StageEvent::Kind::Finished:
        store_.end_stage(run_, s->stage, RunStatus::Done, s->seconds);
        break;
      case StageEvent::Kind::Cancelled:
        store_.end_stage(run_, s->stage, RunStatus::Interrupted, s->seconds);
        break;
      case StageEvent::Kind::Failed:
        store_.end_stage(run_, s->stage, RunStatus::Failed, s->seconds);
        break;
    }
  } else if (const auto* a = std::get_if<ArtifactEvent>(&event)) {
    store_.add_artifact(run_, a->kind, a->path);
  }
}

void RunStoreSink::on_event(const Event& event) {
  if (std::holds_alternative<LogEvent>(event)) return;
  if (!held_.empty()) {
    held_.push_back(event);
    if (Clock::now() >= next_try_) try_held();
    return;
  }
  try {
    write(event);
  } catch (const StoreError& error) {
    if (error.kind() != StoreErrorKind::Busy) throw;
    held_.push_back(event);
    became_busy(error);
  }
}

void RunStoreSink::became_busy(const StoreError& error) {
  busy_since_ = Clock::now();
  wait_ = policy_.first_wait;
  next_try_ = busy_since_ + wait_;
  store_.set_busy_timeout(policy_.retry_lock_wait);
  notice_(
      fmt::format("{}; the run goes on, its records are held in memory and written when "
                  "the lock is released",
                  error.what()));
}

void RunStoreSink::try_held() {
  try {
    while (!held_.empty()) {
      write(held_.front());
      held_.pop_front();
    }
  } catch (const StoreError& error) {
    if (error.kind() != StoreErrorKind::Busy) throw;
    wait_ = std::min(wait_ * 2, policy_.max_wait);
    next_try_ = Clock::now() + wait_;
    return;
  }
  store_.set_busy_timeout(RunStore::kDefaultBusyTimeout);
  const auto seconds =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - busy_since_).count() /
      1000.0;
  notice_(fmt::format("run database {} is writable again after {:.1f} s; held records written",
                      store_.path(), seconds));
}

bool RunStoreSink::drain(std::chrono::milliseconds patience) {
  const Clock::time_point give_up = Clock::now() + patience;
  for (;;) {
    if (held_.empty()) return true;
    if (Clock::now() >= next_try_) {
      try_held();
      if (held_.empty()) return true;
      if (Clock::now() >= give_up) return false;
    }
    next_try_ = std::min(next_try_, give_up);  // one last try when patience runs out
    std::this_thread::sleep_until(next_try_);
  }
}

}  // namespace adala::store
