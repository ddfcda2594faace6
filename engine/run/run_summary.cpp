#include "engine/run/run_summary.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/runtime/device.h"

namespace adala {

namespace {
std::string pct(double v) {
  if (std::isnan(v)) return "n/a";
  return fmt::format("{:.2f}%", 100.0 * v);
}
}  // namespace

std::string run_summary_markdown(const ExperimentConfig& c, const PipelineResult& r) {
  std::ostringstream md;
  md << "# ViT-AdaLA run: " << c.name << "\n\n";
  md << "- run folder: `" << r.run_dir << "`\n- device: " << r.device << "\n- LibTorch "
     << torch_version_string() << "\n- model: " << c.model.name << " (dim " << c.model.embed_dim
     << ", depth " << c.model.depth << ", heads " << c.model.num_heads << ", patch "
     << c.model.patch_size << ", image " << c.model.img_size << ")\n\n";
  md << "| model | top-1 |\n|---|---|\n";
  md << "| teacher (softmax) | " << pct(r.teacher_top1) << " |\n";
  md << "| ViT-AdaLA student (linear) | " << pct(r.student_top1) << " |\n";
  if (!std::isnan(r.teacher_top1) && !std::isnan(r.student_top1)) {
    md << fmt::format("\nGap to the teacher: {:+.2f} points.\n",
                      100.0 * (r.student_top1 - r.teacher_top1));
  }
  md << "\n| stage | wall time (s) |\n|---|---|\n";
  for (const auto& [stage, seconds] : r.stage_seconds) {
    md << fmt::format("| {} | {:.1f} |\n", stage, seconds);
  }
  return md.str();
}

std::string run_summary_path(const std::string& run_dir) { return run_dir + "/summary.md"; }

std::string write_run_summary(const ExperimentConfig& config, const PipelineResult& result) {
  const std::string path = run_summary_path(result.run_dir);
  std::ofstream out(path);
  out << run_summary_markdown(config, result);
  out.close();
  if (!out) throw std::runtime_error("could not write the run summary " + path);
  return path;
}

}  // namespace adala
