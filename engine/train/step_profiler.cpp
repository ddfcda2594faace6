#include "engine/train/step_profiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include <ATen/record_function.h>
#include <torch/csrc/autograd/profiler_legacy.h>

namespace adala {
namespace {

namespace legacy = torch::autograd::profiler;
using torch::profiler::impl::ProfilerConfig;
using torch::profiler::impl::ProfilerState;

struct Totals {
  int64_t calls = 0;
  double inclusive_us = 0, self_us = 0;
  size_t first_seen = 0;
};

bool is_phase(const std::string& name) {
  return name.rfind("step: ", 0) == 0 || name.rfind("stage ", 0) == 0;
}

// Inclusive and self time per name from one thread's push / pop events (nested, last in
// first out on one thread; a pop matches the push with the same handle).
void add_thread(const std::vector<legacy::LegacyEvent>& events, std::map<std::string, Totals>& by,
                size_t& order) {
  struct Open {
    const legacy::LegacyEvent* push;
    double children_us = 0;
  };
  std::vector<Open> stack;
  for (const auto& e : events) {
    if (e.kind() == legacy::EventKind::PushRange) {
      auto& t = by[e.name()];
      if (t.calls == 0 && t.first_seen == 0) t.first_seen = ++order;  // in the order they start
      stack.push_back({&e});
    } else if (e.kind() == legacy::EventKind::PopRange) {
      auto it = std::find_if(stack.rbegin(), stack.rend(),
                             [&](const Open& o) { return o.push->handle() == e.handle(); });
      if (it == stack.rend()) continue;  // opened before profiling began
      const auto open = *it;
      stack.erase(std::next(it).base(), stack.end());
      const double inclusive = open.push->cpuElapsedUs(e);
      auto& t = by[open.push->name()];
      ++t.calls;
      t.inclusive_us += inclusive;
      // A phase scope is a label, not work: its time stays with the operators inside it.
      const bool phase = is_phase(open.push->name());
      t.self_us += phase ? 0.0 : inclusive - open.children_us;
      if (!stack.empty()) stack.back().children_us += phase ? open.children_us : inclusive;
    }
  }
}

}  // namespace

struct StepProfiler::Session {
  std::chrono::steady_clock::time_point started;
  uint64_t thread = 0;
};

StepProfiler::StepProfiler(std::string stage, int64_t first, int64_t count)
    : stage_(std::move(stage)), first_(first), count_(count) {
  if (first < 0 || count < 1)
    throw std::invalid_argument("StepProfiler: the window needs first >= 0 and count >= 1");
}

StepProfiler::~StepProfiler() {
  if (session_) legacy::disableProfilerLegacy();
}

void StepProfiler::before_step(int64_t step) {
  if (step != first_ || session_) return;
  session_ = std::make_unique<Session>();
  session_->thread = at::RecordFunction::currentThreadId();
  legacy::enableProfilerLegacy(ProfilerConfig(ProfilerState::CPU));
  session_->started = std::chrono::steady_clock::now();
}

bool StepProfiler::after_step(int64_t step) {
  if (!session_ || step != first_ + count_ - 1) return false;
  const double wall_ms = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - session_->started)
                             .count();
  const auto lists = legacy::disableProfilerLegacy();
  const uint64_t thread = session_->thread;
  session_.reset();

  std::map<std::string, Totals> mine, others;
  size_t order = 0, other_order = 0;
  for (const auto& list : lists) {
    if (list.empty()) continue;
    const bool on_step_thread = std::any_of(list.begin(), list.end(), [&](const auto& e) {
      return e.kind() == legacy::EventKind::PushRange && e.threadId() == thread;
    });
    add_thread(list, on_step_thread ? mine : others, on_step_thread ? order : other_order);
  }
  const double per_step = 1.0 / double(count_);
  result_ = StepProfile{};
  result_.stage = stage_;
  result_.first_step = first_ + 1;
  result_.steps = count_;
  result_.wall_ms_per_step = wall_ms * per_step;
  std::vector<std::pair<size_t, ProfiledScope>> phases;
  for (const auto& [name, t] : mine) {
    if (t.calls == 0) continue;  // started before the window's first step
    ProfiledScope s{name, double(t.calls) * per_step, 0.0};
    if (is_phase(name)) {
      s.ms_per_step = t.inclusive_us * 1e-3 * per_step;
      phases.emplace_back(t.first_seen, s);
    } else {
      s.ms_per_step = t.self_us * 1e-3 * per_step;
      result_.operators.push_back(s);
    }
  }
  std::sort(phases.begin(), phases.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& p : phases) result_.phases.push_back(std::move(p.second));
  std::sort(result_.operators.begin(), result_.operators.end(),
            [](const auto& a, const auto& b) { return a.ms_per_step > b.ms_per_step; });
  for (const auto& [name, t] : others)
    result_.other_threads_ms_per_step += t.self_us * 1e-3 * per_step;
  return true;
}

std::string format_step_profile(const StepProfile& p, size_t top_operators) {
  const double wall = p.wall_ms_per_step;
  auto share = [&](double ms) {
    return wall > 0 ? fmt::format("{:.1f} %", 100.0 * ms / wall) : "";
  };
  std::string out = fmt::format(
      "### Where a {} step's time goes\n\nsteps {}-{} ({} profiled), {:.1f} ms per step (wall, "
      "profiler on)\n\n| phase | ms / step | share |\n|---|---:|---:|\n",
      p.stage, p.first_step, p.first_step + p.steps - 1, p.steps, wall);
  for (const auto& s : p.phases) {
    // "stage 2: teacher forward" sits inside "step: forward + loss", listed just before it.
    const bool nested = s.name.rfind("stage ", 0) == 0;
    out += fmt::format("| {}{} | {:.2f} | {} |\n", nested ? "└ " : "", s.name, s.ms_per_step,
                       share(s.ms_per_step));
  }
  out += "\n| operator (self time) | calls / step | ms / step | share |\n|---|---:|---:|---:|\n";
  double listed = 0;
  for (size_t i = 0; i < p.operators.size() && i < top_operators; ++i) {
    const auto& s = p.operators[i];
    listed += s.ms_per_step;
    out += fmt::format("| {} | {:g} | {:.2f} | {} |\n", s.name, s.calls_per_step, s.ms_per_step,
                       share(s.ms_per_step));
  }
  double rest = 0;
  for (size_t i = top_operators; i < p.operators.size(); ++i) rest += p.operators[i].ms_per_step;
  if (p.operators.size() > top_operators)
    out += fmt::format("| {} other operators | | {:.2f} | {} |\n",
                       p.operators.size() - top_operators, rest, share(rest));
  out += fmt::format(
      "\nOperators' self time on the step's thread: {:.1f} ms per step of {:.1f}; the rest is "
      "outside any operator (Python-free C++ between them, the data loader's wait). Helper "
      "threads' operators: {:.1f} ms per step, inside the operators that started them.\n",
      listed + rest, wall, p.other_threads_ms_per_step);
  return out;
}

}  // namespace adala
