#pragma once
// One `adala plan` session, start to end: the teacher and the Stage-1 students it
// starts from (or a run's), the per-block sensitivity on the held-out slice, the candidates and
// their costs (modelled, tied to measured points), the choice, and with --train the trained
// plans recorded in the run database (plan_record.h). Runs go through a PlanRunner the front end
// gives (the CLI's tracked runs with a progress bar); progress lines go to `progress`.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "engine/plan/plan_report.h"
#include "engine/plan/plan_request.h"
#include "engine/train/config/experiment_config.h"

namespace adala::plan {

struct PlanRunResult {
  int64_t run_id = -1;  // -1: not recorded
  std::string run_dir;
  double teacher_top1 = std::numeric_limits<double>::quiet_NaN();
  double student_top1 = std::numeric_limits<double>::quiet_NaN();
};

// Runs `stages` of `config` as one run in <out_dir>/<key>, recorded with `tags`. Throws when it
// is interrupted.
using PlanRunner = std::function<PlanRunResult(
    const ExperimentConfig& config, const std::vector<int>& stages, const std::string& out_dir,
    const std::string& key, const std::vector<std::string>& tags)>;

// Where a session starts: an experiment file, or a run folder whose Stage 1 exists.
struct PlanSource {
  bool is_run = false;
  std::string config_path;  // !is_run
  std::string run_dir;      // is_run
};

// A file is a CONFIG; a folder with config.json, or a run id / name in the database `db` (""
// the default, "none" none), a RUN. Throws PlanInputError naming the source otherwise.
PlanSource resolve_plan_source(const std::string& source, const std::string& db);

// The experiment that runs `plan` from the teacher at `teacher_path`: the document's "attention"
// set to the plan's blocks and window, "teacher.weights" to the path, re-validated.
ExperimentConfig plan_experiment(const ExperimentConfig& base, const AttentionPlan& plan,
                                 const std::string& teacher_path);

struct PlanSessionResult {
  PlanReport report;
  std::string out_dir;
  bool target_met = true;  // false: no plan meets the target (or the trained choice missed it)
};

PlanSessionResult run_plan_session(const PlanRequest& request, const PlanRunner& runner,
                                   std::FILE* progress);

}  // namespace adala::plan
