#pragma once
// What a planning session found, and its two files: <out>/plan.md (the sensitivity table, the
// candidates with their strip, predicted gap, GFLOPs and predicted / measured ms and MB, the
// choice and why; after --train the trained plans at both resolutions and whether the choice met
// its target) and <out>/plan.csv (one row per candidate, trained figures where trained).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "engine/plan/plan_candidates.h"
#include "engine/plan/plan_choice.h"
#include "engine/plan/plan_cost_model.h"
#include "engine/plan/plan_record.h"
#include "engine/plan/plan_sensitivity.h"

namespace adala::plan {

struct CandidateRow {
  PlanCandidate candidate;
  double held_out_top1 = std::numeric_limits<double>::quiet_NaN();
  double predicted_gap = std::numeric_limits<double>::quiet_NaN();  // points
  double gmacs_native = 0, gmacs = 0;                               // at the config's res, at R
  double predicted_ms_native = std::numeric_limits<double>::quiet_NaN();
  double predicted_ms = std::numeric_limits<double>::quiet_NaN();     // at R
  double predicted_bytes = std::numeric_limits<double>::quiet_NaN();  // at R
  std::optional<PlanCost> measured;                                   // at R, where measured
};

struct TrainedRow {
  std::string name;
  std::string strip;
  int64_t run = -1;
  std::string run_dir;
  double top1 = std::numeric_limits<double>::quiet_NaN();  // test split, 0..1
  double gap = std::numeric_limits<double>::quiet_NaN();   // points, teacher - this
  PlanCost native, at_res;
};

struct PlanReport {
  std::string experiment;  // the config's name
  std::string source;      // what the session started from
  std::string device;
  int64_t native_resolution = 0, resolution = 0;
  int repeats = 0;
  int64_t held_out = 0;
  std::string held_out_data;  // the slice, described
  Sensitivity sensitivity;
  std::vector<int64_t> ranking;
  std::vector<CandidateRow> candidates;
  CostCalibration costs_native, costs;  // at the config's resolution, at R
  AlphaCalibration alpha;
  PlanTarget target;
  PlanChoice choice;  // index into candidates
  std::vector<TrainedRow> trained;
  double teacher_test_top1 = std::numeric_limits<double>::quiet_NaN();
  std::string target_check;  // after training: did the choice meet its target
  std::vector<std::string> notes;

  const CandidateRow* chosen() const;
};

std::string plan_markdown(const PlanReport& report);
std::string plan_csv(const PlanReport& report);
// Writes plan.md and plan.csv into `out_dir` (atomically).
void write_plan_report(const PlanReport& report, const std::string& out_dir);

}  // namespace adala::plan
