// How the document words and formats values: numbers, percentages, points, statuses and
// evaluation labels, through the ReportLocale and the translation hook.
#include <cmath>

#include "engine/report/report_document_parts.h"
#include "engine/report/report_text.h"
#include "engine/train/stage_catalog.h"

namespace adala::report::detail {

std::string section_part(const std::string& key, int part) {  // QString::section('/', part, part)
  const size_t slash = key.find('/');
  if (part == 0) return key.substr(0, slash);
  return slash == std::string::npos ? std::string() : key.substr(slash + 1);
}

bool is_fraction_key(const std::string& key) {
  const std::string name = to_lower_ascii(section_part(key, 1));
  return contains(name, "top1") || contains(name, "top5") || contains(name, "acc") ||
         contains(name, "miou") || contains(name, "iou");
}

Text DocumentBuilder::num(double v, int significant) const {
  return finite(v) ? format_number(loc_, v, significant) : std::string();
}

Text DocumentBuilder::pct(double v) const {
  return finite(v) ? format_percent(loc_, v) : std::string();
}

Text DocumentBuilder::integer(int64_t v) const { return to_integer(loc_, v); }

Text DocumentBuilder::when(const Timestamp& t) const {
  return t.valid ? format_datetime(loc_, t.utc_msecs) : std::string();
}

Text DocumentBuilder::points(double v) const {
  if (!finite(v)) return {};
  const std::string sign = v > 0 ? "+" : (v < 0 ? "−" : "");
  return arg(tr("%1 pt"), {sign + to_fixed(loc_, std::abs(v), 2)});
}

Text DocumentBuilder::status_text(const std::string& status) {
  if (status == "done") return tr("done");
  if (status == "running") return tr("running");
  if (status == "interrupted") return tr("interrupted");
  if (status == "failed") return tr("failed");
  if (status == "queued") return tr("queued");
  return status;
}

// A table whose first column labels the rows and which has one value column per run (one,
// "Value", for a single run).
ReportTable DocumentBuilder::per_run_table(const Text& first) const {
  ReportTable t;
  t.header.push_back(first);
  if (m_.comparison())
    for (const auto& r : m_.runs) t.header.push_back(r.label());
  else
    t.header.push_back(tr("Value"));
  t.numeric = std::vector<bool>(t.header.size(), true);
  t.numeric[0] = false;
  return t;
}

Text DocumentBuilder::eval_label(const std::string& key) {
  if (key == kTeacherTop1) return tr("Teacher (softmax attention), top-1");
  if (key == kStage2StudentTop1) return tr("Student after Stage 2 (teacher's head), top-1");
  if (key == kStudentTop1) return tr("Student (linear attention), top-1");
  const std::string stage = section_part(key, 0), name = section_part(key, 1);
  const std::string where = stage_index(stage) >= 0 ? stage_title(stage) : stage;
  if (to_lower_ascii(name) == "miou") return arg(tr("%1, mIoU"), {where});
  return where + " · " + name;
}

Text DocumentBuilder::eval_short_label(const std::string& key) {
  if (key == kTeacherTop1) return tr("Teacher");
  if (key == kStage2StudentTop1) return tr("Student (Stage 2)");
  if (key == kStudentTop1) return tr("Student");
  return section_part(key, 1);
}

Text DocumentBuilder::eval_value(const std::string& key, double v) const {
  return is_fraction_key(key) ? pct(v) : num(v);
}

}  // namespace adala::report::detail
