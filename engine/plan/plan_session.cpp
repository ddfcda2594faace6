#include "engine/plan/plan_session.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "engine/plan/held_out_data.h"
#include "engine/plan/plan_measure.h"
#include "engine/plan/plan_record.h"
#include "engine/plan/plan_remeasure.h"
#include "engine/plan/plan_sensitivity.h"
#include "engine/runtime/device.h"
#include "engine/store/run_store.h"
#include "engine/train/pipeline.h"
#include "engine/train/run_model.h"
#include "engine/train/stages.h"

namespace fs = std::filesystem;

namespace adala::plan {

namespace {

constexpr const char* kNoDatabase = "none";

void say(std::FILE* out, const std::string& line) {
  if (!out) return;
  std::fprintf(out, "plan: %s\n", line.c_str());
  std::fflush(out);
}

const CandidateRow& all_linear_row(const PlanReport& r) {
  for (const auto& row : r.candidates)
    if (row.candidate.name == kAllLinearPlan) return row;
  throw std::logic_error("plan: no all-linear candidate");
}

bool all_of_mode(const AttentionPlan& plan, AttentionMode mode) {
  return !plan.modes.empty() &&
         std::all_of(plan.modes.begin(), plan.modes.end(), [&](auto m) { return m == mode; });
}

}  // namespace

PlanSource resolve_plan_source(const std::string& source, const std::string& db) {
  PlanSource s;
  std::error_code ec;
  if (fs::is_regular_file(source, ec)) {
    s.config_path = source;
    return s;
  }
  if (fs::is_directory(source, ec)) {
    if (!fs::exists(fs::path(source) / "config.json"))
      throw PlanInputError("RUN " + source + ": not a run folder (no config.json in it)");
    s.is_run = true;
    s.run_dir = source;
    return s;
  }
  if (db != kNoDatabase) {
    const std::string path = db.empty() ? store::RunStore::default_path() : db;
    if (fs::exists(path)) {
      store::RunStore store(path, store::OpenMode::ReadOnly);
      if (auto info = store.find_run(source)) {
        if (info->folder.empty() || !fs::exists(fs::path(info->folder) / "config.json"))
          throw PlanInputError("RUN " + source + ": the run has no run folder on this machine");
        s.is_run = true;
        s.run_dir = info->folder;
        return s;
      }
    }
    throw PlanInputError("unknown run or config \"" + source +
                         "\": no such file, no run folder, and no run of that id or name in " +
                         path);
  }
  throw PlanInputError("unknown run or config \"" + source +
                       "\": no such file or run folder (--db none: runs are not looked up)");
}

ExperimentConfig plan_experiment(const ExperimentConfig& base, const AttentionPlan& plan,
                                 const std::string& teacher_path) {
  Json doc = base.source;
  Json blocks = Json::array();
  for (auto m : plan.modes) blocks.push_back(Json(to_string(m)));
  doc["attention"] = Json::object();
  doc["attention"]["blocks"] = blocks;
  doc["attention"]["window"] = Json(plan.window);
  if (!doc.contains("teacher") || !doc["teacher"].is_object()) doc["teacher"] = Json::object();
  doc["teacher"]["weights"] = Json(teacher_path);
  return parse_experiment_config(doc);
}

namespace {

// The planner's state between its steps.
struct Session {
  Session(const PlanRequest& r, const PlanRunner& run, std::FILE* out, ExperimentConfig c)
      : request(r), runner(run), progress(out), config(std::move(c)) {}
  const PlanRequest& request;
  const PlanRunner& runner;
  std::FILE* progress;
  PlanReport report;
  ExperimentConfig config;  // training data without the held-out slice
  c10::Device device{c10::kCPU};
  std::string out, folder, teacher_path;
  int64_t teacher_run = -1;
  StageData held_out, eval;
  VisionTransformer linear{nullptr}, window{nullptr};
  std::vector<std::string> tags;

  PlanRunResult run(const ExperimentConfig& c, const std::vector<int>& stages,
                    const std::string& key) {
    say(progress, "run " + key + " (stages " + fmt::format("{}", fmt::join(stages, ",")) + ")");
    return runner(c, stages, out, key, tags);
  }
};

void compute_predictions(Session& s) {
  for (auto& row : s.report.candidates)
    row.predicted_gap = row.candidate.is_teacher()
                            ? 0.0
                            : predicted_gap(s.report.alpha.alpha, s.report.sensitivity.teacher_top1,
                                            row.held_out_top1);
}

void choose(Session& s) {
  std::vector<ChoiceInput> inputs;
  for (const auto& row : s.report.candidates)
    inputs.push_back(
        {row.candidate.name, row.gmacs, row.predicted_bytes, row.predicted_ms, row.predicted_gap});
  s.report.choice = choose_plan(inputs, s.report.target, s.report.resolution);
  say(s.progress, "choice: " + s.report.choice.reason);
}

// Measured cost points of the teacher, all-linear and window plans at `resolution`, on the
// Stage-1 models run as those plans; returns the calibration and fills `measured` at R.
CostCalibration measure_and_calibrate(Session& s, int64_t resolution, bool at_target) {
  std::vector<MeasuredCost> points;
  const ViTConfig& vit = s.linear->config();
  for (auto& row : s.report.candidates) {
    const auto& c = row.candidate;
    const bool measured_kind = c.is_teacher() || c.name == kAllLinearPlan || c.is_window();
    if (!measured_kind) continue;
    if (c.is_window() && (!s.window || s.device.type() != c10::kCPU)) continue;
    VisionTransformer& model = c.is_window() ? s.window : s.linear;
    model->set_attention_plan(c.plan);
    const PlanCost cost = measure_plan_cost(model, resolution, s.device, s.request.repeats);
    MeasuredCost m;
    m.gmacs = plan_gmacs(vit, c.plan, resolution);
    m.modelled_bytes = plan_activation_bytes(vit, c.plan, resolution);
    m.ms = cost.ms_per_img;
    m.peak_bytes = cost.peak_bytes;
    points.push_back(m);
    if (at_target) row.measured = cost;
    say(s.progress, fmt::format("measured {} at {}px: {:.3f} ms/img, {:.2f} MB peak (model: {:.4f} "
                                "GFLOPs, {:.2f} MB activations)",
                                c.name, resolution, cost.ms_per_img, cost.peak_bytes / 1e6, m.gmacs,
                                m.modelled_bytes / 1e6));
  }
  return calibrate_costs(points);
}

TrainedRow trained_row(Session& s, const std::string& name, const AttentionPlan& plan,
                       const PlanRunResult& r, const std::string& weights, double top1) {
  TrainedRow t;
  t.name = name;
  t.strip = plan_strip(plan.modes);
  t.run = r.run_id;
  t.run_dir = r.run_dir;
  t.top1 = top1;
  t.gap = 100.0 * (s.report.teacher_test_top1 - top1);
  VisionTransformer model = load_run_model_for_eval(s.config, weights, s.device);
  model->set_attention_plan(plan);
  t.native = measure_plan_cost(model, s.report.native_resolution, s.device, s.request.repeats);
  t.at_res = measure_plan_cost(model, s.report.resolution, s.device, s.request.repeats);
  return t;
}

void record(Session& s, const TrainedRow& t, const AttentionPlan& plan, const CandidateRow* row) {
  if (s.request.db == kNoDatabase || t.run < 0) return;
  store::RunStore store(s.request.db.empty() ? store::RunStore::default_path() : s.request.db);
  PlanPoint p;
  p.run = t.run;
  p.name = t.name;
  p.planner = s.folder;
  p.modes = plan.modes;
  p.window = plan.window;
  p.top1 = t.top1;
  if (row) {
    p.predicted_gap = row->predicted_gap;
    p.held_out_top1 = row->held_out_top1;
  }
  p.costs = {t.native, t.at_res};
  record_plan_point(store, p);
}

void train_plan(Session& s, const std::string& name) {
  for (const auto& t : s.report.trained)
    if (t.name == name) return;
  const CandidateRow* row = nullptr;
  for (const auto& r : s.report.candidates)
    if (r.candidate.name == name) row = &r;
  if (!row) return;
  const AttentionPlan plan = row->candidate.plan;
  say(s.progress, "training " + name + " (" + plan_strip(plan.modes) + "): Stages 1-3");
  const ExperimentConfig c = plan_experiment(s.config, plan, s.teacher_path);
  const PlanRunResult r = s.run(c, {1, 2, 3}, name);
  TrainedRow t = trained_row(s, name, plan, r, stage_output_path(r.run_dir, 3), r.student_top1);
  record(s, t, plan, row);
  s.report.trained.push_back(std::move(t));
}

// After training, every trained plan is measured again side by side (plan_remeasure.h): the
// costs measured right after each training lie minutes apart on a machine whose speed drifts.
// The recorded points are updated.
void remeasure_trained(Session& s) {
  PlanReport& rep = s.report;
  if (rep.trained.size() < 2) return;
  say(s.progress, "measuring the trained plans again, side by side");
  std::vector<VisionTransformer> models;
  std::vector<const CandidateRow*> rows;
  for (const auto& t : rep.trained) {
    const CandidateRow* row = nullptr;
    for (const auto& r : rep.candidates)
      if (r.candidate.name == t.name) row = &r;
    if (!row) throw std::logic_error("plan: no candidate named " + t.name);
    const bool teacher = t.name == kTeacherPlan;
    VisionTransformer m = load_run_model_for_eval(
        s.config, teacher ? s.teacher_path : stage_output_path(t.run_dir, 3), s.device);
    m->set_attention_plan(row->candidate.plan);
    models.push_back(m);
    rows.push_back(row);
  }
  InterleavedCostOptions o;
  o.resolutions = {rep.native_resolution};
  if (rep.resolution != rep.native_resolution) o.resolutions.push_back(rep.resolution);
  o.repeats = s.request.repeats;
  const auto costs = measure_interleaved(models, s.device, o,
                                         [&](const std::string& line) { say(s.progress, line); });
  for (size_t i = 0; i < rep.trained.size(); ++i) {
    TrainedRow& t = rep.trained[i];
    t.native = costs[i].front();
    t.at_res = costs[i].back();
    record(s, t, rows[i]->candidate.plan, rows[i]);
  }
}

// The experiment a session plans: a run's or a config's, checked for the request.
ExperimentConfig load_plan_base(const PlanRequest& request, const PlanSource& source) {
  const ExperimentConfig base =
      source.is_run ? load_run_config(source.run_dir) : load_experiment_config(source.config_path);
  check_plan_resolution(request.resolution, base.model.patch_size);
  if (source.is_run && !fs::exists(stage_output_path(source.run_dir, 1)))
    throw PlanInputError("RUN " + source.run_dir + ": no Stage 1 output (" +
                         stage_by_index(1)->output_file + "); run its Stage 1 first");
  return base;
}

void start_report(Session& s, const PlanSource& source, const ExperimentConfig& base) {
  PlanReport& rep = s.report;
  rep.experiment = base.name;
  rep.source = source.is_run ? "run " + source.run_dir : "config " + source.config_path;
  rep.native_resolution = base.model.img_size;
  rep.resolution = s.request.resolution;
  rep.repeats = s.request.repeats;
  rep.held_out = s.request.held_out;
  rep.target = plan_target(s.request);
}

// The held-out slice (the last images of the training data), the training data without it, the
// device and the evaluation data.
void open_plan_data(Session& s, const ExperimentConfig& base) {
  const StageData training = open_training_data(base);
  s.held_out = held_out_slice(training, s.request.held_out);
  s.report.held_out_data = s.held_out.dataset->describe();
  s.config = config_without_held_out(base, training.size(), s.request.held_out);
  s.device = resolve_device(s.request.device, base.device);
  s.report.device = s.device.str();
  s.eval = open_stage_data(s.config.data.eval, s.config.data, "data.eval");
}

void open_output_folder(Session& s, const ExperimentConfig& base) {
  s.out = s.request.out_dir.empty() ? make_run_dir(base, "-plan") : s.request.out_dir;
  fs::create_directories(s.out);
  s.folder = fs::path(s.out).lexically_normal().filename().string();
  if (s.folder.empty())
    s.folder = fs::path(s.out).lexically_normal().parent_path().filename().string();
  s.tags = {planner_tag(s.folder)};
  say(s.progress, "output folder " + s.out + "; held-out slice: " + s.report.held_out_data);
}

// A run's teacher (its Stage 0 output, else its teacher.weights); returns its Stage 1 output.
std::string stage1_of_run(Session& s, const PlanSource& source, const ExperimentConfig& base) {
  const std::string teacher_file = stage_output_path(source.run_dir, 0);
  s.teacher_path = fs::exists(teacher_file) ? teacher_file : base.teacher_weights;
  if (s.teacher_path.empty())
    throw PlanInputError("RUN " + source.run_dir + ": no teacher (no " +
                         std::string(stage_by_index(0)->output_file) + ", no teacher.weights)");
  s.report.notes.push_back(
      "Stage 1 is the run's: its training data may include the held-out slice");
  return stage_output_path(source.run_dir, 1);
}

// For a config: the teacher (Stage 0), then Stage 1 with every block linear; returns the latter's
// output.
std::string train_teacher_and_stage1(Session& s, const ExperimentConfig& base,
                                     const AttentionPlan& all_linear) {
  PlanReport& rep = s.report;
  say(s.progress, "teacher (Stage 0" +
                      std::string(base.teacher_weights.empty() ? ", trained" : ", loaded") + ")");
  const PlanRunResult t = s.run(s.config, {0}, kTeacherPlan);
  s.teacher_path = stage_output_path(t.run_dir, 0);
  s.teacher_run = t.run_id;
  rep.teacher_test_top1 = t.teacher_top1;
  const PlanRunResult l =
      s.run(plan_experiment(s.config, all_linear, s.teacher_path), {1}, "stage1-linear");
  if (!base.teacher_weights.empty())
    rep.notes.push_back("the teacher is teacher.weights (" + base.teacher_weights +
                        "): its own training may have seen the held-out slice");
  return stage_output_path(l.run_dir, 1);
}

// Stage 1 with every block window+linear, where the request asks for a window and the config
// allows it; a note where it does not.
void train_window_stage1(Session& s, int64_t depth) {
  const int64_t window = s.request.window;
  const AttentionPlan w = uniform_attention_plan(depth, AttentionMode::WindowLinear, window);
  try {
    const ExperimentConfig wc = plan_experiment(s.config, w, s.teacher_path);
    const PlanRunResult r = s.run(wc, {1}, "stage1-" + window_plan_name(window));
    s.window = load_run_model_for_eval(s.config, stage_output_path(r.run_dir, 1), s.device);
  } catch (const ConfigError& e) {
    s.report.notes.push_back(std::string("no window+linear candidate: ") + e.what());
    say(s.progress, s.report.notes.back());
  }
}

// The teacher and the Stage-1 students the candidates are cut from.
void prepare_students(Session& s, const PlanSource& source, const ExperimentConfig& base) {
  const int64_t depth = base.model.depth;
  const AttentionPlan all_linear = uniform_attention_plan(depth, AttentionMode::Linear);
  const std::string linear_stage1 = source.is_run ? stage1_of_run(s, source, base)
                                                  : train_teacher_and_stage1(s, base, all_linear);
  s.linear = load_run_model_for_eval(s.config, linear_stage1, s.device);
  if (!all_of_mode(s.linear->attention_plan(), AttentionMode::Linear))
    throw PlanInputError("RUN " + source.run_dir + ": its Stage 1 ran the plan " +
                         describe_attention_plan(s.linear->attention_plan()) +
                         "; the planner needs a Stage 1 with every block linear");
  if (s.request.window > 0) train_window_stage1(s, depth);
}

void measure_block_sensitivity(Session& s) {
  PlanReport& rep = s.report;
  say(s.progress, "sensitivity on " + std::to_string(s.request.held_out) + " held-out images");
  rep.sensitivity = measure_sensitivity(s.linear, s.held_out, s.device);
  rep.ranking = sensitivity_ranking(rep.sensitivity.drops(), rep.sensitivity.mses());
  for (const auto& b : rep.sensitivity.blocks)
    say(s.progress,
        fmt::format("block {}: attention MSE {:.4g}, alone linear {:.2f} % ({:+.2f} pt)", b.block,
                    b.attention_mse, 100.0 * b.held_out_top1, b.drop_points));
}

// The candidates with their held-out top-1 and modelled costs, calibrated on measured points.
void cost_candidates(Session& s, int64_t depth) {
  PlanReport& rep = s.report;
  const ViTConfig& vit = s.linear->config();
  for (auto& c : plan_candidates(depth, rep.ranking, s.window ? s.request.window : 0)) {
    CandidateRow row;
    row.candidate = c;
    if (c.is_teacher())
      row.held_out_top1 = rep.sensitivity.teacher_top1;
    else
      row.held_out_top1 =
          plan_held_out_top1(c.is_window() ? s.window : s.linear, c.plan, s.held_out, s.device);
    row.gmacs = plan_gmacs(vit, c.plan, rep.resolution);
    row.gmacs_native = plan_gmacs(vit, c.plan, rep.native_resolution);
    rep.candidates.push_back(std::move(row));
  }
  rep.costs_native = measure_and_calibrate(s, rep.native_resolution, false);
  rep.costs = measure_and_calibrate(s, rep.resolution, true);
  for (auto& row : rep.candidates) {
    row.predicted_ms = rep.costs.predicted_ms(row.gmacs);
    row.predicted_ms_native = rep.costs_native.predicted_ms(row.gmacs_native);
    row.predicted_bytes =
        rep.costs.predicted_bytes(plan_activation_bytes(vit, row.candidate.plan, rep.resolution));
  }
}

// alpha: from the run's trained all-linear student, where there is one; else uncalibrated.
void alpha_from_run(Session& s, const PlanSource& source, int64_t depth) {
  PlanReport& rep = s.report;
  rep.alpha = uncalibrated_alpha();
  const std::string run_student = source.is_run ? stage_output_path(source.run_dir, 3) : "";
  if (!source.is_run || !fs::exists(run_student)) return;
  VisionTransformer student = load_run_model_for_eval(s.config, run_student, s.device);
  if (!all_of_mode(student->attention_plan(), AttentionMode::Linear)) return;
  s.linear->set_attention_plan(uniform_attention_plan(depth, AttentionMode::Softmax));
  rep.teacher_test_top1 = evaluate_top1(s.linear, s.eval, s.device);
  const double student_top1 = evaluate_top1(student, s.eval, s.device);
  rep.alpha = calibrate_alpha(rep.sensitivity.teacher_top1, all_linear_row(rep).held_out_top1,
                              rep.teacher_test_top1, student_top1);
}

std::vector<PlanCandidate> candidate_list(const PlanReport& rep) {
  std::vector<PlanCandidate> out;
  for (const auto& row : rep.candidates) out.push_back(row.candidate);
  return out;
}

// The plans --train-plans names, checked before anything more trains.
std::vector<std::string> requested_plans(const Session& s, int64_t depth) {
  if (s.request.train_plans.empty()) return {};
  try {
    return requested_candidates(candidate_list(s.report), s.request.train_plans, depth);
  } catch (const std::invalid_argument& e) {
    throw PlanInputError(e.what());
  }
}

// The teacher's trained point: a run's teacher is run (or found) again so that it is recorded.
void record_teacher_point(Session& s, const PlanSource& source, int64_t depth) {
  PlanReport& rep = s.report;
  if (s.teacher_run < 0 || source.is_run) {
    const PlanRunResult t = s.run(s.config, {0}, kTeacherPlan);
    s.teacher_run = t.run_id;
    rep.teacher_test_top1 = t.teacher_top1;
  }
  const AttentionPlan teacher_plan = uniform_attention_plan(depth, AttentionMode::Softmax);
  PlanRunResult t;
  t.run_id = s.teacher_run;
  t.run_dir = fs::path(s.teacher_path).parent_path().string();
  TrainedRow row =
      trained_row(s, kTeacherPlan, teacher_plan, t, s.teacher_path, rep.teacher_test_top1);
  record(s, row, teacher_plan, &rep.candidates[0]);
  rep.trained.push_back(std::move(row));
}

// The plans to train after all-linear: all (--train-all), the named ones and the choice
// (--train-plans), else the choice and its ranked neighbours.
std::vector<std::string> plans_to_train(const Session& s,
                                        const std::vector<std::string>& requested) {
  const PlanReport& rep = s.report;
  std::vector<std::string> names;
  if (s.request.train_all) {
    for (const auto& row : rep.candidates) names.push_back(row.candidate.name);
  } else if (!s.request.train_plans.empty()) {
    names = requested;
    if (const CandidateRow* chosen = rep.chosen()) names.push_back(chosen->candidate.name);
  } else if (const CandidateRow* chosen = rep.chosen()) {
    names.push_back(chosen->candidate.name);
    for (const auto& n :
         ranked_neighbours(candidate_list(rep), rep.ranking, chosen->candidate.name))
      names.push_back(n);
  }
  return names;
}

// Did the choice meet its target on the test split?
void check_chosen_target(Session& s, PlanSessionResult& result) {
  PlanReport& rep = s.report;
  const CandidateRow* chosen = rep.chosen();
  if (!chosen) return;
  for (const auto& t : rep.trained) {
    if (t.name != chosen->candidate.name) continue;
    const bool gap = rep.target.kind == PlanTarget::Kind::Gap;
    const double actual = gap ? t.gap : t.at_res.ms_per_img;
    result.target_met = actual <= rep.target.value + (gap ? 1e-9 : 0.0);
    rep.target_check = fmt::format(
        "Target check: {} {} the target ({}): {} {:.2f}{} (predicted {:.2f}{}).", t.name,
        result.target_met ? "met" : "missed", describe_target(rep.target, rep.resolution),
        gap ? "actual gap on the test split" : "measured", actual, gap ? " pt" : " ms/img",
        gap ? chosen->predicted_gap : chosen->predicted_ms, gap ? " pt" : " ms/img");
    say(s.progress, rep.target_check);
  }
}

// --train: the teacher's point, then all-linear (alpha), then the choice and its neighbours (or
// the plans asked for), measured again side by side, and the target checked.
void train_and_check_plans(Session& s, const PlanSource& source, int64_t depth,
                           const std::vector<std::string>& requested, PlanSessionResult& result) {
  PlanReport& rep = s.report;
  record_teacher_point(s, source, depth);
  train_plan(s, kAllLinearPlan);
  rep.alpha = calibrate_alpha(rep.sensitivity.teacher_top1, all_linear_row(rep).held_out_top1,
                              rep.teacher_test_top1, rep.trained.back().top1);
  say(s.progress, rep.alpha.note);
  compute_predictions(s);
  choose(s);
  for (const auto& name : plans_to_train(s, requested))
    if (name != kTeacherPlan) train_plan(s, name);
  remeasure_trained(s);
  check_chosen_target(s, result);
}

}  // namespace

PlanSessionResult run_plan_session(const PlanRequest& request, const PlanRunner& runner,
                                   std::FILE* progress) {
  check_plan_request(request);
  const PlanSource source = resolve_plan_source(request.source, request.db);
  const ExperimentConfig base = load_plan_base(request, source);
  const bool train = request.train || request.train_all || !request.train_plans.empty();
  const int64_t depth = base.model.depth;

  Session s(request, runner, progress, base);
  start_report(s, source, base);
  open_plan_data(s, base);
  open_output_folder(s, base);
  prepare_students(s, source, base);
  measure_block_sensitivity(s);
  cost_candidates(s, depth);
  alpha_from_run(s, source, depth);
  compute_predictions(s);
  choose(s);
  const std::vector<std::string> requested = requested_plans(s, depth);

  PlanSessionResult result;
  const bool train_named = request.train_all || !request.train_plans.empty();
  if (train && (s.report.choice.index >= 0 || train_named))
    train_and_check_plans(s, source, depth, requested, result);
  PlanReport& rep = s.report;
  if (rep.choice.index < 0) result.target_met = false;
  if (!rep.alpha.calibrated) rep.notes.push_back(rep.alpha.note);
  write_plan_report(rep, s.out);
  result.report = rep;
  result.out_dir = s.out;
  return result;
}

}  // namespace adala::plan
