#pragma once
// A run database with trained attention plans, written the way `adala plan --train` records
// them (record_plan_point on runs it created): two planning sessions, a teacher in each.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/plan/plan_record.h"
#include "engine/store/run_store.h"

namespace plan_test {

using adala::AttentionMode;
using adala::PlanCost;
using adala::PlanPoint;

inline constexpr AttentionMode S = AttentionMode::Softmax;
inline constexpr AttentionMode L = AttentionMode::Linear;
inline constexpr AttentionMode W = AttentionMode::WindowLinear;

inline PlanPoint make_point(const std::string& name, const std::string& planner,
                            std::vector<AttentionMode> modes, double top1,
                            std::vector<PlanCost> costs) {
  PlanPoint p;
  p.name = name;
  p.planner = planner;
  p.modes = std::move(modes);
  p.top1 = top1;
  p.costs = std::move(costs);
  return p;
}

// Creates a finished run and records `p` on it; returns the run id.
inline int64_t record(adala::store::RunStore& store, PlanPoint p) {
  p.run = store.create_run("plan-" + p.name, "{}", "cpu", "1.13", "0.1");
  store.set_run_status(p.run, adala::store::RunStatus::Done);
  adala::record_plan_point(store, p);
  return p.run;
}

// Session "sess-a" (4 blocks; costs at 32 and 64 px): teacher SSSS, all-linear LLLL,
// softmax-0 SLLL, window3 WWWW, softmax-0-3 SLLS (dominated by softmax-0 at 32 px: slower and
// less accurate). Session "sess-b" (2 blocks; 32 px only): teacher SS, all-linear LL.
struct Fixture {
  std::string path;
  int64_t teacher = 0, all_linear = 0, softmax0 = 0, window3 = 0, softmax03 = 0;
  int64_t b_teacher = 0, b_linear = 0;
};

inline Fixture write_fixture(const std::string& path) {
  adala::store::RunStore store(path);
  Fixture f;
  f.path = path;
  f.teacher = record(store, make_point("teacher", "sess-a", {S, S, S, S}, 0.90,
                                       {{32, 4.0, 40e6}, {64, 16.0, 200e6}}));
  f.all_linear = record(store, make_point("all-linear", "sess-a", {L, L, L, L}, 0.80,
                                          {{32, 1.0, 10e6}, {64, 2.0, 20e6}}));
  f.softmax0 = record(store, make_point("softmax-0", "sess-a", {S, L, L, L}, 0.86,
                                        {{32, 2.0, 18e6}, {64, 5.5, 60e6}}));
  f.window3 = record(store, make_point("window3", "sess-a", {W, W, W, W}, 0.84,
                                       {{32, 1.5, 30e6}, {64, 3.0, 35e6}}));
  f.softmax03 = record(store, make_point("softmax-0-3", "sess-a", {S, L, L, S}, 0.85,
                                         {{32, 2.5, 25e6}, {64, 9.0, 110e6}}));
  f.b_teacher = record(store, make_point("teacher", "sess-b", {S, S}, 0.70, {{32, 3.0, 5e6}}));
  f.b_linear = record(store, make_point("all-linear", "sess-b", {L, L}, 0.65, {{32, 1.2, 2e6}}));
  return f;
}

}  // namespace plan_test
