#include "engine/plan/plan_report.h"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "engine/io/text_file.h"

namespace adala::plan {

namespace {

std::string num(double v, const char* format = "{:.2f}") {
  return std::isfinite(v) ? fmt::format(fmt::runtime(format), v) : "-";
}
std::string pct(double v) { return num(100.0 * v); }
std::string mb(double bytes) { return num(bytes / 1e6, "{:.2f}"); }
std::string csv_num(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

}  // namespace

const CandidateRow* PlanReport::chosen() const {
  return choice.index >= 0 && size_t(choice.index) < candidates.size()
             ? &candidates[size_t(choice.index)]
             : nullptr;
}

std::string plan_markdown(const PlanReport& r) {
  std::ostringstream md;
  const int64_t R = r.resolution, n = r.native_resolution;
  md << "# Attention plan: " << r.experiment << "\n\n";
  md << "Started from " << r.source << "; held-out slice: " << r.held_out_data << " (" << r.held_out
     << " training images, never the test split); costs at " << R << "px (and " << n
     << "px, the config's), batch 1 on " << r.device << ", median of " << r.repeats
     << " forward passes.\n\n";

  md << "## Per-block sensitivity\n\n";
  md << "Stage-1 attention MSE on the held-out slice, and the held-out top-1 drop when the block "
        "alone runs linear (teacher softmax elsewhere, the teacher's head, before Stage 2). "
        "Teacher held-out top-1: "
     << pct(r.sensitivity.teacher_top1) << " %.\n\n";
  md << "| block | attention MSE | held-out top-1 (%) | drop (pt) | rank "
        "|\n|---|---|---|---|---|\n";
  for (const auto& b : r.sensitivity.blocks) {
    int64_t rank = 0;
    for (size_t i = 0; i < r.ranking.size(); ++i)
      if (r.ranking[i] == b.block) rank = int64_t(i) + 1;
    md << "| " << b.block << " | " << num(b.attention_mse, "{:.3g}") << " | "
       << pct(b.held_out_top1) << " | " << num(b.drop_points, "{:+.2f}") << " | " << rank << " |\n";
  }

  md << "\n## Candidates\n\n";
  md << "Predicted gap = alpha x held-out drop; " << r.alpha.note << ". GFLOPs: the analytic model "
     << "(1 MAC = 1 FLOP). ms and MB predicted from the cost model tied to the measured points ("
     << fmt::format("ms = {:.4f} + {:.4f} x GFLOPs at {}px; memory x {:.3f}", r.costs.intercept_ms,
                    r.costs.slope_ms_per_gmac, R, r.costs.memory_scale)
     << "); measured where measured.\n\n";
  md << "| plan | strip | held-out top-1 (%) | predicted gap (pt) | GFLOPs @" << n << " | ms @" << n
     << " (pred) | GFLOPs @" << R << " | ms @" << R << " pred | ms @" << R << " meas | MB @" << R
     << " pred | MB @" << R << " meas |\n";
  md << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < r.candidates.size(); ++i) {
    const auto& c = r.candidates[i];
    const bool chosen = r.choice.index == int(i);
    md << "| " << (chosen ? "**" + c.candidate.name + "**" : c.candidate.name) << " | "
       << plan_strip(c.candidate.plan.modes) << " | " << pct(c.held_out_top1) << " | "
       << num(c.predicted_gap, "{:+.2f}") << " | " << num(c.gmacs_native, "{:.4f}") << " | "
       << num(c.predicted_ms_native, "{:.3f}") << " | " << num(c.gmacs, "{:.4f}") << " | "
       << num(c.predicted_ms, "{:.3f}") << " | "
       << (c.measured ? num(c.measured->ms_per_img, "{:.3f}") : "-") << " | "
       << mb(c.predicted_bytes) << " | " << (c.measured ? mb(c.measured->peak_bytes) : "-")
       << " |\n";
  }

  md << "\n## Choice\n\nTarget: " << describe_target(r.target, R) << ".\n\n";
  if (const CandidateRow* c = r.chosen())
    md << "Chosen: **" << c->candidate.name << "** (" << plan_strip(c->candidate.plan.modes)
       << ") — " << r.choice.reason << ".\n";
  else
    md << r.choice.reason << ".\n";

  if (!r.trained.empty()) {
    md << "\n## Trained plans\n\nTop-1 on the test split after Stages 1-3; gap to the teacher ("
       << pct(r.teacher_test_top1) << " %).\n\n";
    md << "| plan | strip | run | top-1 (%) | gap (pt) | ms/img @" << n << " | peak MB @" << n
       << " | ms/img @" << R << " | peak MB @" << R << " |\n";
    md << "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& t : r.trained)
      md << "| " << t.name << " | " << t.strip << " | "
         << (t.run < 0 ? std::string("-") : "#" + std::to_string(t.run)) << " | " << pct(t.top1)
         << " | " << num(t.gap, "{:+.2f}") << " | " << num(t.native.ms_per_img, "{:.3f}") << " | "
         << mb(t.native.peak_bytes) << " | " << num(t.at_res.ms_per_img, "{:.3f}") << " | "
         << mb(t.at_res.peak_bytes) << " |\n";
    if (!r.target_check.empty()) md << "\n" << r.target_check << "\n";
  }
  if (!r.notes.empty()) {
    md << "\n## Notes\n\n";
    for (const auto& note : r.notes) md << "- " << note << "\n";
  }
  return md.str();
}

std::string plan_csv(const PlanReport& r) {
  std::ostringstream csv;
  csv << "plan,strip,chosen,ranked_k,held_out_top1,predicted_gap_points,resolution,gflops,"
         "predicted_ms,measured_ms,predicted_peak_bytes,measured_peak_bytes,native_resolution,"
         "gflops_native,predicted_ms_native,run,top1,gap_points,ms_per_img_native,"
         "peak_bytes_native,ms_per_img,peak_bytes\n";
  for (size_t i = 0; i < r.candidates.size(); ++i) {
    const auto& c = r.candidates[i];
    const TrainedRow* t = nullptr;
    for (const auto& row : r.trained)
      if (row.name == c.candidate.name) t = &row;
    csv << c.candidate.name << "," << plan_strip(c.candidate.plan.modes) << ","
        << (r.choice.index == int(i) ? 1 : 0) << "," << c.candidate.ranked_k << ","
        << csv_num(c.held_out_top1) << "," << csv_num(c.predicted_gap) << "," << r.resolution << ","
        << csv_num(c.gmacs) << "," << csv_num(c.predicted_ms) << ","
        << (c.measured ? csv_num(c.measured->ms_per_img) : "") << "," << csv_num(c.predicted_bytes)
        << "," << (c.measured ? csv_num(c.measured->peak_bytes) : "") << "," << r.native_resolution
        << "," << csv_num(c.gmacs_native) << "," << csv_num(c.predicted_ms_native) << ",";
    if (t)
      csv << t->run << "," << csv_num(t->top1) << "," << csv_num(t->gap) << ","
          << csv_num(t->native.ms_per_img) << "," << csv_num(t->native.peak_bytes) << ","
          << csv_num(t->at_res.ms_per_img) << "," << csv_num(t->at_res.peak_bytes) << "\n";
    else
      csv << ",,,,,,\n";
  }
  return csv.str();
}

void write_plan_report(const PlanReport& report, const std::string& out_dir) {
  write_text(out_dir + "/plan.md", plan_markdown(report));
  write_text(out_dir + "/plan.csv", plan_csv(report));
}

}  // namespace adala::plan
