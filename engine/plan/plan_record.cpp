#include "engine/plan/plan_record.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace adala {

namespace {

constexpr const char* kModePrefix = "mode@";
constexpr const char* kMsPrefix = "ms_per_img@";
constexpr const char* kPeakPrefix = "peak_bytes@";

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The integer after `prefix` in `key`, or -1 when the rest is not a decimal number.
int64_t index_after(const std::string& key, const std::string& prefix) {
  const std::string rest = key.substr(prefix.size());
  if (rest.empty() || rest.size() > 9 ||
      !std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stoll(rest);
}

std::string tag_value(const std::vector<std::string>& tags, const std::string& prefix) {
  for (const auto& t : tags)
    if (starts_with(t, prefix)) return t.substr(prefix.size());
  return "";
}

}  // namespace

std::string plan_name_tag(const std::string& name) { return std::string(kPlanTag) + ":" + name; }
std::string planner_tag(const std::string& folder) { return "planner:" + folder; }

const PlanCost* PlanPoint::cost_at(int64_t resolution) const {
  for (const auto& c : costs)
    if (c.resolution == resolution) return &c;
  return nullptr;
}

std::string plan_strip(const std::vector<AttentionMode>& modes) {
  std::string s;
  for (auto m : modes) s += attention_mode_info(m).letter;
  return s;
}

void record_plan_point(store::RunStore& store, const PlanPoint& point) {
  if (point.run < 0) throw std::invalid_argument("record_plan_point: the point has no run");
  if (point.name.empty()) throw std::invalid_argument("record_plan_point: the point has no name");
  store.add_evaluation(point.run, kPlanStage, "top1", point.top1);
  for (size_t b = 0; b < point.modes.size(); ++b)
    store.add_evaluation(point.run, kPlanStage, kModePrefix + std::to_string(b),
                         double(static_cast<int>(point.modes[b])));
  store.add_evaluation(point.run, kPlanStage, "window", double(point.window));
  if (!std::isnan(point.predicted_gap))
    store.add_evaluation(point.run, kPlanStage, "predicted_gap", point.predicted_gap);
  if (!std::isnan(point.held_out_top1))
    store.add_evaluation(point.run, kPlanStage, "held_out_top1", point.held_out_top1);
  for (const auto& c : point.costs) {
    const std::string at = std::to_string(c.resolution);
    store.add_evaluation(point.run, kPlanStage, kMsPrefix + at, c.ms_per_img);
    store.add_evaluation(point.run, kPlanStage, kPeakPrefix + at, c.peak_bytes);
  }
  store.add_tag(point.run, kPlanTag);
  store.add_tag(point.run, plan_name_tag(point.name));
  if (!point.planner.empty()) store.add_tag(point.run, planner_tag(point.planner));
  store.flush();
}

std::vector<PlanPoint> read_plan_points(store::RunStore& store, const std::string& planner) {
  std::vector<PlanPoint> points;
  auto runs = store.list_runs();  // newest first
  std::reverse(runs.begin(), runs.end());
  const std::string stage_prefix = std::string(kPlanStage) + "/";
  for (const auto& run : runs) {
    if (std::find(run.tags.begin(), run.tags.end(), kPlanTag) == run.tags.end()) continue;
    PlanPoint p;
    p.run = run.id;
    p.name = tag_value(run.tags, plan_name_tag(""));
    p.planner = tag_value(run.tags, planner_tag(""));
    if (!planner.empty() && p.planner != planner) continue;
    std::map<int64_t, AttentionMode> modes;
    std::map<int64_t, PlanCost> costs;
    bool bad_mode = false, has_top1 = false;
    for (const auto& [full_key, value] : store.evaluations(run.id)) {
      if (!starts_with(full_key, stage_prefix)) continue;
      const std::string key = full_key.substr(stage_prefix.size());
      if (key == "top1") {
        p.top1 = value, has_top1 = std::isfinite(value);
      } else if (key == "window") {
        if (std::isfinite(value) && value >= 0 && value < 1e9) p.window = int64_t(value);
      } else if (key == "predicted_gap") {
        p.predicted_gap = value;
      } else if (key == "held_out_top1") {
        p.held_out_top1 = value;
      } else if (starts_with(key, kModePrefix)) {
        const int64_t block = index_after(key, kModePrefix);
        const int v = int(value);
        if (block < 0 || value != double(v) || v < 0 || v >= int(kAttentionModes.size()))
          bad_mode = true;
        else
          modes[block] = kAttentionModes[size_t(v)].mode;
      } else if (starts_with(key, kMsPrefix) || starts_with(key, kPeakPrefix)) {
        const bool ms = starts_with(key, kMsPrefix);
        const int64_t res = index_after(key, ms ? kMsPrefix : kPeakPrefix);
        if (res <= 0) continue;
        PlanCost& c = costs[res];
        c.resolution = res;
        (ms ? c.ms_per_img : c.peak_bytes) = value;
      }
    }
    if (bad_mode || !has_top1 || modes.empty()) continue;
    bool contiguous = true;
    int64_t expected = 0;
    for (const auto& [block, mode] : modes) {
      contiguous = contiguous && block == expected++;
      p.modes.push_back(mode);
    }
    if (!contiguous) continue;
    for (const auto& [res, c] : costs) p.costs.push_back(c);
    points.push_back(std::move(p));
  }
  return points;
}

std::vector<int64_t> common_resolutions(const std::vector<PlanPoint>& points) {
  if (points.empty()) return {};
  std::vector<int64_t> out;
  for (const auto& c : points.front().costs) {
    const bool everywhere = std::all_of(points.begin(), points.end(), [&](const PlanPoint& p) {
      return p.cost_at(c.resolution) != nullptr;
    });
    if (everywhere) out.push_back(c.resolution);
  }
  std::sort(out.begin(), out.end());
  return out;
}

double cost_value(const PlanCost& cost, FrontierCost axis) {
  const double v = axis == FrontierCost::MsPerImage ? cost.ms_per_img : cost.peak_bytes;
  return v >= 0 ? v : std::numeric_limits<double>::quiet_NaN();  // NaN >= 0 is false
}

FrontierCost frontier_cost_from_string(const std::string& name) {
  if (name == "ms") return FrontierCost::MsPerImage;
  if (name == "peak") return FrontierCost::PeakBytes;
  throw std::invalid_argument("unknown cost \"" + name + "\" (expected \"ms\" or \"peak\")");
}

std::vector<size_t> pareto_frontier(const std::vector<PlanPoint>& points, int64_t resolution,
                                    FrontierCost axis) {
  std::vector<size_t> candidates;
  for (size_t i = 0; i < points.size(); ++i) {
    const PlanCost* c = points[i].cost_at(resolution);
    if (c && std::isfinite(cost_value(*c, axis)) && std::isfinite(points[i].top1))
      candidates.push_back(i);
  }
  auto cost = [&](size_t i) { return cost_value(*points[i].cost_at(resolution), axis); };
  std::vector<size_t> frontier;
  for (size_t i : candidates) {
    bool dominated = false;
    for (size_t j : candidates) {
      if (j == i) continue;
      const bool no_worse = points[j].top1 >= points[i].top1 && cost(j) <= cost(i);
      const bool better = points[j].top1 > points[i].top1 || cost(j) < cost(i);
      if (no_worse && better) dominated = true;
    }
    if (!dominated) frontier.push_back(i);
  }
  std::sort(frontier.begin(), frontier.end(),
            [&](size_t a, size_t b) { return cost(a) != cost(b) ? cost(a) < cost(b) : a < b; });
  return frontier;
}

std::vector<std::string> plan_planners(const std::vector<PlanPoint>& points) {
  std::set<std::string> folders;
  for (const auto& p : points)
    if (!p.planner.empty()) folders.insert(p.planner);
  return {folders.begin(), folders.end()};
}

const PlanPoint* plan_teacher(const std::vector<PlanPoint>& points, const std::string& planner) {
  const PlanPoint* teacher = nullptr;
  for (const auto& p : points)
    if (p.name == kTeacherPlanName && p.planner == planner && (!teacher || p.run > teacher->run))
      teacher = &p;
  return teacher;
}

std::vector<PlanRow> plan_rows(const std::vector<PlanPoint>& points, int64_t resolution,
                               FrontierCost axis) {
  std::vector<PlanRow> rows;
  for (size_t i = 0; i < points.size(); ++i) {
    PlanRow row;
    row.index = i;
    if (const PlanCost* c = points[i].cost_at(resolution)) row.cost = cost_value(*c, axis);
    if (const PlanPoint* teacher = plan_teacher(points, points[i].planner))
      row.gap_points = 100.0 * (points[i].top1 - teacher->top1);
    rows.push_back(row);
  }
  for (size_t i : pareto_frontier(points, resolution, axis)) rows[i].on_frontier = true;
  std::stable_sort(rows.begin(), rows.end(), [&](const PlanRow& a, const PlanRow& b) {
    const bool ca = std::isfinite(a.cost), cb = std::isfinite(b.cost);
    if (ca != cb) return ca;
    if (ca && a.cost != b.cost) return a.cost < b.cost;
    return points[a.index].run < points[b.index].run;
  });
  return rows;
}

}  // namespace adala
