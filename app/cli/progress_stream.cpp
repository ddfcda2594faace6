#include "app/cli/progress_stream.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/json/json.h"

namespace adala::cli {

namespace {

// Why a line is not a valid event; caught in parse_progress_line.
class BadEvent : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Fields {
 public:
  Fields(const Json& object, std::string event) : object_(object), event_(std::move(event)) {}

  const Json& get(const char* key) const {
    auto it = object_.find(key);
    if (it == object_.end()) fail(key, "is missing");
    return *it;
  }
  std::string string(const char* key) const {
    const Json& v = get(key);
    if (!v.is_string()) fail(key, std::string("must be a string, got ") + json_type_name(v));
    return v.get<std::string>();
  }
  // An integer in [min, kMaxProgressCount].
  int64_t integer(const char* key, int64_t min = 0) const { return integer_of(get(key), key, min); }
  // An integer, or null (-1).
  int64_t optional_id(const char* key) const {
    const Json& v = get(key);
    return v.is_null() ? -1 : integer_of(v, key, 1);
  }
  // A number, or null (NaN: what the writer makes of NaN and infinities).
  double number(const char* key) const { return number_of(get(key), key); }
  std::vector<double> numbers(const Json& v, const std::string& key) const {
    if (!v.is_array()) fail(key, std::string("must be an array, got ") + json_type_name(v));
    if (v.size() > kMaxProgressBlocks)
      fail(key, "has " + std::to_string(v.size()) + " values (at most " +
                    std::to_string(kMaxProgressBlocks) + ")");
    std::vector<double> out;
    for (const Json& x : v) out.push_back(number_of(x, key + "[]"));
    return out;
  }
  template <typename T>
  T one_of(const char* key, const std::vector<std::pair<const char*, T>>& names) const {
    const std::string s = string(key);
    std::string known;
    for (const auto& [name, value] : names) {
      if (s == name) return value;
      known += (known.empty() ? "" : ", ") + std::string(name);
    }
    fail(key, "\"" + s + "\" is not one of " + known);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw BadEvent(event_ + " event: \"" + key + "\" " + what);
  }

 private:
  int64_t integer_of(const Json& v, const std::string& key, int64_t min) const {
    if (!v.is_number_integer())
      fail(key, std::string("must be an integer, got ") + json_type_name(v));
    // nlohmann keeps a non-negative integer unsigned: 2^64-1 must not wrap to -1.
    if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(kMaxProgressCount))
      fail(key, "is out of range (at most " + std::to_string(kMaxProgressCount) + ")");
    const int64_t x = v.get<int64_t>();
    if (x < min || x > kMaxProgressCount)
      fail(key, std::to_string(x) + " is out of range (" + std::to_string(min) + ".." +
                    std::to_string(kMaxProgressCount) + ")");
    return x;
  }
  double number_of(const Json& v, const std::string& key) const {
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (!v.is_number()) fail(key, std::string("must be a number, got ") + json_type_name(v));
    return v.get<double>();
  }
  const Json& object_;
  std::string event_;
};

StepMetrics step_of(const Fields& f, const Json& o) {
  StepMetrics m;
  m.stage = f.string("stage");
  m.total_steps = f.integer("total_steps");
  m.step = f.integer("step");
  if (m.step > m.total_steps && m.total_steps > 0)
    f.fail("step",
           std::to_string(m.step) + " is past total_steps " + std::to_string(m.total_steps));
  m.epoch = f.integer("epoch");
  m.loss = f.number("loss");
  m.lr = f.number("lr");
  m.per_block_mse = f.numbers(f.get("per_block_mse"), "per_block_mse");
  m.images_per_second = f.number("images_per_second");
  m.eta_seconds = f.number("eta_seconds");
  m.data_wait_share = f.number("data_wait_share");
  if (m.data_wait_share < 0.0 || m.data_wait_share > 1.0)
    f.fail("data_wait_share", "is out of range (0..1)");
  if (auto it = o.find("extra"); it != o.end()) {
    if (!it->is_object())
      f.fail("extra", std::string("must be an object, got ") + json_type_name(*it));
    if (it->size() > kMaxProgressBlocks) f.fail("extra", "has too many keys");
    for (const auto& [key, value] : it->items()) {
      if (!value.is_null() && !value.is_number())
        f.fail("extra." + key, std::string("must be a number, got ") + json_type_name(value));
      m.extra[key] =
          value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
    }
  }
  if (auto it = o.find("per_block"); it != o.end()) {
    if (!it->is_object())
      f.fail("per_block", std::string("must be an object, got ") + json_type_name(*it));
    if (it->size() > kMaxProgressBlocks) f.fail("per_block", "has too many keys");
    for (const auto& [key, value] : it->items())
      m.per_block[key] = f.numbers(value, "per_block." + key);
  }
  return m;
}

StageEvent stage_of(const Fields& f) {
  StageEvent s;
  s.stage = f.string("stage");
  s.kind = f.one_of<StageEvent::Kind>("kind", {{"started", StageEvent::Kind::Started},
                                               {"finished", StageEvent::Kind::Finished},
                                               {"cancelled", StageEvent::Kind::Cancelled},
                                               {"failed", StageEvent::Kind::Failed}});
  s.total_steps = f.integer("total_steps");
  s.step = f.integer("step");
  s.seconds = f.number("seconds");
  s.message = f.string("message");
  return s;
}

EvalMetrics eval_of(const Fields& f) {
  EvalMetrics e;
  e.stage = f.string("stage");
  e.key = f.string("key");
  e.value = f.number("value");
  e.step = f.integer("step");
  return e;
}

LogEvent log_of(const Fields& f) {
  LogEvent l;
  l.level = f.one_of<LogEvent::Level>("level", {{"info", LogEvent::Level::Info},
                                                {"warning", LogEvent::Level::Warning},
                                                {"error", LogEvent::Level::Error}});
  l.message = f.string("message");
  return l;
}

RunMessage run_of(const Fields& f) {
  RunMessage r;
  r.name = f.string("name");
  r.run_dir = f.string("run_dir");
  r.processes = f.integer("processes", 1);
  return r;
}

RunFinishedMessage finished_of(const Fields& f) {
  RunFinishedMessage r;
  r.status = f.one_of<std::string>("status", {{"done", "done"}, {"interrupted", "interrupted"}});
  r.run_id = f.optional_id("run_id");
  return r;
}

BenchProgressMessage progress_of(const Fields& f) {
  BenchProgressMessage p;
  p.total = f.integer("total");
  p.done = f.integer("done");
  if (p.done > p.total)
    f.fail("done", std::to_string(p.done) + " is past total " + std::to_string(p.total));
  p.label = f.string("label");
  return p;
}

BenchStartMessage bench_start_of(const Fields& f) {
  BenchStartMessage s;
  s.benchmark = f.string("benchmark");
  s.total = f.integer("total");
  s.preset = f.string("preset");
  const Json& res = f.get("resolutions");
  if (!res.is_array() || res.size() > kMaxProgressBlocks)
    f.fail("resolutions",
           "must be an array of at most " + std::to_string(kMaxProgressBlocks) + " integers");
  for (const Json& r : res) {
    if (!r.is_number_integer() || r.get<int64_t>() < 1 || r.get<int64_t>() > kMaxProgressCount)
      f.fail("resolutions", "must hold positive integers");
    s.resolutions.push_back(r.get<int64_t>());
  }
  const Json& modes = f.get("modes");
  if (!modes.is_array() || modes.size() > kMaxProgressBlocks)
    f.fail("modes",
           "must be an array of at most " + std::to_string(kMaxProgressBlocks) + " strings");
  for (const Json& m : modes) {
    if (!m.is_string()) f.fail("modes", "must hold strings");
    s.modes.push_back(m.get<std::string>());
  }
  return s;
}

BenchPointMessage bench_point_of(const Fields& f) {
  const Json& row = f.get("row");
  if (!row.is_object() || row.size() > kMaxProgressBlocks)
    f.fail("row",
           "must be an object of at most " + std::to_string(kMaxProgressBlocks) + " CSV fields");
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& [key, value] : row.items()) {
    if (!value.is_string()) f.fail("row." + key, "must be a string (the CSV field)");
    fields.emplace_back(key, value.get<std::string>());
  }
  try {
    return BenchPointMessage{scaling_csv_row_from_fields(fields, "point event")};
  } catch (const ScalingCsvError& e) {
    throw BadEvent(e.what());
  }
}

BenchDoneMessage done_of(const Fields& f) {
  BenchDoneMessage d;
  d.points = f.integer("points");
  d.run_id = f.optional_id("run_id");
  return d;
}

ProgressMessage message_of(const Json& o) {
  auto name = o.find("event");
  if (name == o.end()) throw BadEvent("no \"event\" field");
  if (!name->is_string())
    throw BadEvent(std::string("\"event\" must be a string, got ") + json_type_name(*name));
  const std::string event = name->get<std::string>();
  const std::string shown = event.size() > 40 ? event.substr(0, 40) + "..." : event;
  const Fields f(o, shown);
  if (event == "step") return step_of(f, o);
  if (event == "stage") return stage_of(f);
  if (event == "eval") return eval_of(f);
  if (event == "artifact")
    return ArtifactEvent{f.string("stage"), f.string("kind"), f.string("path")};
  if (event == "log") return log_of(f);
  if (event == "run") return run_of(f);
  if (event == "recorded") return RecordedMessage{f.integer("run_id", 1)};
  if (event == "finished") return finished_of(f);
  if (event == "error") return ErrorMessage{f.string("message")};
  if (event == "progress") return progress_of(f);
  if (event == "start") return bench_start_of(f);
  if (event == "point") return bench_point_of(f);
  if (event == "csv") return CsvMessage{f.string("path")};
  if (event == "done") return done_of(f);
  throw BadEvent("unknown event \"" + shown + "\"");
}

}  // namespace

ProgressLine parse_progress_line(std::string_view line) {
  ProgressLine out;
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  out.text = std::string(line);
  if (line.empty() || line.front() != '{') return out;
  try {
    const Json doc = parse_json_strict(line);
    if (!doc.is_object()) throw BadEvent("not a JSON object");
    out.message = message_of(doc);
    out.kind = ProgressLine::Kind::Event;
  } catch (const std::exception& e) {  // BadEvent, JsonError, nlohmann's own
    out.kind = ProgressLine::Kind::Invalid;
    out.error = e.what();
  }
  return out;
}

std::vector<ProgressLine> ProgressStream::feed(std::string_view bytes) {
  std::vector<ProgressLine> lines;
  buffer_.append(bytes);
  size_t start = 0;
  for (size_t end; (end = buffer_.find('\n', start)) != std::string::npos; start = end + 1) {
    ProgressLine line = parse_progress_line(std::string_view(buffer_).substr(start, end - start));
    if (line.text.empty()) continue;
    keep(line);
    lines.push_back(std::move(line));
  }
  buffer_.erase(0, start);
  return lines;
}

std::vector<ProgressLine> ProgressStream::finish() {
  std::vector<ProgressLine> lines = feed("\n");
  buffer_.clear();
  return lines;
}

void ProgressStream::keep(const ProgressLine& line) {
  if (line.kind == ProgressLine::Kind::Event) {
    if (const auto* e = std::get_if<ErrorMessage>(&line.message)) error_ = e->message;
    return;
  }
  tail_.push_back(line.text);
  while (tail_.size() > 12) tail_.pop_front();
}

std::string ProgressStream::failure_reason() const {
  if (!error_.empty()) return error_;
  for (auto it = tail_.rbegin(); it != tail_.rend(); ++it)
    if (it->rfind("adala ", 0) == 0) return *it;
  return tail_.empty() ? std::string() : tail_.back();
}

}  // namespace adala::cli
