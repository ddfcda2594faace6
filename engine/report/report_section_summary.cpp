// The summary under the title, the report's abstract: what was adapted, the headline result
// and the inference cost of the student against the teacher.
#include <functional>
#include <set>

#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"

namespace adala::report::detail {

// "#1 fm-tiny: vit_tiny on fashion-mnist, softmax attention replaced by ..."
Text DocumentBuilder::adapted_text(const ReportRun& r) const {
  const Headline& h = r.headline;
  const Text model = h.preset.empty() ? tr("the model") : h.preset;
  const Text subject = h.dataset.empty() ? model : arg(tr("%1 on %2"), {model, h.dataset});
  std::vector<std::string> indices;
  bool adapted = false;
  for (const auto& st : r.stages) {
    indices.push_back(st.index >= 0 ? std::to_string(st.index) : st.stage);
    adapted = adapted || st.index > 0;
  }
  const Text stages = indices.empty() ? tr("none") : join(indices, ", ");
  if (!adapted)
    return arg(tr("%1: %2, the teacher (softmax attention) only; stages run: %3."),
               {r.label(), subject, stages});
  if (h.method.empty())
    return arg(tr("%1: %2, softmax attention replaced by linear attention; stages run: %3."),
               {r.label(), subject, stages});
  return arg(tr("%1: %2, softmax attention replaced by linear attention with the method %3 "
                "(feature map %4); stages run: %5."),
             {r.label(), subject, h.method, h.feature_map, stages});
}

// "Student 83.37% vs teacher 85.12%, gap −1.75 pt."
Text DocumentBuilder::headline_text(const Headline& h) const {
  const bool teacher = finite(h.teacher_top1), student = finite(h.student_top1);
  if (teacher && student)
    return arg(h.student_key == kStudentTop1
                   ? tr("Student %1 vs teacher %2, gap %3.")
                   : tr("Student after Stage 2 (teacher's head) %1 vs teacher %2, gap %3."),
               {pct(h.student_top1), pct(h.teacher_top1), points(h.gap_points)});
  if (teacher) return arg(tr("Teacher %1; the student was not evaluated."), {pct(h.teacher_top1)});
  if (student) return arg(tr("Student %1; the teacher was not evaluated."), {pct(h.student_top1)});
  return tr("No accuracy was recorded.");
}

// "0.95× (10.9 / 11.5 ms)": the student's cost over the teacher's, then both.
Text DocumentBuilder::cost_ratio(double student, double teacher, bool memory) const {
  if (!finite(student) || !finite(teacher) || teacher <= 0) return {};
  const std::vector<std::string> values = {to_fixed(loc_, student / teacher, 2), num(student, 3),
                                           num(teacher, 3)};
  return arg(memory ? tr("%1× (%2 / %3 MB)") : tr("%1× (%2 / %3 ms)"), values);
}

void DocumentBuilder::summary() {
  ReportSection& s = doc_.summary;
  s.id = "summary";
  s.title = tr("Summary");
  if (m_.runs.empty()) return;
  if (m_.comparison()) {
    std::vector<std::string> items;
    for (const auto& r : m_.runs)
      items.push_back(adapted_text(r) + " " + headline_text(r.headline));
    add_block(s, ReportBlock::Kind::Bullets, {}, items);
  } else {
    paragraph(s, adapted_text(m_.runs.front()));
    paragraph(s, headline_text(m_.runs.front().headline));
  }

  ReportTable t = per_run_table(tr("Result"));
  auto add_row = [&](const Text& label, const std::function<Text(const Headline&)>& value) {
    Row row{label};
    bool any = false;
    for (const auto& r : m_.runs) {
      row.push_back(value(r.headline));
      any = any || !row.back().empty();
    }
    if (any) t.rows.push_back(row);
  };
  add_row(eval_label(kTeacherTop1), [this](const Headline& h) { return pct(h.teacher_top1); });
  for (const std::string& key : student_top1_keys())
    add_row(eval_label(key), [this, key](const Headline& h) {
      return h.student_key == key ? pct(h.student_top1) : Text();
    });
  add_row(tr("Gap to the teacher (student − teacher)"),
          [this](const Headline& h) { return points(h.gap_points); });
  std::set<int64_t> resolutions;
  std::set<Headline::CostSource> sources;
  for (const auto& r : m_.runs)
    for (const auto& c : r.headline.costs) {
      resolutions.insert(c.resolution);
      sources.insert(r.headline.cost_source);
    }
  auto cost_at = [](const Headline& h, int64_t res) -> const CostPoint* {
    for (const auto& c : h.costs)
      if (c.resolution == res) return &c;
    return nullptr;
  };
  for (int64_t res : resolutions) {
    const std::string side = std::to_string(res);
    add_row(arg(tr("ms / image at %1², student / teacher"), {side}), [&](const Headline& h) {
      const CostPoint* c = cost_at(h, res);
      return c ? cost_ratio(c->student_ms, c->teacher_ms, false) : Text();
    });
    add_row(arg(tr("Peak memory at %1², student / teacher"), {side}), [&](const Headline& h) {
      const CostPoint* c = cost_at(h, res);
      return c ? cost_ratio(c->student_mb, c->teacher_mb, true) : Text();
    });
  }
  if (t.rows.empty()) return;
  table(s, t);
  if (sources.count(Headline::CostSource::Comparison))
    paragraph(s, tr("Inference cost at batch 1, measured by adala compare-methods for the "
                    "student and the comparison's teacher."));
  if (sources.count(Headline::CostSource::Scaling))
    paragraph(s, tr("Inference cost from the run's scaling table: the model with linear "
                    "attention (student) against softmax attention (teacher)."));
}

}  // namespace adala::report::detail
