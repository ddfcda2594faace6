#include "app/cli/progress_sink.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace adala::cli {

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const long s = std::lround(seconds);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{:02}:{:02}", s / 60, s % 60);
}

std::string format_share(double share) {
  if (!std::isfinite(share)) return "--%";
  return fmt::format("{}%", std::lround(100.0 * std::clamp(share, 0.0, 1.0)));
}

ProgressBarSink::ProgressBarSink(std::FILE* out) : out_(out), tty_(isatty(fileno(out)) != 0) {}

void ProgressBarSink::draw(const StepMetrics& m) {
  const double frac = m.total_steps > 0 ? double(m.step) / double(m.total_steps) : 0.0;
  const int percent = static_cast<int>(frac * 100.0);
  const auto now = std::chrono::steady_clock::now();
  if (tty_) {
    if (m.step != m.total_steps && now - last_draw_ < std::chrono::milliseconds(100)) return;
  } else if (percent / 5 == last_percent_ / 5 && m.step != m.total_steps) {
    return;
  }
  last_draw_ = now;
  last_percent_ = percent;
  constexpr int width = 28;
  const int filled = static_cast<int>(frac * width);
  std::string bar(size_t(filled), '#');
  bar.append(size_t(width - filled), '-');
  std::fprintf(out_,
               "%s%-19s [%s] %3d%% %6lld/%-6lld loss %.5f lr %.2e %6.0f img/s data %4s ETA %s%s",
               tty_ ? "\r" : "", m.stage.c_str(), bar.c_str(), percent, (long long)m.step,
               (long long)m.total_steps, m.loss, m.lr, m.images_per_second,
               format_share(m.data_wait_share).c_str(), format_duration(m.eta_seconds).c_str(),
               tty_ ? "\033[K" : "\n");
  std::fflush(out_);
}

// A report's share covers the steps since the previous report (or the stage's start).
void ProgressBarSink::count_data_wait(const StepMetrics& m) {
  const int64_t covered = m.step - last_step_;
  last_step_ = m.step;
  if (covered <= 0 || !std::isfinite(m.data_wait_share)) return;
  waited_steps_ += m.data_wait_share * double(covered);
  counted_steps_ += covered;
}

void ProgressBarSink::on_event(const Event& event) {
  if (const auto* m = std::get_if<StepMetrics>(&event)) {
    count_data_wait(*m);
    draw(*m);
  } else if (const auto* s = std::get_if<StageEvent>(&event)) {
    if (s->kind == StageEvent::Kind::Started) {
      last_percent_ = -1;
      last_step_ = s->step;
      waited_steps_ = 0.0;
      counted_steps_ = 0;
      std::fprintf(out_, "== %s: %lld steps%s%s\n", s->stage.c_str(), (long long)s->total_steps,
                   s->message.empty() ? "" : ", ", s->message.c_str());
    } else {
      const char* what = s->kind == StageEvent::Kind::Finished    ? "done"
                         : s->kind == StageEvent::Kind::Cancelled ? "cancelled"
                                                                  : "failed";
      const std::string wait =
          counted_steps_ > 0 ? ", data wait " + format_share(waited_steps_ / double(counted_steps_))
                             : std::string();
      std::fprintf(out_, "%s== %s %s in %s%s %s\n", tty_ ? "\n" : "", s->stage.c_str(), what,
                   format_duration(s->seconds).c_str(), wait.c_str(), s->message.c_str());
    }
  } else if (const auto* e = std::get_if<EvalMetrics>(&event)) {
    std::fprintf(out_, "   %s %s = %.4f\n", e->stage.c_str(), e->key.c_str(), e->value);
  } else if (const auto* l = std::get_if<LogEvent>(&event)) {
    std::fprintf(out_, "   %s%s\n",
                 l->level == LogEvent::Level::Info      ? ""
                 : l->level == LogEvent::Level::Warning ? "warning: "
                                                        : "error: ",
                 l->message.c_str());
  }
  std::fflush(out_);
}

}  // namespace adala::cli
