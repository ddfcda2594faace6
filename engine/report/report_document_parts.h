#pragma once
// Inside build_report_document: the builder that turns a ReportModel into a ReportDocument.
// report_document.cpp assembles the document (sections, blocks, figures);
// report_document_values.cpp words and formats the values; each report_section_*.cpp writes
// one group of sections. Not part of the library's interface.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/report/report_document.h"
#include "engine/report/report_i18n.h"

namespace adala::report::detail {

// lupdate reads "std::string f()" in a class as a function of namespace std: members say Text.
using Text = std::string;

inline bool finite(double v) { return std::isfinite(v); }
inline std::string id_label(int64_t id) { return "#" + std::to_string(id); }

// "stage/key" -> "stage" (part 0) or "key" (part 1), as QString::section('/', part, part).
std::string section_part(const std::string& key, int part);
// Whether an evaluation is a fraction shown as a percentage (accuracy, IoU).
bool is_fraction_key(const std::string& key);
ChartSeries to_series(const std::string& name, const Curve& curve, size_t color);
// Drops those of `optional_columns` that are empty in every row.
void drop_empty_columns(ReportTable& table, const std::vector<size_t>& optional_columns);

class DocumentBuilder {
  ADALA_REPORT_TR_FUNCTIONS(AdalaReport)

 public:
  DocumentBuilder(const ReportModel& model, const DocumentOptions& options);
  ReportDocument build();

 private:
  const ReportModel& m_;
  const DocumentOptions& o_;
  const ReportLocale& loc_;
  ReportDocument doc_;

  // The document's parts (report_document.cpp).
  Text default_title() const;
  ReportSection& add_section(const std::string& id, const std::string& title);
  static void add_block(ReportSection& s, ReportBlock::Kind kind, const std::string& text,
                        const std::vector<std::string>& items = {});
  static void paragraph(ReportSection& s, const std::string& text);
  static void subheading(ReportSection& s, const std::string& text);
  static void notice(ReportSection& s, const std::string& text,
                     const std::vector<std::string>& items = {});
  static void table(ReportSection& s, const ReportTable& t);
  ReportFigure& add_figure(ReportSection& s, const std::string& caption, const std::string& name);
  void chart_figure(ReportSection& s, ChartSpec chart, const std::string& caption,
                    const std::string& name);
  void line_figure(ReportSection& s, std::vector<LineChart> panels, int columns,
                   const ChartStyle& style, const std::string& caption, const std::string& name);
  void bar_figure(ReportSection& s, BarChart bars, const ChartStyle& style,
                  const std::string& caption, const std::string& name);
  void image_figure(ReportSection& s, const ImageArtifact& image, const std::string& caption,
                    const std::string& name);
  ChartStyle grid_style(size_t panels) const;
  void figures(const std::string& id, const std::string& title,
               std::vector<ImageArtifact> ReportRun::*member);
  void run_figures(ReportSection& s, const ReportRun& r, const std::vector<ImageArtifact>& list,
                   const std::string& id);

  // Values and labels (report_document_values.cpp).
  Text num(double v, int significant = 4) const;
  Text pct(double v) const;
  Text integer(int64_t v) const;
  Text when(const Timestamp& t) const;
  Text points(double v) const;
  static Text status_text(const std::string& status);
  ReportTable per_run_table(const Text& first) const;
  static Text eval_label(const std::string& key);
  static Text eval_short_label(const std::string& key);
  Text eval_value(const std::string& key, double v) const;

  // The summary, the report's abstract (report_section_summary.cpp).
  Text adapted_text(const ReportRun& r) const;
  Text headline_text(const Headline& h) const;
  Text cost_ratio(double student, double teacher, bool memory) const;
  void summary();

  // What was run (report_section_runs.cpp).
  void overview();
  void configuration();
  static Text kind_text(const std::string& kind);
  void artifacts();

  // How it trained (report_section_training.cpp).
  void stages();
  void block_mse();
  void block_mse_curves(ReportSection& s, const std::string& stage,
                        const std::vector<const ReportRun*>& with, const std::string& what);
  void block_mse_final(ReportSection& s, const std::string& stage,
                       const std::vector<const ReportRun*>& with, const std::string& what);
  void numerical_health();

  // Top-1 compared: teacher and student, ablation variants, methods
  // (report_section_accuracy.cpp).
  void accuracy();
  ReportTable accuracy_table(const std::vector<std::string>& keys) const;
  void accuracy_bars(ReportSection& s, const std::vector<std::string>& keys);
  static Text variant_label(const std::string& v);
  void ablation();
  void methods();

  // The trained attention plans (report_section_plans.cpp).
  void plans();
  void plans_table(ReportSection& s, const PlanSummary& summary, int64_t res);
  LineChart plan_cost_panel(const std::vector<PlanPoint>& pts, int64_t res,
                            FrontierCost axis) const;
  void plans_frontier(ReportSection& s, const std::vector<PlanPoint>& pts, int64_t res);

  // Segmentation results and figures (report_section_segmentation.cpp).
  void segmentation();
  static Text head_label(const std::string& head);
  Text score(double v) const;
  Text signed_points(double v) const;
  Text times(double ratio) const;
  Text compact(double v) const;
  static Text side(int64_t image_size);
  Text segmentation_story(const SegmentationSummary& sum) const;
  void segmentation_results(ReportSection& s, const SegmentationSummary& sum);
  Row sweep_row(const Text& resolution, const Text& head, const SegmentationScores& teacher,
                const SegmentationScores& student) const;
  void segmentation_sweep(ReportSection& s, const SegmentationSummary& sum);

  // Resolution scaling tables (report_section_scaling.cpp).
  void scaling();
  void unsteady_rate_notice(ReportSection& s, const CsvTable& csv);
  void scaling_table(ReportSection& s, const ReportRun& r, const CsvTable& csv);
  ReportTable scaling_csv_table(const CsvTable& csv) const;
  void scaling_figure(ReportSection& s, const ReportRun& r, const CsvTable& csv);
};

}  // namespace adala::report::detail
