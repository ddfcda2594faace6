#pragma once
// A trained attention plan as the run database holds it: `adala plan --train` writes
// one point per trained plan; the frontier view (widgets/plans/plan_frontier_view.h), the report
// and `adala frontier` read them back. Torch-free: the widgets and the report link it.
//   tags         "plan", "plan:<name>", "planner:<folder>" (one planning session's folder)
//   evaluations  stage "plan": "top1" (test split, 0..1), "mode@<block>" (the AttentionMode's
//                value), "window", "ms_per_img@<res>", "peak_bytes@<res>", and, where the
//                planner predicted them, "predicted_gap" (points) and "held_out_top1" (0..1)
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "engine/model/attention_mode.h"
#include "engine/store/run_store.h"

namespace adala {

inline constexpr const char* kPlanStage = "plan";  // the evaluations' stage
inline constexpr const char* kPlanTag = "plan";
// The name of a planning session's reference point: the teacher, softmax in every block. The
// other points' gap is read against it.
inline constexpr const char* kTeacherPlanName = "teacher";

// "plan:<name>", "planner:<folder>"
std::string plan_name_tag(const std::string& name);
std::string planner_tag(const std::string& folder);

// One inference cost point: batch 1, median ms of the timed forward passes, the allocator's
// peak bytes above the weights and the input.
struct PlanCost {
  int64_t resolution = 0;
  double ms_per_img = std::numeric_limits<double>::quiet_NaN();
  double peak_bytes = std::numeric_limits<double>::quiet_NaN();
};

struct PlanPoint {
  int64_t run = -1;
  std::string name;     // "teacher", "all-linear", "softmax-2", "softmax-0-3", "window3"
  std::string planner;  // the planning session's folder ("" when untagged)
  std::vector<AttentionMode> modes;  // one per block
  int64_t window = 3;
  double top1 = std::numeric_limits<double>::quiet_NaN();           // test split, 0..1
  double predicted_gap = std::numeric_limits<double>::quiet_NaN();  // points; NaN: none
  double held_out_top1 = std::numeric_limits<double>::quiet_NaN();  // before Stage 2; NaN: none
  std::vector<PlanCost> costs;                                      // by resolution

  // The cost at `resolution`, or nullptr.
  const PlanCost* cost_at(int64_t resolution) const;
};

// One letter per block (AttentionModeInfo::letter): "SLLW".
std::string plan_strip(const std::vector<AttentionMode>& modes);

// Writes the point's evaluations and tags to run `point.run`.
void record_plan_point(store::RunStore& store, const PlanPoint& point);

// The points of the runs tagged "plan" (of one planning session's folder when `planner` is not
// empty), oldest run first. A run whose evaluations lack top-1 or a block's mode is skipped.
std::vector<PlanPoint> read_plan_points(store::RunStore& store, const std::string& planner = "");

// The resolutions at which every point has a cost, ascending.
std::vector<int64_t> common_resolutions(const std::vector<PlanPoint>& points);

enum class FrontierCost { MsPerImage, PeakBytes };
// The cost on `axis`; NaN where it was not measured (NaN or negative).
double cost_value(const PlanCost& cost, FrontierCost axis);
// "ms" | "peak" (as `adala frontier --cost` takes them); throws std::invalid_argument.
FrontierCost frontier_cost_from_string(const std::string& name);

// The points on the accuracy-cost frontier at `resolution`: no other point is at least as
// accurate and at most as costly, better in one of the two. Indices into `points`, cheapest
// first; points without a finite cost at that resolution are left out.
std::vector<size_t> pareto_frontier(const std::vector<PlanPoint>& points, int64_t resolution,
                                    FrontierCost axis);

// The planning sessions' folders of the points (those with one), sorted, each once.
std::vector<std::string> plan_planners(const std::vector<PlanPoint>& points);

// The teacher point (kTeacherPlanName) of `planner`'s session, the newest where there are
// several; nullptr where there is none.
const PlanPoint* plan_teacher(const std::vector<PlanPoint>& points, const std::string& planner);

// One line of a frontier table (the workbench's Plans tab, `adala frontier`, the report).
struct PlanRow {
  size_t index = 0;                                        // into the points
  double cost = std::numeric_limits<double>::quiet_NaN();  // at the table's resolution and axis
  double gap_points = std::numeric_limits<double>::quiet_NaN();  // (top1 - teacher's) * 100
  bool on_frontier = false;
};

// Every point once, cheapest first (those without a cost last, by run); the gap is read
// against the teacher of the point's own session.
std::vector<PlanRow> plan_rows(const std::vector<PlanPoint>& points, int64_t resolution,
                               FrontierCost axis);

}  // namespace adala
