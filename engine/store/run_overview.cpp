#include "engine/store/run_overview.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <set>
#include <stdexcept>

#include "engine/json/json.h"
#include "engine/json/json_paths.h"
#include "engine/store/run_store.h"
#include "engine/train/linearisation_method.h"
#include "engine/train/stage_catalog.h"

namespace adala::store {
namespace {

std::string string_at(const std::vector<std::pair<std::string, std::string>>& config,
                      const std::string& path) {
  for (const auto& [key, value] : config)
    if (key == path) return value;
  return {};
}

}  // namespace

bool parse_store_timestamp(const std::string& text, int64_t* utc_msecs) {
  // "2024-05-01T12:00:00.000Z"; a time without a zone is read as UTC.
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%*1[T ]%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s,
                  &consumed) != 6)
    return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return false;
  int ms = 0;
  size_t at = size_t(consumed);
  if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
    int digits = 0;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++digits)
      if (digits < 3) ms = ms * 10 + (text[at] - '0');
    for (; digits < 3; ++digits) ms *= 10;
  }
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  *utc_msecs = int64_t(timegm(&tm)) * 1000 + ms;
  return true;
}

namespace {
double seconds_between(const std::string& from, const std::string& to) {
  int64_t a = 0, b = 0;
  if (!parse_store_timestamp(from, &a) || !parse_store_timestamp(to, &b))
    return StageOverview::kNone;
  return double(b - a) / 1000.0;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> flatten_config(const std::string& json) {
  std::vector<std::pair<std::string, std::string>> out;
  Json doc;
  try {
    doc = Json::parse(json);
  } catch (const std::exception&) {
    if (!json.empty()) out.emplace_back("", json);
    return out;
  }
  if (!doc.is_object()) {
    out.emplace_back("", json);
    return out;
  }
  for (auto& entry : flatten_json_paths(doc))
    out.emplace_back(entry.first, std::move(entry.second));
  return out;
}

RunOverview load_run_overview(RunStore& store, int64_t run) {
  const auto info = store.find_run(run);
  if (!info) throw std::invalid_argument("no run " + std::to_string(run) + " in " + store.path());
  RunOverview o;
  o.run = *info;
  o.wall_seconds = seconds_between(info->started_at, info->ended_at);
  for (const auto& s : store.stages(run)) {
    StageOverview st;
    st.stage = s.stage;
    st.index = s.index;
    st.status = s.status;
    st.total_steps = s.total_steps;
    st.last_step = s.last_step;
    st.started_at = s.started_at;
    st.ended_at = s.ended_at;
    st.wall_seconds = seconds_between(s.started_at, s.ended_at);
    // Training time as the stage recorded it; the rest of its wall time it stood still (paused,
    // or between a cancel and the resume).
    st.compute_seconds = s.compute_seconds;
    if (std::isfinite(st.compute_seconds) && std::isfinite(st.wall_seconds))
      st.idle_seconds = std::max(0.0, st.wall_seconds - st.compute_seconds);
    o.stages.push_back(st);
  }
  for (const auto& m : store.final_metrics(run)) {
    if (m.block >= 0) continue;
    auto it = std::find_if(o.stages.begin(), o.stages.end(),
                           [&](const StageOverview& s) { return s.stage == m.stage; });
    if (it == o.stages.end()) continue;  // metrics without a stage row: nothing to attach to
    double* slot = m.key == "loss"        ? &it->final_loss
                   : m.key == "lr"        ? &it->final_lr
                   : m.key == "train_acc" ? &it->final_train_acc
                                          : nullptr;
    if (!slot) continue;
    *slot = m.value;
    it->final_step = std::max(it->final_step, m.step);
  }
  o.evaluations = store.evaluations(run);
  if (auto it = o.evaluations.find(teacher_top1_key()); it != o.evaluations.end())
    o.teacher_top1 = it->second;
  for (const std::string& key : student_top1_keys()) {
    if (auto it = o.evaluations.find(key); it != o.evaluations.end()) {
      o.student_top1 = it->second;
      o.student_top1_key = key;
      break;
    }
  }
  if (std::isfinite(o.teacher_top1) && std::isfinite(o.student_top1))
    o.gap_points = 100.0 * (o.student_top1 - o.teacher_top1);
  o.config = flatten_config(info->config_json);
  o.method = string_at(o.config, "method");
  o.feature_map = string_at(o.config, "model.feature_map");
  o.preset = string_at(o.config, "model.preset");
  if (o.method.empty() && !o.config.empty() && !o.config.front().first.empty()) {
    // As engine/train/config/experiment_config.h chooses it.
    o.method_default = true;
    o.method = kLinearisationMethods[0].name;
  }
  if (o.feature_map.empty()) {
    // The method's own map, else ViTConfig's default.
    o.feature_map_default = true;
    const LinearisationMethodInfo* method = find_linearisation_method(o.method);
    o.feature_map = method && *method->feature_map ? method->feature_map : "elu1";
  }
  return o;
}

std::vector<ConfigDiffRow> config_diff(const std::vector<RunOverview>& runs, bool all_paths) {
  std::set<std::string> paths;
  std::vector<std::map<std::string, std::string>> maps;
  for (const auto& r : runs) {
    maps.emplace_back(r.config.begin(), r.config.end());
    for (const auto& [path, value] : r.config) paths.insert(path);
  }
  std::vector<ConfigDiffRow> rows;
  for (const auto& path : paths) {
    ConfigDiffRow row;
    row.path = path;
    for (const auto& m : maps) {
      const auto it = m.find(path);
      row.present.push_back(it != m.end());
      row.values.push_back(it != m.end() ? it->second : std::string());
    }
    for (size_t i = 1; i < row.values.size(); ++i)
      row.differs =
          row.differs || row.values[i] != row.values[0] || row.present[i] != row.present[0];
    if (row.differs || all_paths) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace adala::store
