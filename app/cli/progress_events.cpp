#include "app/cli/progress_events.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <variant>

namespace adala::cli {

namespace {
using Line = nlohmann::ordered_json;

Line event(const char* name) { return Line{{"event", name}}; }

// A number; NaN and infinities (a diverged loss) as null, which JSON has instead.
Line number(double v) { return std::isfinite(v) ? Line(v) : Line(nullptr); }

Line numbers(const std::vector<double>& values) {
  Line out = Line::array();
  for (double v : values) out.push_back(number(v));
  return out;
}

const char* stage_kind_name(StageEvent::Kind kind) {
  switch (kind) {
    case StageEvent::Kind::Started:
      return "started";
    case StageEvent::Kind::Finished:
      return "finished";
    case StageEvent::Kind::Cancelled:
      return "cancelled";
    case StageEvent::Kind::Failed:
      return "failed";
  }
  return "failed";
}

const char* log_level_name(LogEvent::Level level) {
  switch (level) {
    case LogEvent::Level::Info:
      return "info";
    case LogEvent::Level::Warning:
      return "warning";
    case LogEvent::Level::Error:
      return "error";
  }
  return "error";
}

Line event_of(const StepMetrics& m) {
  Line e = event("step");
  e["stage"] = m.stage;
  e["step"] = m.step;
  e["total_steps"] = m.total_steps;
  e["epoch"] = m.epoch;
  e["loss"] = number(m.loss);
  e["lr"] = number(m.lr);
  e["per_block_mse"] = numbers(m.per_block_mse);
  e["images_per_second"] = number(m.images_per_second);
  e["eta_seconds"] = number(m.eta_seconds);
  e["data_wait_share"] = number(m.data_wait_share);
  Line extra = Line::object();
  for (const auto& [key, value] : m.extra) extra[key] = number(value);
  e["extra"] = extra;
  Line per_block = Line::object();
  for (const auto& [key, values] : m.per_block) per_block[key] = numbers(values);
  e["per_block"] = per_block;
  return e;
}

// One line; invalid UTF-8 (a path or an OS message in another encoding) becomes replacement
// characters instead of an exception in the middle of reporting.
std::string line_of(const Line& e) {
  return e.dump(-1, ' ', false, Line::error_handler_t::replace) + "\n";
}
}  // namespace

void ProgressEvents::write(const std::string& line) {
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
}

void ProgressEvents::start(const std::string& benchmark, size_t total, const std::string& preset,
                           const std::vector<int64_t>& resolutions,
                           const std::vector<std::string>& modes) {
  Line e = event("start");
  e["benchmark"] = benchmark;
  e["total"] = total;
  e["preset"] = preset;
  e["resolutions"] = resolutions;
  e["modes"] = modes;
  write(line_of(e));
}

void ProgressEvents::recorded(int64_t run_id) {
  Line e = event("recorded");
  e["run_id"] = run_id;
  write(line_of(e));
}

void ProgressEvents::progress(size_t done, size_t total, const std::string& label) {
  Line e = event("progress");
  e["done"] = done;
  e["total"] = total;
  e["label"] = label;
  write(line_of(e));
}

void ProgressEvents::point(const std::vector<std::pair<std::string, std::string>>& csv_fields) {
  Line e = event("point");
  Line row = Line::object();
  for (const auto& [name, text] : csv_fields) row[name] = text;
  e["row"] = row;
  write(line_of(e));
}

void ProgressEvents::csv(const std::string& path) {
  Line e = event("csv");
  e["path"] = path;
  write(line_of(e));
}

void ProgressEvents::done(size_t points, int64_t run_id) {
  Line e = event("done");
  e["points"] = points;
  e["run_id"] = run_id >= 0 ? Line(run_id) : Line(nullptr);
  write(line_of(e));
}

void ProgressEvents::error(const std::string& message) {
  Line e = event("error");
  e["message"] = message;
  write(line_of(e));
}

void ProgressEvents::run(const std::string& name, const std::string& run_dir, int processes) {
  Line e = event("run");
  e["name"] = name;
  e["run_dir"] = run_dir;
  e["processes"] = processes;
  write(line_of(e));
}

void ProgressEvents::engine_event(const adala::Event& engine) {
  Line e;
  if (const auto* m = std::get_if<StepMetrics>(&engine)) {
    e = event_of(*m);
  } else if (const auto* s = std::get_if<StageEvent>(&engine)) {
    e = event("stage");
    e["stage"] = s->stage;
    e["kind"] = stage_kind_name(s->kind);
    e["total_steps"] = s->total_steps;
    e["step"] = s->step;
    e["seconds"] = number(s->seconds);
    e["message"] = s->message;
  } else if (const auto* v = std::get_if<EvalMetrics>(&engine)) {
    e = event("eval");
    e["stage"] = v->stage;
    e["key"] = v->key;
    e["value"] = number(v->value);
    e["step"] = v->step;
  } else if (const auto* a = std::get_if<ArtifactEvent>(&engine)) {
    e = event("artifact");
    e["stage"] = a->stage;
    e["kind"] = a->kind;
    e["path"] = a->path;
  } else if (const auto* l = std::get_if<LogEvent>(&engine)) {
    e = event("log");
    e["level"] = log_level_name(l->level);
    e["message"] = l->message;
  } else {
    return;
  }
  write(line_of(e));
}

void ProgressEvents::finished(const std::string& status, int64_t run_id) {
  Line e = event("finished");
  e["status"] = status;
  e["run_id"] = run_id >= 0 ? Line(run_id) : Line(nullptr);
  write(line_of(e));
}

void JsonlProgressSink::on_event(const adala::Event& event) {
  if (!looked_up_) {
    looked_up_ = true;
    run_id_ = lookup_ ? lookup_(db_path_, run_dir_) : -1;
    if (run_id_ >= 0) events_.recorded(run_id_);
  }
  events_.engine_event(event);
}

}  // namespace adala::cli
