// `adala compare-methods`: linearisation methods (engine/train/linearisation_method.h) on one
// model, one data set and one budget, from one shared teacher: top-1, gap to the teacher, and
// inference cost (ms/img, peak memory) at the config's resolution and at 4x its side.
#include <ATen/ATen.h>
#include <torch/utils.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/table_cells.h"
#include "app/cli/tracked_run.h"
#include "engine/runtime/device.h"
#include "engine/model/vision_transformer.h"
#include "engine/measure/bench_common.h"
#include "engine/plan/plan_measure.h"
#include "engine/run/run_session.h"
#include "engine/train/linearisation_method.h"
#include "engine/train/pipeline.h"
#include "engine/train/run_model.h"
#include "engine/store/run_store.h"

namespace adala::cli {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Inference cost of one model at one resolution: batch 1, median of the timed runs, and the
// allocator's peak above the weights and the input.
struct Cost {
  int64_t resolution = 0;
  double ms_per_img = kNaN;
  int64_t peak_bytes = -1;
};

struct Row {
  std::string method;  // "teacher" for the softmax teacher
  int64_t run = -1;
  std::string run_dir;
  double top1 = kNaN;
  std::vector<Cost> costs;  // at the config's resolution, then at 4x its side
};

Cost measure(VisionTransformer& model, int64_t resolution, const c10::Device& device, int repeats) {
  const PlanCost c = plan::measure_plan_cost(model, resolution, device, repeats);
  return {c.resolution, c.ms_per_img, int64_t(c.peak_bytes)};
}

std::vector<LinearisationMethod> parse_methods(const std::string& list) {
  std::vector<LinearisationMethod> out;
  std::stringstream ss(list);
  std::string name;
  while (std::getline(ss, name, ',')) {
    if (name.empty()) throw UsageError("--methods: empty name in \"" + list + "\"");
    LinearisationMethod m;
    try {
      m = linearisation_method_from_string(name);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--methods: ") + e.what());
    }
    for (auto seen : out)
      if (seen == m) throw UsageError("--methods: \"" + name + "\" is listed twice");
    out.push_back(m);
  }
  if (out.empty()) throw UsageError("--methods: no method given");
  return out;
}

// The experiment as the method runs it: the config's document with "method" set, re-validated;
// lolcats, hedgehog and performer bring their own feature map, so the config's
// model.feature_map is left to the methods that use it.
ExperimentConfig method_config(const ExperimentConfig& base, LinearisationMethod m,
                               const std::string& teacher_path) {
  Json doc = base.source;
  doc["method"] = Json(to_string(m));
  if (!method_feature_map(m).empty() && doc.contains("model") && doc["model"].is_object())
    doc["model"].erase("feature_map");
  if (!doc.contains("teacher") || !doc["teacher"].is_object()) doc["teacher"] = Json::object();
  doc["teacher"]["weights"] = Json(teacher_path);
  return parse_experiment_config(doc);
}

// The methods for the help: "name (summary), ...", "a,b" (--methods' default) and "a, b".
struct MethodNames {
  std::string described, names, listed;
};

MethodNames method_names() {
  MethodNames out;
  for (const auto& m : kLinearisationMethods) {
    out.described += fmt::format("{}{} ({})", out.described.empty() ? "" : ", ", m.name, m.summary);
    out.names += (out.names.empty() ? "" : ",") + std::string(m.name);
    out.listed += (out.listed.empty() ? "" : ", ") + std::string(m.name);
  }
  return out;
}

// What `adala compare-methods` was given.
struct CompareMethodsArgs {
  std::string config_path, device_name, out_dir, db, methods_list;
  int repeats = 5;
  CLI::Option* out_option = nullptr;
};

void declare_compare_methods(CLI::App& app, CompareMethodsArgs& a, const MethodNames& methods) {
  a.methods_list = methods.names;
  app.add_option("CONFIG", a.config_path, "the experiment (experiments/*.json)")->required();
  app.add_option("--methods", a.methods_list, "comma-separated: " + methods.listed)
      ->capture_default_str();
  a.out_option = app.add_option("--out", a.out_dir,
                                "the output folder (default: a new run folder + -comparison)");
  app.add_option("--device", a.device_name, "auto, cpu or cuda");
  app.add_option("--db", a.db, "the run database, or none");
  app.add_option("--repeats", a.repeats, "timed forward passes per cost point (median)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
}

// The trained rows (the teacher first) and the experiment each was trained with.
struct TrainedMethods {
  std::vector<Row> rows;
  std::vector<ExperimentConfig> configs;
};

// Stage 0 once (trained, or the config's teacher.weights); every method starts from it.
TrainedMethods train_methods(const ExperimentConfig& config,
                             const std::vector<LinearisationMethod>& methods,
                             const CompareMethodsArgs& a, const std::string& out) {
  const std::string folder = std::filesystem::path(out).filename().string();
  TrackedRunOptions tracking;
  tracking.db_path = a.db;
  tracking.tags = {"comparison", "comparison:" + folder};
  auto run = [&](const ExperimentConfig& c, const std::vector<int>& stages,
                 const std::string& key) {
    return run_tracked_variant(c, stages, out, key, a.device_name, tracking, "method:" + key,
                               "comparison");
  };

  std::fprintf(stderr, "\n##### teacher (Stage 0, shared)\n");
  const TrackedRunResult teacher_run = run(config, {0}, "teacher");
  const std::string teacher_path = stage_output_path(teacher_run.pipeline.run_dir, 0);
  TrainedMethods trained;
  trained.rows.push_back({"teacher",
                          teacher_run.run_id,
                          teacher_run.pipeline.run_dir,
                          teacher_run.pipeline.teacher_top1,
                          {}});
  trained.configs = {config};
  for (auto m : methods) {
    std::fprintf(stderr, "\n##### method %s\n", to_string(m));
    ExperimentConfig c = method_config(config, m, teacher_path);
    const TrackedRunResult r = run(c, {0, 1, 2, 3}, to_string(m));
    trained.rows.push_back(
        {to_string(m), r.run_id, r.pipeline.run_dir, r.pipeline.student_top1, {}});
    trained.configs.push_back(c);
  }
  return trained;
}

// Inference cost, one model at a time, after all training (the same machine state for all).
void measure_costs(TrainedMethods& trained, const c10::Device& device, int64_t res, int repeats) {
  for (size_t i = 0; i < trained.rows.size(); ++i) {
    const bool is_teacher = i == 0;
    Row& row = trained.rows[i];
    const ExperimentConfig& config = trained.configs[i];
    VisionTransformer model =
        load_run_model_for_eval(config, stage_output_path(row.run_dir, is_teacher ? 0 : 3), device);
    if (is_teacher)
      model->set_attention_mode(AttentionMode::Softmax);
    else
      model->set_attention_plan(student_attention_plan(config));
    for (int64_t r : {res, 4 * res}) row.costs.push_back(measure(model, r, device, repeats));
  }
}

void record_costs(const std::string& db, const std::vector<Row>& rows) {
  if (db == RunSession::kNoDatabase) return;
  store::RunStore store(db.empty() ? store::RunStore::default_path() : db);
  for (const auto& row : rows) {
    if (row.run < 0) continue;
    for (const auto& cost : row.costs) {
      const std::string at = std::to_string(cost.resolution);
      store.add_evaluation(row.run, "comparison", "ms_per_img@" + at, cost.ms_per_img);
      store.add_evaluation(row.run, "comparison", "peak_bytes@" + at, double(cost.peak_bytes));
    }
  }
}

void add_markdown_row(std::ostream& md, const Row& row, double gap) {
  md << "| " << (row.method == "teacher" ? "teacher (softmax)" : row.method) << " | "
     << (row.run < 0 ? std::string("-") : "#" + std::to_string(row.run)) << " | "
     << percent_cell(row.top1) << " | "
     << (std::isnan(gap) ? std::string("-") : fmt::format("{:+.2f}", gap)) << " | "
     << fmt::format("{:.2f}", row.costs[0].ms_per_img) << " | "
     << megabytes_cell(row.costs[0].peak_bytes) << " | "
     << fmt::format("{:.2f}", row.costs[1].ms_per_img) << " | "
     << megabytes_cell(row.costs[1].peak_bytes) << " |\n";
}

void add_csv_row(std::ostream& csv, const Row& row, double gap) {
  csv << row.method << "," << row.run << "," << fmt::format("{}", row.top1) << ","
      << fmt::format("{}", gap) << "," << row.costs[0].resolution << ","
      << fmt::format("{}", row.costs[0].ms_per_img) << "," << row.costs[0].peak_bytes << ","
      << row.costs[1].resolution << "," << fmt::format("{}", row.costs[1].ms_per_img) << ","
      << row.costs[1].peak_bytes << "\n";
}

// Writes OUT/comparison.csv and OUT/comparison.md; returns the Markdown.
std::string write_comparison(const std::string& name, const std::vector<Row>& rows,
                             const c10::Device& device, int64_t res, int repeats,
                             const std::string& out) {
  const double teacher_top1 = rows[0].top1;
  std::ostringstream md;
  md << "# Linearisation methods: " << name << "\n\nSame data and budget, one shared "
     << "teacher; cost: batch 1 on " << device.str() << ", median of " << repeats
     << " forward passes, peak = allocator bytes above weights and input.\n\n";
  md << "| method | run | top-1 (%) | gap to teacher (pt) | ms/img @" << res << " | peak MB @"
     << res << " | ms/img @" << 4 * res << " | peak MB @" << 4 * res << " |\n";
  md << "|---|---|---|---|---|---|---|---|\n";
  std::ofstream csv(out + "/comparison.csv");
  csv << "method,run,top1,gap_points,resolution,ms_per_img,peak_bytes,resolution_4x,"
         "ms_per_img_4x,peak_bytes_4x\n";
  for (const auto& row : rows) {
    const double gap = row.method == "teacher" ? 0.0 : 100.0 * (row.top1 - teacher_top1);
    add_markdown_row(md, row, gap);
    add_csv_row(csv, row, gap);
  }
  md << "\n" << machine_conditions() << "\n";
  std::ofstream(out + "/comparison.md") << md.str();
  return md.str();
}

}  // namespace

int compare_methods_command(const Args& args) {
  const MethodNames names = method_names();
  CLI::App app{
      "Linearisation methods on the same model, data and budget, from one shared teacher (Stage "
      "0 runs once): " +
          names.described +
          ". Writes comparison.md and comparison.csv: top-1, gap to the teacher, ms/img and peak "
          "memory at the config's resolution and at 4x its side. Each method's run is recorded "
          "with the tags \"comparison:<folder>\" and \"method:<name>\".",
      "adala compare-methods"};
  prepare_command_app(app);
  CompareMethodsArgs a;
  declare_compare_methods(app, a, names);
  if (!parse_command_line(app, args)) return 0;
  const std::vector<LinearisationMethod> methods = parse_methods(a.methods_list);
  ExperimentConfig config = load_experiment_config(a.config_path);
  const std::string out = a.out_option->count() ? a.out_dir : make_run_dir(config, "-comparison");
  std::filesystem::create_directories(out);

  TrainedMethods trained = train_methods(config, methods, a, out);
  const c10::Device device = resolve_device(a.device_name.empty() ? config.device : a.device_name);
  const int64_t res = config.model.img_size;
  measure_costs(trained, device, res, a.repeats);
  record_costs(a.db, trained.rows);

  const std::string md = write_comparison(config.name, trained.rows, device, res, a.repeats, out);
  std::printf("%s\nwritten: %s/comparison.md, comparison.csv\n", md.c_str(), out.c_str());
  return 0;
}

}  // namespace adala::cli
