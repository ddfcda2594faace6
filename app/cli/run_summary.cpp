#include "app/cli/run_summary.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/core/device.h"

namespace adala::cli {

namespace {
std::string pct(double v) {
  if (std::isnan(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", 100.0 * v);
  return buf;
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
    char gap[32];
    std::snprintf(gap, sizeof gap, "%+.2f", 100.0 * (r.student_top1 - r.teacher_top1));
    md << "\nGap to the teacher: " << gap << " points.\n";
  }
  md << "\n| stage | wall time (s) |\n|---|---|\n";
  for (const auto& [stage, seconds] : r.stage_seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", seconds);
    md << "| " << stage << " | " << buf << " |\n";
  }
  return md.str();
}

}  // namespace adala::cli
