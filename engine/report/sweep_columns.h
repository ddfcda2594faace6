#pragma once
// The resolution sweep's measured columns (teacher against student at one resolution), one
// table for every place that shows them: the run report, the workbench's segmentation viewer
// and summary.md. Each writer keeps its own label columns and number style; which columns there
// are, their order, headers, tips and values come from here. Headers and tips are English
// sources in the report's translation context ("AdalaReport", engine/report/report_i18n.h).
#include <array>

namespace adala {

// One resolution's measurements of the two models (NaN: not measured).
struct SweepPairValues {
  double teacher_miou, student_miou;            // fractions
  double teacher_img_per_s, student_img_per_s;  // images per second at batch 1
  double teacher_peak_mb, student_peak_mb;      // peak memory of one prediction
};

enum class SweepCellFormat {
  Percent,       // a fraction shown in percent
  SignedPoints,  // a difference of fractions in percentage points, signed
  Amount,        // a rate or a size as measured
  Ratio,         // student / teacher ("×")
};

struct SweepColumn {
  const char* header;
  const char* tip;
  SweepCellFormat format;
  // The number the format is applied to: the fraction, the difference, the amount, or the
  // ratio (NaN unless both parts are finite and the teacher's is positive).
  double (*value)(const SweepPairValues&);
};

inline constexpr int kSweepColumnCount = 9;
const std::array<SweepColumn, kSweepColumnCount>& sweep_columns();

}  // namespace adala
