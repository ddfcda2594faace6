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
#include "engine/analysis/bench_common.h"
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

}  // namespace

int compare_methods_command(const Args& args) {
  std::string described, names, listed;
  for (const auto& m : kLinearisationMethods) {
    described += fmt::format("{}{} ({})", described.empty() ? "" : ", ", m.name, m.summary);
    names += (names.empty() ? "" : ",") + std::string(m.name);
    listed += (listed.empty() ? "" : ", ") + std::string(m.name);
  }
  CLI::App app{
      "Linearisation methods on the same model, data and budget, from one shared teacher (Stage "
      "0 runs once): " +
          described +
          ". Writes comparison.md and comparison.csv: top-1, gap to the teacher, ms/img and peak "
          "memory at the config's resolution and at 4x its side. Each method's run is recorded "
          "with the tags \"comparison:<folder>\" and \"method:<name>\".",
      "adala compare-methods"};
  prepare_command_app(app);
  std::string config_path, device_name, out_dir, db, methods_list = names;
  int repeats = 5;
  app.add_option("CONFIG", config_path, "the experiment (experiments/*.json)")->required();
  app.add_option("--methods", methods_list, "comma-separated: " + listed)->capture_default_str();
  CLI::Option* out_option = app.add_option(
      "--out", out_dir, "the output folder (default: a new run folder + -comparison)");
  app.add_option("--device", device_name, "auto, cpu or cuda");
  app.add_option("--db", db, "the run database, or none");
  app.add_option("--repeats", repeats, "timed forward passes per cost point (median)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  if (!parse_command_line(app, args)) return 0;
  const std::vector<LinearisationMethod> methods = parse_methods(methods_list);
  ExperimentConfig config = load_experiment_config(config_path);
  const std::string out = out_option->count() ? out_dir : make_run_dir(config, "-comparison");
  std::filesystem::create_directories(out);
  const std::string folder = std::filesystem::path(out).filename().string();

  TrackedRunOptions tracking;
  tracking.db_path = db;
  tracking.tags = {"comparison", "comparison:" + folder};
  auto run = [&](const ExperimentConfig& c, const std::vector<int>& stages,
                 const std::string& key) {
    return run_tracked_variant(c, stages, out, key, device_name, tracking, "method:" + key,
                               "comparison");
  };

  // Stage 0 once (trained, or the config's teacher.weights); every method starts from it.
  std::fprintf(stderr, "\n##### teacher (Stage 0, shared)\n");
  const TrackedRunResult teacher_run = run(config, {0}, "teacher");
  const std::string teacher_path = stage_output_path(teacher_run.pipeline.run_dir, 0);
  std::vector<Row> rows;
  rows.push_back({"teacher",
                  teacher_run.run_id,
                  teacher_run.pipeline.run_dir,
                  teacher_run.pipeline.teacher_top1,
                  {}});
  std::vector<ExperimentConfig> configs = {config};
  for (auto m : methods) {
    std::fprintf(stderr, "\n##### method %s\n", to_string(m));
    ExperimentConfig c = method_config(config, m, teacher_path);
    const TrackedRunResult r = run(c, {0, 1, 2, 3}, to_string(m));
    rows.push_back({to_string(m), r.run_id, r.pipeline.run_dir, r.pipeline.student_top1, {}});
    configs.push_back(c);
  }

  // Inference cost, one model at a time, after all training (the same machine state for all).
  const c10::Device device = resolve_device(device_name.empty() ? config.device : device_name);
  const int64_t res = config.model.img_size;
  for (size_t i = 0; i < rows.size(); ++i) {
    const bool is_teacher = i == 0;
    VisionTransformer model = load_run_model_for_eval(
        configs[i], stage_output_path(rows[i].run_dir, is_teacher ? 0 : 3), device);
    if (is_teacher)
      model->set_attention_mode(AttentionMode::Softmax);
    else
      model->set_attention_plan(student_attention_plan(configs[i]));
    for (int64_t r : {res, 4 * res}) rows[i].costs.push_back(measure(model, r, device, repeats));
  }

  if (db != RunSession::kNoDatabase) {
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

  const double teacher_top1 = rows[0].top1;
  std::ostringstream md;
  md << "# Linearisation methods: " << config.name << "\n\nSame data and budget, one shared "
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
    md << "| " << (row.method == "teacher" ? "teacher (softmax)" : row.method) << " | "
       << (row.run < 0 ? std::string("-") : "#" + std::to_string(row.run)) << " | "
       << percent_cell(row.top1) << " | "
       << (std::isnan(gap) ? std::string("-") : fmt::format("{:+.2f}", gap)) << " | "
       << fmt::format("{:.2f}", row.costs[0].ms_per_img) << " | "
       << megabytes_cell(row.costs[0].peak_bytes) << " | "
       << fmt::format("{:.2f}", row.costs[1].ms_per_img) << " | "
       << megabytes_cell(row.costs[1].peak_bytes) << " |\n";
    csv << row.method << "," << row.run << "," << fmt::format("{}", row.top1) << ","
        << fmt::format("{}", gap) << "," << row.costs[0].resolution << ","
        << fmt::format("{}", row.costs[0].ms_per_img) << "," << row.costs[0].peak_bytes << ","
        << row.costs[1].resolution << "," << fmt::format("{}", row.costs[1].ms_per_img) << ","
        << row.costs[1].peak_bytes << "\n";
  }
  md << "\n" << machine_conditions() << "\n";
  std::ofstream(out + "/comparison.md") << md.str();
  std::printf("%s\nwritten: %s/comparison.md, comparison.csv\n", md.str().c_str(), out.c_str());
  return 0;
}

}  // namespace adala::cli
