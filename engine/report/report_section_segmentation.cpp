// Segmentation: `adala segment`'s summary.json (the story, the heads, the resolution sweep
// against the paper's row), then the figures saved by the GUI.
#include <cmath>

#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"
#include "engine/report/sweep_columns.h"

namespace adala::report::detail {

// The results of each run's segmentation summaries (story, heads, resolution sweep against
// the paper's row), then its segmentation figures.
void DocumentBuilder::segmentation() {
  bool any = false;
  for (const auto& r : m_.runs)
    any = any || !r.segmentation.empty() || !r.segmentation_figures.empty();
  if (!any) return;
  ReportSection& s = add_section("segmentation", tr("Segmentation"));
  for (const auto& r : m_.runs) {
    if (r.segmentation.empty() && r.segmentation_figures.empty()) continue;
    if (m_.comparison()) subheading(s, r.label());
    for (const auto& data : r.segmentation) {
      if (r.segmentation.size() > 1) subheading(s, data.artifact.path);
      if (!data.problem.empty()) {
        notice(s, data.artifact.exists
                      ? arg(tr("Segmentation summary could not be read: %1 (%2)"),
                            {data.artifact.path, data.problem})
                      : arg(tr("Segmentation summary is missing: %1"), {data.artifact.path}));
        continue;
      }
      segmentation_results(s, data.summary);
    }
    if (r.segmentation_figures.empty()) continue;
    if (!r.segmentation.empty()) subheading(s, tr("Figures"));
    run_figures(s, r, r.segmentation_figures, "segmentation");
  }
}

Text DocumentBuilder::head_label(const std::string& head) {
  if (head == "linear") return tr("linear");
  if (head == "mask2former") return tr("Mask2Former");
  return head;
}

// A fraction as percent points without the sign: 0.63 -> "63.00".
Text DocumentBuilder::score(double v) const {
  return finite(v) ? to_fixed(loc_, 100.0 * v, 2) : Text();
}

// A difference of fractions in points, signed: -0.01 -> "−1.00".
Text DocumentBuilder::signed_points(double v) const {
  if (!finite(v)) return {};
  const double p = 100.0 * v;
  const Text sign = p >= 0.005 ? "+" : (p <= -0.005 ? "−" : "");
  return sign + to_fixed(loc_, std::abs(p), 2);
}

// A ratio (student / teacher): "1.95×".
Text DocumentBuilder::times(double ratio) const {
  return finite(ratio) ? to_fixed(loc_, ratio, 2) + "×" : Text();
}

// A setting as written, without trailing zeros: 0.5 -> "0.5".
Text DocumentBuilder::compact(double v) const {
  Text t = to_fixed(loc_, v, 4);
  if (t.find(loc_.decimal) == std::string::npos) return t;
  while (!t.empty() && t.back() == '0') t.pop_back();
  if (t.size() >= loc_.decimal.size() &&
      t.compare(t.size() - loc_.decimal.size(), loc_.decimal.size(), loc_.decimal) == 0)
    t.erase(t.size() - loc_.decimal.size());
  return t;
}

Text DocumentBuilder::side(int64_t image_size) { return std::to_string(image_size) + "²"; }

// "fashion-mnist-scenes at 112²: backbone fine-tuned (lr × 0.5 of the head's, layer decay
// 0.75); heads linear, Mask2Former; 600 training scenes, 200 validation scenes; student:
// Stages 1+2 on the training scenes."
Text DocumentBuilder::segmentation_story(const SegmentationSummary& sum) const {
  Text lead = sum.dataset.empty() ? sum.experiment : sum.dataset;
  if (sum.image_size > 0)
    lead = lead.empty() ? arg(tr("Trained at %1"), {side(sum.image_size)})
                        : arg(tr("%1 at %2"), {lead, side(sum.image_size)});
  std::vector<std::string> parts;
  if (sum.train_backbone && !*sum.train_backbone) parts.push_back(tr("backbone frozen"));
  if (sum.train_backbone && *sum.train_backbone) {
    std::vector<std::string> how;
    if (finite(sum.backbone_lr_scale))
      how.push_back(arg(tr("lr × %1 of the head's"), {compact(sum.backbone_lr_scale)}));
    if (finite(sum.layer_decay))
      how.push_back(arg(tr("layer decay %1"), {compact(sum.layer_decay)}));
    parts.push_back(how.empty() ? tr("backbone fine-tuned")
                                : arg(tr("backbone fine-tuned (%1)"), {join(how, ", ")}));
  }
  std::vector<std::string> heads;
  for (const auto& h : sum.heads) heads.push_back(head_label(h.head));
  parts.push_back(arg(tr("heads: %1"), {join(heads, ", ")}));
  std::vector<std::string> scenes;
  if (sum.train_images >= 0)
    scenes.push_back(arg(tr("%1 training scenes"), {integer(sum.train_images)}));
  if (sum.val_images >= 0)
    scenes.push_back(arg(tr("%1 validation scenes"), {integer(sum.val_images)}));
  if (!scenes.empty()) parts.push_back(join(scenes, ", "));
  if (!sum.adaptation.empty()) parts.push_back(arg(tr("student: %1"), {sum.adaptation}));
  const Text rest = join(parts, "; ");
  return lead.empty() ? arg(tr("Segmentation: %1."), {rest}) : arg(tr("%1: %2."), {lead, rest});
}

void DocumentBuilder::segmentation_results(ReportSection& s, const SegmentationSummary& sum) {
  paragraph(s, segmentation_story(sum));
  paragraph(s, tr("Each head is trained on the teacher's backbone (softmax attention) and on "
                  "the student's (linear attention) with the same initialisation and batches; "
                  "mIoU and pixel accuracy on the validation scenes."));
  ReportTable t;
  t.header = {tr("Head"),
              tr("Teacher mIoU (%)"),
              tr("Student mIoU (%)"),
              tr("Gap (pt)"),
              tr("Teacher pixel accuracy (%)"),
              tr("Student pixel accuracy (%)"),
              tr("Teacher training"),
              tr("Student training")};
  t.numeric = {false, true, true, true, true, true, true, true};
  auto duration = [this](double v) { return finite(v) ? format_duration(loc_, v) : Text(); };
  for (const auto& h : sum.heads)
    t.rows.push_back({head_label(h.head), score(h.teacher.miou), score(h.student.miou),
                      signed_points(h.gap()), score(h.teacher.pixel_accuracy),
                      score(h.student.pixel_accuracy), duration(h.teacher_train_seconds),
                      duration(h.student_train_seconds)});
  drop_empty_columns(t, {4, 5, 6, 7});
  table(s, t);
  if (!sum.sweep.empty()) segmentation_sweep(s, sum);
}

// A resolution's label and head, then the columns of engine/report/sweep_columns.h.
Row DocumentBuilder::sweep_row(const Text& resolution, const Text& head,
                               const SegmentationScores& teacher,
                               const SegmentationScores& student) const {
  const SweepPairValues values{teacher.miou,      student.miou,    teacher.img_per_s,
                               student.img_per_s, teacher.peak_mb, student.peak_mb};
  Row row{resolution, head};
  for (const SweepColumn& column : sweep_columns()) {
    const double v = column.value(values);
    switch (column.format) {
      case SweepCellFormat::Percent:
        row.push_back(score(v));
        break;
      case SweepCellFormat::SignedPoints:
        row.push_back(signed_points(v));
        break;
      case SweepCellFormat::Amount:
        row.push_back(num(v));
        break;
      case SweepCellFormat::Ratio:
        row.push_back(times(v));
        break;
    }
  }
  return row;
}

// The resolution table: each resolution x head, then the paper's row with the same columns.
void DocumentBuilder::segmentation_sweep(ReportSection& s, const SegmentationSummary& sum) {
  subheading(s, tr("Resolution sweep"));
  paragraph(s, tr("The heads trained at the training resolution, evaluated at each resolution "
                  "on scenes whose garments keep their pixel size; images/s and peak memory "
                  "of one prediction at batch 1. × is student / teacher."));
  ReportTable t;
  t.header = {tr("Resolution"), tr("Head")};
  for (const SweepColumn& column : sweep_columns()) t.header.push_back(tr(column.header));
  t.numeric = std::vector<bool>(t.header.size(), true);
  t.numeric[0] = t.numeric[1] = false;
  std::vector<std::string> scenes;
  for (const auto& point : sum.sweep) {
    for (const auto& h : point.heads)
      t.rows.push_back(sweep_row(side(point.image_size), head_label(h.head), h.teacher, h.student));
    if (point.val_images < 0) continue;
    Text where = arg(tr("%1: %2 scenes"), {side(point.image_size), integer(point.val_images)});
    if (point.garments.size() == 2)
      where += " " + arg(tr("(%1–%2 garments each)"),
                         {integer(point.garments[0]), integer(point.garments[1])});
    scenes.push_back(where);
  }
  if (sum.paper) {
    const SegmentationPaperReference& p = *sum.paper;
    Text label = p.dataset.empty() ? tr("paper") : arg(tr("paper: %1"), {p.dataset});
    if (p.image_size > 0) label += " " + side(p.image_size);
    t.rows.push_back(sweep_row(label, Text(), p.teacher, p.student));
  }
  table(s, t);
  if (!scenes.empty())
    paragraph(s, arg(tr("Validation scenes per resolution: %1."), {join(scenes, "; ")}));
  if (sum.paper)
    paragraph(s, tr("The paper's row is its published result (ViT-AdaLA, its data, model and "
                    "GPU): compare its ratios with this run's, not its absolute values."));
}

}  // namespace adala::report::detail
