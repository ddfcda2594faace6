// `adala ablate`: the paper's ablation on one data set and one budget.
//   (a) teacher (softmax)  (b) naive swap, Stage 3 only  (c) Stage 2 + 3  (d) Stage 1 + 2 + 3
//   (e) Stage 1 + 3 (the paper's "Stage 1 only")  (f) Stage 1 + 2 + 3 with only the linear
//   attention's q/k/v trained in Stage 2 (the paper's "tuning only QKV")
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "app/cli/table_cells.h"
#include "app/cli/tracked_run.h"
#include "engine/train/pipeline.h"

namespace adala::cli {

namespace {

struct Variant {
  std::string key, label;
  std::vector<int> stages;
  PipelineResult result;
  std::vector<StepMetrics> stage2;
};

// What `adala ablate` was given.
struct AblateArgs {
  std::string config_path, device, out_dir, db, teacher_weights;
  CLI::Option* out_option = nullptr;
  CLI::Option* teacher_option = nullptr;
};

void declare_ablate(CLI::App& app, AblateArgs& a) {
  app.add_option("CONFIG", a.config_path, "the experiment (experiments/*.json)")->required();
  a.out_option = app.add_option("--out", a.out_dir,
                                "the output folder (default: a new run folder + -ablation)");
  a.teacher_option =
      app.add_option("--teacher", a.teacher_weights,
                     "trained teacher weights for (a), e.g. a run's teacher.safetensors");
  app.add_option("--device", a.device, "auto, cpu or cuda");
  app.add_option("--db", a.db, "the run database, or none");
}

// (f): the same document with stages.feature_alignment.trainable = "qkv", re-validated.
ExperimentConfig qkv_only_config(const ExperimentConfig& config,
                                 const std::string& teacher_weights) {
  Json qkv_doc = config.source;
  qkv_doc["teacher"] = Json::object();
  qkv_doc["teacher"]["weights"] = Json(teacher_weights);
  if (!qkv_doc.contains("stages") || !qkv_doc["stages"].is_object())
    qkv_doc["stages"] = Json::object();
  if (!qkv_doc["stages"].contains("feature_alignment"))
    qkv_doc["stages"]["feature_alignment"] = Json::object();
  qkv_doc["stages"]["feature_alignment"]["trainable"] = Json("qkv");
  return parse_experiment_config(qkv_doc);
}

// (a) the teacher and (b)-(f), each as a tracked run in out.
struct Ablation {
  PipelineResult teacher;
  std::vector<Variant> variants;
};

Ablation run_ablation(const ExperimentConfig& config, const AblateArgs& a, const std::string& out) {
  TrackedRunOptions tracking;
  tracking.db_path = a.db;
  tracking.tags = {"ablation", "ablation:" + std::filesystem::path(out).filename().string()};
  auto run_variant = [&](const ExperimentConfig& c, const std::vector<int>& stages,
                         const std::string& key, RecordingSink& record) {
    TrackedRunOptions t = tracking;
    t.extra_sink = &record;
    return run_tracked_variant(c, stages, out, key, a.device, t, "variant:" + key, "ablation")
        .pipeline;
  };
  Ablation ablation;
  RecordingSink teacher_record;
  ExperimentConfig teacher_config = config;
  if (a.teacher_option->count()) teacher_config.teacher_weights = a.teacher_weights;
  ablation.teacher = run_variant(teacher_config, {0}, "a-teacher", teacher_record);

  ablation.variants = {
      {"b", "naive swap (Stage 3 only)", {3}, {}, {}},
      {"c", "Stage 2 + 3", {2, 3}, {}, {}},
      {"d", "Stage 1 + 2 + 3 (ViT-AdaLA)", {1, 2, 3}, {}, {}},
      {"e", "Stage 1 + 3 (Stage 1 only)", {1, 3}, {}, {}},
      {"f", "Stage 1 + 2 + 3 with only q/k/v trained in Stage 2", {1, 2, 3}, {}, {}}};
  ExperimentConfig student_config = config;
  student_config.teacher_weights = stage_output_path(ablation.teacher.run_dir, 0);
  const ExperimentConfig qkv_config = qkv_only_config(config, student_config.teacher_weights);
  for (auto& v : ablation.variants) {
    std::fprintf(stderr, "\n##### variant (%s) %s\n", v.key.c_str(), v.label.c_str());
    RecordingSink record;
    v.result = run_variant(v.key == "f" ? qkv_config : student_config, v.stages, v.key, record);
    v.stage2 = record.steps(stage_name(2));
  }
  return ablation;
}

// The top-1 table: its Markdown rows into md, the same rows into OUT/ablation.csv.
void add_variant_table(std::ostream& md, const Ablation& ablation, const std::string& out) {
  const PipelineResult& teacher = ablation.teacher;
  md << "| (a) teacher (softmax) | " << percent_cell(teacher.teacher_top1) << " | 0.00 |\n";
  std::ofstream csv(out + "/ablation.csv");
  csv << "variant,label,top1,gap_points\n";
  csv << "a,teacher (softmax)," << teacher.teacher_top1 << ",0\n";
  for (const auto& v : ablation.variants) {
    const double gap = 100.0 * (v.result.student_top1 - teacher.teacher_top1);
    md << "| (" << v.key << ") " << v.label << " | " << percent_cell(v.result.student_top1) << " | "
       << fmt::format("{:+.2f}", gap) << " |\n";
    csv << v.key << "," << v.label << "," << v.result.student_top1 << "," << gap << "\n";
  }
}

// Stage-2 curves of (c) and (d), logged at the same steps: every point into
// OUT/stage2_curves.csv, about ten of them and the count of (d) below (c) into md.
void add_stage2_curves(std::ostream& md, const std::vector<StepMetrics>& c2,
                       const std::vector<StepMetrics>& d2, const std::string& out) {
  std::ofstream curves(out + "/stage2_curves.csv");
  curves << "step,loss_stage2_only,loss_stage1_then_2\n";
  size_t points = std::min(c2.size(), d2.size()), after = 0, d_below = 0;
  for (size_t i = 0; i < points; ++i) {
    curves << c2[i].step << "," << c2[i].loss << "," << d2[i].loss << "\n";
    if (c2[i].step > c2.back().total_steps / 10) {
      ++after;
      d_below += d2[i].loss < c2[i].loss;
    }
  }
  md << "\nStage-2 feature MSE, (c) Stage 2 only vs (d) Stage 1 then 2 (" << points
     << " logged points):\n\n";
  md << "| step | (c) | (d) |\n|---|---|---|\n";
  const size_t stride = std::max<size_t>(1, points / 10);
  for (size_t i = 0; i < points; i += stride)
    md << "| " << c2[i].step << " | " << c2[i].loss << " | " << d2[i].loss << " |\n";
  if (points && (points - 1) % stride != 0)
    md << "| " << c2[points - 1].step << " | " << c2[points - 1].loss << " | "
       << d2[points - 1].loss << " |\n";
  md << "\n(d) below (c) at " << d_below << " of " << after
     << " logged points after the first 10% of steps.\n";
}

}  // namespace

int ablate_command(const Args& args) {
  CLI::App app{
      "The paper's ablation on one data set and one budget: (a) teacher, (b) naive swap (Stage 3 "
      "only), (c) Stage 2+3, (d) Stage 1+2+3, (e) Stage 1+3 (\"Stage 1 only\"), (f) Stage 1+2+3 "
      "with only q/k/v trained in Stage 2. Writes ablation.md, ablation.csv and "
      "stage2_curves.csv.",
      "adala ablate"};
  prepare_command_app(app);
  AblateArgs a;
  declare_ablate(app, a);
  if (!parse_command_line(app, args)) return 0;
  ExperimentConfig config = load_experiment_config(a.config_path);
  if (config.method != LinearisationMethod::Adala)
    throw UsageError(std::string("ablate runs ViT-AdaLA's stages, but the config's method is \"") +
                     to_string(config.method) + "\" (compare methods with adala compare-methods)");
  const std::string out = a.out_option->count() ? a.out_dir : make_run_dir(config, "-ablation");
  std::filesystem::create_directories(out);

  const Ablation ablation = run_ablation(config, a, out);
  std::ostringstream md;
  md << "# ViT-AdaLA ablation: " << config.name
     << "\n\n| variant | top-1 (%) | gap to teacher (pt) |\n|---|---|---|\n";
  add_variant_table(md, ablation, out);
  add_stage2_curves(md, ablation.variants[1].stage2, ablation.variants[2].stage2, out);
  std::ofstream(out + "/ablation.md") << md.str();
  std::printf("%s\nwritten: %s/ablation.md, ablation.csv, stage2_curves.csv\n", md.str().c_str(),
              out.c_str());
  return 0;
}

}  // namespace adala::cli
