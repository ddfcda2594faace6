// `adala ablate`: the paper's ablation on one data set and one budget.
//   (a) teacher (softmax)  (b) naive swap, Stage 3 only  (c) Stage 2 + 3  (d) Stage 1 + 2 + 3
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
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

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", 100.0 * v);
  return b;
}

}  // namespace

int ablate_command(const Args& args) {
  ArgParser p;
  p.option("device", "").option("out", "").option("db", "").option("teacher", "").flag("help");
  p.parse(args);
  if (p.flag_set("help") || p.positional().size() != 1) {
    std::printf(
        "usage: adala ablate CONFIG.json [--out DIR] [--teacher FILE] [--device auto|cpu|cuda] [--db FILE|none]\n"
        "  --teacher reuses trained teacher weights (e.g. a run's teacher.safetensors) for (a).\n"
        "  (a) teacher, (b) naive swap (Stage 3 only), (c) Stage 2+3, (d) Stage 1+2+3, on the\n"
        "  same data and budget. Writes ablation.md / ablation.csv / stage2_curves.csv.\n");
    return p.flag_set("help") ? 0 : 2;
  }
  ExperimentConfig config = load_experiment_config(p.positional()[0]);
  const std::string out = p.has("out") ? p.get("out") : make_run_dir(config) + "-ablation";
  std::filesystem::create_directories(out);

  TrackedRunOptions tracking;
  tracking.db_path = p.get("db");
  tracking.tags = {"ablation", "ablation:" + std::filesystem::path(out).filename().string()};
  auto run_variant = [&](const ExperimentConfig& c, const std::vector<int>& stages, const std::string& key,
                         RecordingSink& record) {
    PipelineOptions o;
    o.stages = stages;
    o.run_dir = out + "/" + key;
    o.device = p.get("device");
    TrackedRunOptions t = tracking;
    t.tags.push_back("variant:" + key);
    t.extra_sink = &record;
    TrackedRunResult r = run_tracked(c, o, t);
    if (r.cancelled) throw std::runtime_error("ablation interrupted in variant " + key + "; partial results in " + out);
    return r.pipeline;
  };
  RecordingSink teacher_record;
  ExperimentConfig teacher_config = config;
  if (p.has("teacher")) teacher_config.teacher_weights = p.get("teacher");
  PipelineResult teacher = run_variant(teacher_config, {0}, "a-teacher", teacher_record);

  std::vector<Variant> variants = {{"b", "naive swap (Stage 3 only)", {3}, {}, {}},
                                   {"c", "Stage 2 + 3", {2, 3}, {}, {}},
                                   {"d", "Stage 1 + 2 + 3 (ViT-AdaLA)", {1, 2, 3}, {}, {}}};
  ExperimentConfig student_config = config;
  student_config.teacher_weights = stage_output_path(teacher.run_dir, 0);
  for (auto& v : variants) {
    std::fprintf(stderr, "\n##### variant (%s) %s\n", v.key.c_str(), v.label.c_str());
    RecordingSink record;
    v.result = run_variant(student_config, v.stages, v.key, record);
    v.stage2 = record.steps(stage_name(2));
  }

  std::ostringstream md;
  md << "# ViT-AdaLA ablation: " << config.name << "\n\n| variant | top-1 (%) | gap to teacher (pt) |\n|---|---|---|\n";
  md << "| (a) teacher (softmax) | " << pct(teacher.teacher_top1) << " | 0.00 |\n";
  std::ofstream csv(out + "/ablation.csv");
  csv << "variant,label,top1,gap_points\n";
  csv << "a,teacher (softmax)," << teacher.teacher_top1 << ",0\n";
  for (const auto& v : variants) {
    const double gap = 100.0 * (v.result.student_top1 - teacher.teacher_top1);
    char g[32];
    std::snprintf(g, sizeof g, "%+.2f", gap);
    md << "| (" << v.key << ") " << v.label << " | " << pct(v.result.student_top1) << " | " << g << " |\n";
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
  md << "\nStage-2 feature MSE, (c) Stage 2 only vs (d) Stage 1 then 2 (" << points << " logged points):\n\n";
  md << "| step | (c) | (d) |\n|---|---|---|\n";
  const size_t stride = std::max<size_t>(1, points / 10);
  for (size_t i = 0; i < points; i += stride)
    md << "| " << c2[i].step << " | " << c2[i].loss << " | " << d2[i].loss << " |\n";
  if (points && (points - 1) % stride != 0) md << "| " << c2[points - 1].step << " | " << c2[points - 1].loss << " | " << d2[points - 1].loss << " |\n";
  md << "\n(d) below (c) at " << d_below << " of " << after << " logged points after the first 10% of steps.\n";
  std::ofstream(out + "/ablation.md") << md.str();
  std::printf("%s\nwritten: %s/ablation.md, ablation.csv, stage2_curves.csv\n", md.str().c_str(), out.c_str());
  return 0;
}

}  // namespace adala::cli
