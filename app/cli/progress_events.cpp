#include "app/cli/progress_events.h"

#include <nlohmann/json.hpp>

namespace adala::cli {

namespace {
using Event = nlohmann::ordered_json;

Event event(const char* name) { return Event{{"event", name}}; }

// One line; invalid UTF-8 (a path or an OS message in another encoding) becomes replacement
// characters instead of an exception in the middle of reporting.
std::string line_of(const Event& e) {
  return e.dump(-1, ' ', false, Event::error_handler_t::replace) + "\n";
}
}  // namespace

void ProgressEvents::write(const std::string& line) {
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
}

void ProgressEvents::start(const std::string& benchmark, size_t total, const std::string& preset,
                           const std::vector<int64_t>& resolutions,
                           const std::vector<std::string>& modes) {
  Event e = event("start");
  e["benchmark"] = benchmark;
  e["total"] = total;
  e["preset"] = preset;
  e["resolutions"] = resolutions;
  e["modes"] = modes;
  write(line_of(e));
}

void ProgressEvents::recorded(int64_t run_id) {
  Event e = event("recorded");
  e["run_id"] = run_id;
  write(line_of(e));
}

void ProgressEvents::progress(size_t done, size_t total, const std::string& label) {
  Event e = event("progress");
  e["done"] = done;
  e["total"] = total;
  e["label"] = label;
  write(line_of(e));
}

void ProgressEvents::csv(const std::string& path) {
  Event e = event("csv");
  e["path"] = path;
  write(line_of(e));
}

void ProgressEvents::done(size_t points, int64_t run_id) {
  Event e = event("done");
  e["points"] = points;
  e["run_id"] = run_id >= 0 ? Event(run_id) : Event(nullptr);
  write(line_of(e));
}

void ProgressEvents::error(const std::string& message) {
  Event e = event("error");
  e["message"] = message;
  write(line_of(e));
}

}  // namespace adala::cli
