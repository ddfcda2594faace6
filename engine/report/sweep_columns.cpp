#include "engine/report/sweep_columns.h"

#include <cmath>
#include <limits>

#include "engine/report/report_i18n.h"

namespace adala {

namespace {

double teacher_miou(const SweepPairValues& v) { return v.teacher_miou; }
double student_miou(const SweepPairValues& v) { return v.student_miou; }
double miou_gap(const SweepPairValues& v) { return v.student_miou - v.teacher_miou; }
double teacher_speed(const SweepPairValues& v) { return v.teacher_img_per_s; }
double student_speed(const SweepPairValues& v) { return v.student_img_per_s; }
double teacher_peak(const SweepPairValues& v) { return v.teacher_peak_mb; }
double student_peak(const SweepPairValues& v) { return v.student_peak_mb; }

double student_per_teacher(double student, double teacher) {
  if (!std::isfinite(student) || !std::isfinite(teacher) || teacher <= 0)
    return std::numeric_limits<double>::quiet_NaN();
  return student / teacher;
}
double speed_ratio(const SweepPairValues& v) {
  return student_per_teacher(v.student_img_per_s, v.teacher_img_per_s);
}
double memory_ratio(const SweepPairValues& v) {
  return student_per_teacher(v.student_peak_mb, v.teacher_peak_mb);
}

}  // namespace

const std::array<SweepColumn, kSweepColumnCount>& sweep_columns() {
  static const std::array<SweepColumn, kSweepColumnCount> table = {{
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Teacher mIoU (%)"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport",
                                   "Teacher's mean IoU over the classes, in percent"),
       SweepCellFormat::Percent, teacher_miou},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Student mIoU (%)"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport",
                                   "Student's mean IoU over the classes, in percent"),
       SweepCellFormat::Percent, student_miou},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Gap (pt)"),
       ADALA_REPORT_TRANSLATE_NOOP(
           "AdalaReport",
           "Student − teacher mIoU, in percentage points (negative: the student loses)"),
       SweepCellFormat::SignedPoints, miou_gap},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Teacher img/s"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Teacher's images per second at batch 1"),
       SweepCellFormat::Amount, teacher_speed},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Student img/s"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Student's images per second at batch 1"),
       SweepCellFormat::Amount, student_speed},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "× img/s"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Student ÷ teacher"), SweepCellFormat::Ratio,
       speed_ratio},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Teacher peak MB"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Teacher's peak memory of one prediction, in MB"),
       SweepCellFormat::Amount, teacher_peak},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Student peak MB"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Student's peak memory of one prediction, in MB"),
       SweepCellFormat::Amount, student_peak},
      {ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "× memory"),
       ADALA_REPORT_TRANSLATE_NOOP("AdalaReport", "Student ÷ teacher"), SweepCellFormat::Ratio,
       memory_ratio},
  }};
  return table;
}

}  // namespace adala
