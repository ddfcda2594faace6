#pragma once
// The report as a format-neutral document: a title, sections (each with an id, a title and
// blocks: sub-headings, paragraphs, tables, figures, notices) and the figures (chart
// specifications, or picture files). Every user-visible word is translated here
// (AdalaReport::tr), every number and date goes through the ReportLocale given; the HTML,
// Markdown and PDF writers only lay it out.
//
// A section is only created when it has something to show: a run without block MSE has
// no block-MSE section, a run without figures no figure sections (no empty headings).
#include <string>
#include <vector>

#include "engine/report/report_charts.h"
#include "engine/report/report_locale.h"
#include "engine/report/report_model.h"

namespace adala::report {

using Row = std::vector<std::string>;

struct ReportTable {
  Row header;
  std::vector<Row> rows;
  std::vector<bool> numeric;  // per column: right-aligned
  std::vector<int> widths;    // per column: percent of the page width (0 or missing: automatic)
};

struct ReportFigure {
  std::string name;     // file stem for writers that store figures as files: "figure-03-block-mse"
  std::string caption;  // without the "Figure N." prefix
  Size display;         // logical size (96 dpi pixels) the document shows it at
  int number = 0;       // 1-based
  std::string image_path;  // a picture file ("" = a chart)
  Size image_size;         // the picture's pixels
  ChartSpec chart;         // when image_path is ""
  bool is_chart() const { return image_path.empty(); }
};

struct ReportBlock {
  enum class Kind { Subheading, Paragraph, Table, Figure, Notice, Bullets };
  Kind kind = Kind::Paragraph;
  std::string text;                // Subheading, Paragraph, Notice (plain text)
  std::vector<std::string> items;  // Bullets, Notice details
  ReportTable table;               // Table
  int figure = -1;                 // Figure: index into ReportDocument::figures
};

struct ReportSection {
  std::string id;     // stable, language-independent: "overview", "config", "stages", ...
  std::string title;  // translated
  std::vector<ReportBlock> blocks;
};

struct ReportDocument {
  std::string title;
  std::vector<std::string>
      meta;              // lines under the title: generated when, by what, from which database
  std::string language;  // BCP-47 name of the locale used ("en", "ko")
  // The result, as a paper's abstract: what was adapted, "student X% vs teacher Y%, gap Z pt"
  // and the headline table. Every writer puts it under the title, before the contents; it is
  // not one of `sections` (not in the contents). Id "summary"; no blocks only without runs.
  ReportSection summary;
  std::vector<ReportSection> sections;
  std::vector<ReportFigure> figures;
  std::vector<std::string> warnings;  // missing artifacts and other problems (also in the Overview)

  const ReportSection* section(const std::string& id) const;
  std::vector<std::string> section_ids() const;
};

struct DocumentOptions {
  std::string title;      // "" = from the runs
  ReportLocale locale;    // numbers and dates
  ChartStyle chart;       // size and print scale of the charts
  std::string generator;  // e.g. "AdaLA Workbench 0.1.0 (abc123)"
};

// Section ids in document order (each present only when it has content).
const std::vector<std::string>& all_section_ids();

ReportDocument build_report_document(const ReportModel& model, const DocumentOptions& options = {});

// "Stage 1 · attention alignment" (the stage table's title, translated); other names as they are.
std::string stage_title(const std::string& stage);

}  // namespace adala::report
