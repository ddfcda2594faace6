// `adala plan`: which blocks to keep softmax. The logic is engine/plan's
// (plan_session.h); this file reads the command line and runs each of the session's runs as a
// tracked run with a progress bar.
#include <cstdio>
#include <optional>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/tracked_run.h"
#include "engine/plan/plan_session.h"

namespace adala::cli {

namespace {

// What `adala plan` was given; the targets apply only when given.
struct PlanCommandArgs {
  plan::PlanRequest request;
  double target_gap = 0, target_ms = 0;
  CLI::Option* gap_option = nullptr;
  CLI::Option* ms_option = nullptr;
};

void declare_plan_command(CLI::App& app, PlanCommandArgs& a) {
  plan::PlanRequest& request = a.request;
  app.add_option("CONFIG|RUN", request.source,
                 "an experiment (experiments/*.json), or a run folder / id / name whose Stage 1 "
                 "is done")
      ->required();
  app.add_option("--res", request.resolution, "the resolution the plan is for (pixels)")
      ->required();
  a.gap_option =
      app.add_option("--target-gap", a.target_gap,
                     "largest predicted top-1 gap to the teacher, in points (default 1)");
  a.ms_option =
      app.add_option("--target-ms", a.target_ms, "largest predicted ms/img at --res instead");
  app.add_flag("--train", request.train,
               "train all-linear, the choice and its ranked neighbours (Stages 1-3)");
  app.add_flag("--train-all", request.train_all, "train every candidate (Stages 1-3)");
  app.add_option("--train-plans", request.train_plans,
                 "train all-linear, these candidates (comma-separated names; \"singles\": "
                 "every softmax-<i>) and the choice")
      ->delimiter(',');
  app.add_option("--window", request.window, "k of the window+linear candidate (0: none)")
      ->capture_default_str();
  app.add_option("--held-out", request.held_out,
                 "the last N training images measure sensitivity (never the test split)")
      ->capture_default_str();
  app.add_option("--out", request.out_dir, "the output folder (default: a new run folder + -plan)");
  app.add_option("--db", request.db, "the run database, or none");
  app.add_option("--device", request.device, "auto, cpu or cuda");
  app.add_option("--repeats", request.repeats, "timed forward passes per cost point (median)")
      ->capture_default_str();
}

// The session's runs as tracked runs with a progress bar, in the request's database.
plan::PlanRunner tracked_plan_runner(const plan::PlanRequest& request) {
  TrackedRunOptions tracking;
  tracking.db_path = request.db;
  return [tracking, device = request.device](const ExperimentConfig& config,
                                             const std::vector<int>& stages,
                                             const std::string& out_dir, const std::string& key,
                                             const std::vector<std::string>& tags) {
    TrackedRunOptions t = tracking;
    t.tags = tags;
    std::fprintf(stderr, "\n##### %s\n", key.c_str());
    const TrackedRunResult r =
        run_tracked_variant(config, stages, out_dir, key, device, t, "plan-run:" + key, "planning");
    plan::PlanRunResult out;
    out.run_id = r.run_id;
    out.run_dir = r.pipeline.run_dir;
    out.teacher_top1 = r.pipeline.teacher_top1;
    out.student_top1 = r.pipeline.student_top1;
    return out;
  };
}

}  // namespace

int plan_command(const Args& args) {
  CLI::App app{
      "Plans a hybrid student: which blocks to keep softmax. From CONFIG (Stage 0, or its "
      "teacher.weights, and Stage 1 with every block linear, and with --window every block "
      "window+linear) or from RUN's Stage 1, measures each block's sensitivity on a held-out "
      "slice of the training data (its attention MSE, and the top-1 drop when it alone is "
      "linear), weighs the candidates (teacher, all-linear, each single softmax block, the k "
      "most sensitive blocks softmax, window+linear) by predicted gap and cost at --res, and "
      "chooses the cheapest within --target-gap (or the most accurate within --target-ms). "
      "--train trains all-linear (to calibrate the gap prediction), the choice and its ranked "
      "neighbours; --train-all every candidate; --train-plans the named ones; each is recorded "
      "with the tags \"plan\", "
      "\"plan:<name>\" and \"planner:<folder>\". Writes plan.md and plan.csv.",
      "adala plan"};
  prepare_command_app(app);
  PlanCommandArgs a;
  declare_plan_command(app, a);
  if (!parse_command_line(app, args)) return 0;
  plan::PlanRequest& request = a.request;
  if (a.gap_option->count()) request.target_gap = a.target_gap;
  if (a.ms_option->count()) request.target_ms = a.target_ms;

  plan::PlanSessionResult result;
  try {
    result = plan::run_plan_session(request, tracked_plan_runner(request), stderr);
  } catch (const plan::PlanInputError& e) {
    throw UsageError(e.what());
  }
  std::printf("%s\nwritten: %s/plan.md, plan.csv\n", plan::plan_markdown(result.report).c_str(),
              result.out_dir.c_str());
  if (result.report.choice.index < 0) {
    std::fprintf(stderr, "adala plan: %s\n", result.report.choice.reason.c_str());
    return 1;
  }
  return 0;
}

}  // namespace adala::cli
