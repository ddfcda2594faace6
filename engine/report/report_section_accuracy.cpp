// Top-1 compared: the teacher against the student, the variants of an ablation and the
// linearisation methods of `adala compare-methods`.
#include <algorithm>
#include <cmath>
#include <set>

#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"
#include "engine/train/stage_catalog.h"

namespace adala::report::detail {

namespace {

// Evaluation keys in a reading order: by stage, then the known keys first.
int eval_order(const std::string& key) {
  if (key == kTeacherTop1) return 0;
  if (key == kStage2StudentTop1) return 1;
  if (key == kStudentTop1) return 2;
  const int stage = stage_index(section_part(key, 0));
  return 10 + (stage < 0 ? 9 : stage);
}

double evaluation_value(const ReportRun& r, const std::string& key) {
  const auto it = r.evaluations.find(key);
  return it == r.evaluations.end() ? NAN : it->second;
}

// Every run's evaluation keys, in reading order.
std::vector<std::string> ordered_evaluation_keys(const std::vector<ReportRun>& runs) {
  std::set<std::string> keys;
  for (const auto& r : runs)
    for (const auto& [key, value] : r.evaluations) keys.insert(key);
  std::vector<std::string> ordered(keys.begin(), keys.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const std::string& a, const std::string& b) {
    return eval_order(a) < eval_order(b);
  });
  return ordered;
}

}  // namespace

void DocumentBuilder::accuracy() {
  const std::vector<std::string> ordered = ordered_evaluation_keys(m_.runs);
  if (ordered.empty()) return;
  ReportSection& s = add_section("accuracy", tr("Teacher vs student"));
  table(s, accuracy_table(ordered));
  accuracy_bars(s, ordered);
}

// Every evaluation, one column per run, then the gap the paper reports.
ReportTable DocumentBuilder::accuracy_table(const std::vector<std::string>& keys) const {
  ReportTable t = per_run_table(tr("Evaluation"));
  for (const auto& key : keys) {
    Row row{eval_label(key)};
    for (const auto& r : m_.runs)
      row.push_back(r.evaluations.count(key) ? eval_value(key, evaluation_value(r, key))
                                             : std::string());
    t.rows.push_back(row);
  }
  // The gap the paper reports: student - teacher, in points.
  Row gap{tr("Gap to the teacher (student − teacher)")};
  bool any_gap = false;
  for (const auto& r : m_.runs) {
    gap.push_back(
        points(100.0 * (evaluation_value(r, kStudentTop1) - evaluation_value(r, kTeacherTop1))));
    any_gap = any_gap || !gap.back().empty();
  }
  if (any_gap) t.rows.push_back(gap);
  return t;
}

// The bars: the teacher and the student the headline compares where every run has both
// (an intermediate value such as Stage 2's would stretch the axis over the gap), else
// every accuracy and mIoU.
void DocumentBuilder::accuracy_bars(ReportSection& s, const std::vector<std::string>& keys) {
  bool pair = true;
  std::set<std::string> students;
  for (const auto& r : m_.runs) {
    pair = pair && finite(r.headline.teacher_top1) && finite(r.headline.student_top1);
    students.insert(r.headline.student_key);
  }
  std::vector<std::string> bar_keys;
  for (const auto& key : keys)
    if (pair ? key == kTeacherTop1 || students.count(key) : is_fraction_key(key))
      bar_keys.push_back(key);
  bool any_iou = false, any_accuracy = false;
  for (const auto& key : bar_keys)
    (contains(to_lower_ascii(section_part(key, 1)), "iou") ? any_iou : any_accuracy) = true;
  BarChart bars;
  bars.title = any_iou && any_accuracy ? tr("Top-1 accuracy and mIoU")
                                       : (any_iou ? tr("mIoU") : tr("Top-1 accuracy"));
  bars.y_label = tr("%");
  bars.percent = true;
  for (const auto& key : bar_keys) bars.categories.push_back(eval_short_label(key));
  if (bars.categories.empty()) return;
  std::vector<double> values;
  for (const auto& r : m_.runs) {
    ChartSeries g;
    g.name = r.label();
    g.color = palette_color(bars.groups.size());
    for (const auto& key : bar_keys) g.y.push_back(evaluation_value(r, key));
    values.insert(values.end(), g.y.begin(), g.y.end());
    bars.groups.push_back(g);
  }
  bars.y_range = bar_value_range(values);
  bars.y_range_set = true;
  if (pair) {
    std::vector<std::string> gaps;
    for (const auto& r : m_.runs)
      gaps.push_back(m_.comparison()
                         ? arg(tr("%1: gap %2"), {id_label(r.id), points(r.headline.gap_points)})
                         : arg(tr("gap %1"), {points(r.headline.gap_points)}));
    bars.note = join(gaps, " · ");
    if (!m_.comparison()) bars.reference = m_.runs.front().headline.teacher_top1;
  }
  std::string caption = tr("Test-set accuracy of the teacher and the student.");
  if (!bars.y_range.from_zero())
    caption += " " + arg(tr("The y axis starts at %1, not at 0."), {pct(bars.y_range.lower)});
  ChartStyle style = o_.chart;
  style.size.height = int(o_.chart.size.height * 0.8);
  bar_figure(s, std::move(bars), style, caption, "accuracy");
}

Text DocumentBuilder::variant_label(const std::string& v) {
  if (v == "a") return tr("(a) teacher (softmax)");
  if (v == "b") return tr("(b) naive swap (Stage 3 only)");
  if (v == "c") return tr("(c) Stage 2 + 3");
  if (v == "d") return tr("(d) Stage 1 + 2 + 3 (ViT-AdaLA)");
  if (v == "e") return tr("(e) Stage 1 + 3 (Stage 1 only)");
  if (v == "f") return tr("(f) Stage 1 + 2 + 3, only Q/K/V trained in Stage 2");
  return "(" + v + ")";
}

void DocumentBuilder::ablation() {
  if (m_.ablations.empty()) return;
  ReportSection& s = add_section("ablation", tr("Ablation"));
  for (const auto& a : m_.ablations) {
    if (m_.ablations.size() > 1) subheading(s, a.folder);
    paragraph(s, arg(tr("The variants of the ablation \"%1\", trained on the same data with "
                        "the same budget."),
                     {a.folder}));
    ReportTable t;
    t.header = {tr("Variant"), tr("Run"), tr("Top-1"), tr("Gap to teacher")};
    t.numeric = {false, false, true, true};
    for (const auto& row : a.rows)
      t.rows.push_back(
          {variant_label(row.variant), id_label(row.run), pct(row.top1), points(row.gap_points)});
    table(s, t);
    if (!a.stage2_only.empty() && !a.stage1_then_2.empty()) {
      LineChart c;
      c.title = tr("Stage 2 feature MSE");
      c.x_label = tr("step");
      c.y_label = tr("loss");
      c.log_y = true;
      c.series.push_back(to_series(tr("(c) Stage 2 only"), a.stage2_only, 0));
      c.series.push_back(to_series(tr("(d) Stage 1 then 2"), a.stage1_then_2, 1));
      line_figure(s, {c}, 1, o_.chart,
                  tr("Stage 2 loss with and without Stage 1 attention alignment first."),
                  "ablation-stage2");
      // Same statistic as `adala ablate`: how often (d) lies below (c) after the first 10%.
      const size_t n = std::min(a.stage2_only.size(), a.stage1_then_2.size());
      int after = 0, below = 0;
      const double cut = a.stage2_only.back().step / 10.0;
      for (size_t i = 0; i < n; ++i) {
        if (a.stage2_only[i].step <= cut) continue;
        ++after;
        below += a.stage1_then_2[i].value < a.stage2_only[i].value;
      }
      if (after > 0)
        paragraph(
            s, arg(tr("(d) is below (c) at %1 of %2 logged points after the first 10% of steps."),
                   {std::to_string(below), std::to_string(after)}));
    }
    if (!a.directory.empty())
      paragraph(s, arg(tr("Tables written by adala ablate: %1"), {a.directory}));
  }
}

void DocumentBuilder::methods() {
  if (m_.method_comparisons.empty()) return;
  ReportSection& s = add_section("methods", tr("Linearisation methods"));
  for (const auto& c : m_.method_comparisons) {
    if (m_.method_comparisons.size() > 1) subheading(s, c.folder);
    paragraph(s, arg(tr("The methods of the comparison \"%1\", adapted from one shared teacher "
                        "with the same data and budget; inference cost at batch 1."),
                     {c.folder}));
    ReportTable t;
    t.header = {tr("Method"), tr("Run"), tr("Top-1"), tr("Gap to teacher")};
    t.numeric = {false, false, true, true};
    for (int64_t res : c.resolutions) {
      const std::string at = " @ " + std::to_string(res) + "²";
      t.header.push_back(tr("ms / image") + at);
      t.header.push_back(tr("Peak memory (MB)") + at);
      t.numeric.push_back(true);
      t.numeric.push_back(true);
    }
    for (const auto& row : c.rows) {
      std::vector<Text> cells = {row.method == kTeacherMethod ? tr("Teacher") : Text(row.method),
                                 id_label(row.run), pct(row.top1), points(row.gap_points)};
      for (int64_t res : c.resolutions) {
        const auto ms = row.ms_per_img.find(res);
        const auto peak = row.peak_bytes.find(res);
        cells.push_back(ms == row.ms_per_img.end() ? Text() : num(ms->second, 3));
        cells.push_back(
            peak == row.peak_bytes.end() || peak->second < 0 ? Text() : num(peak->second / 1e6, 3));
      }
      t.rows.push_back(cells);
    }
    table(s, t);
  }
}

}  // namespace adala::report::detail
