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

}  // namespace

int ablate_command(const Args& args) {
  CLI::App app{
      "The paper's ablation on one data set and one budget: (a) teacher, (b) naive swap (Stage 3 "
      "only), (c) Stage 2+3, (d) Stage 1+2+3, (e) Stage 1+3 (\"Stage 1 only\"), (f) Stage 1+2+3 "
      "with only q/k/v trained in Stage 2. Writes ablation.md, ablation.csv and "
      "stage2_curves.csv.",
      "adala ablate"};
  prepare_command_app(app);
  std::string config_path, device, out_dir, db, teacher_weights;
  app.add_option("CONFIG", config_path, "the experiment (experiments/*.json)")->required();
  CLI::Option* out_option =
      app.add_option("--out", out_dir, "the output folder (default: a new run folder + -ablation)");
  CLI::Option* teacher_option =
      app.add_option("--teacher", teacher_weights,
                     "trained teacher weights for (a), e.g. a run's teacher.safetensors");
  app.add_option("--device", device, "auto, cpu or cuda");
  app.add_option("--db", db, "the run database, or none");
  if (!parse_command_line(app, args)) return 0;
  ExperimentConfig config = load_experiment_config(config_path);
  if (config.method != LinearisationMethod::Adala)
    throw UsageError(std::string("ablate runs ViT-AdaLA's stages, but the config's method is \"") +
                     to_string(config.method) + "\" (compare methods with adala compare-methods)");
  const std::string out = out_option->count() ? out_dir : make_run_dir(config, "-ablation");
  std::filesystem::create_directories(out);

  TrackedRunOptions tracking;
  tracking.db_path = db;
  tracking.tags = {"ablation", "ablation:" + std::filesystem::path(out).filename().string()};
  auto run_variant = [&](const ExperimentConfig& c, const std::vector<int>& stages,
                         const std::string& key, RecordingSink& record) {
    TrackedRunOptions t = tracking;
    t.extra_sink = &record;
    return run_tracked_variant(c, stages, out, key, device, t, "variant:" + key, "ablation")
        .pipeline;
  };
  RecordingSink teacher_record;
  ExperimentConfig teacher_config = config;
  if (teacher_option->count()) teacher_config.teacher_weights = teacher_weights;
  PipelineResult teacher = run_variant(teacher_config, {0}, "a-teacher", teacher_record);

  std::vector<Variant> variants = {
      {"b", "naive swap (Stage 3 only)", {3}, {}, {}},
      {"c", "Stage 2 + 3", {2, 3}, {}, {}},
      {"d", "Stage 1 + 2 + 3 (ViT-AdaLA)", {1, 2, 3}, {}, {}},
      {"e", "Stage 1 + 3 (Stage 1 only)", {1, 3}, {}, {}},
      {"f", "Stage 1 + 2 + 3 with only q/k/v trained in Stage 2", {1, 2, 3}, {}, {}}};
  ExperimentConfig student_config = config;
  student_config.teacher_weights = stage_output_path(teacher.run_dir, 0);
  // (f): the same document with stages.feature_alignment.trainable = "qkv", re-validated.
  Json qkv_doc = config.source;
  qkv_doc["teacher"] = Json::object();
  qkv_doc["teacher"]["weights"] = Json(student_config.teacher_weights);
  if (!qkv_doc.contains("stages") || !qkv_doc["stages"].is_object())
    qkv_doc["stages"] = Json::object();
  if (!qkv_doc["stages"].contains("feature_alignment"))
    qkv_doc["stages"]["feature_alignment"] = Json::object();
  qkv_doc["stages"]["feature_alignment"]["trainable"] = Json("qkv");
  const ExperimentConfig qkv_config = parse_experiment_config(qkv_doc);
  for (auto& v : variants) {
    std::fprintf(stderr, "\n##### variant (%s) %s\n", v.key.c_str(), v.label.c_str());
    RecordingSink record;
    v.result = run_variant(v.key == "f" ? qkv_config : student_config, v.stages, v.key, record);
    v.stage2 = record.steps(stage_name(2));
  }

  std::ostringstream md;
  md << "# ViT-AdaLA ablation: " << config.name
     << "\n\n| variant | top-1 (%) | gap to teacher (pt) |\n|---|---|---|\n";
  md << "| (a) teacher (softmax) | " << percent_cell(teacher.teacher_top1) << " | 0.00 |\n";
  std::ofstream csv(out + "/ablation.csv");
  csv << "variant,label,top1,gap_points\n";
  csv << "a,teacher (softmax)," << teacher.teacher_top1 << ",0\n";
  for (const auto& v : variants) {
    const double gap = 100.0 * (v.result.student_top1 - teacher.teacher_top1);
    md << "| (" << v.key << ") " << v.label << " | " << percent_cell(v.result.student_top1) << " | "
       << fmt::format("{:+.2f}", gap) << " |\n";
    csv << v.key << "," << v.label << "," << v.result.student_top1 << "," << gap << "\n";
  }
  // Stage-2 curves of (c) and (d), logged at the same steps.
  const auto& c2 = variants[1].stage2;
  const auto& d2 = variants[2].stage2;
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
  std::ofstream(out + "/ablation.md") << md.str();
  std::printf("%s\nwritten: %s/ablation.md, ablation.csv, stage2_curves.csv\n", md.str().c_str(),
              out.c_str());
  return 0;
}

}  // namespace adala::cli
