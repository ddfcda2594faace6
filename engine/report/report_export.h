#pragma once
// One call from a database and run ids to a report file: what `adala report` and the GUI's
// File → Export report… both use (through app/report_render/qt_report.h, which adds the
// charts, the PDF writer, Qt's translations and QLocale's formats).
//
//   adala::report::ReportRequest request;
//   request.db_path = db_path;                  // "" = the default workspace database
//   request.runs = {"3", "fashion-mnist-tiny"};  // ids or unique names, in report order
//   request.format = adala::report::ReportFormat::Html;
//   request.output = "/tmp/run3.html";
//   adala::report::ReportResult r = adala::report::export_report(request, backend);
//   if (!r.ok) show(r.error);  // r.warnings: missing artifacts etc. (the report was written)
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/report/report_charts.h"
#include "engine/report/report_locale.h"
#include "engine/report/report_model.h"
#include "engine/report/report_writers.h"

namespace adala::report {

enum class ReportFormat { Html, Pdf, Markdown };

std::string format_name(ReportFormat format);       // "html" | "pdf" | "md"
std::string format_extension(ReportFormat format);  // ".html" | ".pdf" | ".md"
std::optional<ReportFormat> parse_report_format(
    const std::string& text);                                           // html|htm|pdf|md|markdown
std::optional<ReportFormat> format_from_path(const std::string& path);  // by extension

struct ReportRequest {
  std::string db_path;            // "" = adala::store::RunStore::default_path()
  std::vector<std::string> runs;  // run ids or unique names
  ReportFormat format = ReportFormat::Html;
  std::string output;   // the file to write (Markdown: figures go to <stem>_files/ beside it)
  std::string title;    // "" = from the runs
  ReportLocale locale;  // numbers and dates
  ChartStyle chart;     // chart size and print scale
  // Called once per problem (a missing artifact file, ...) as it is found; the export
  // goes on. Default (empty): printed to stderr as "warning: ...".
  std::function<void(const std::string&)> warn;
};

struct ReportResult {
  bool ok = false;
  std::string error;                  // why nothing (or not everything) was written
  std::string output;                 // the document written
  std::vector<std::string> files;     // every file written (document first, then figure files)
  std::vector<std::string> warnings;  // problems found; they are in the document too
  std::vector<std::string> sections;  // ids of the sections the document has, in order
  int figures = 0;
  int pages = 0;                   // PDF only
  std::vector<int> section_pages;  // PDF only: the page each section starts on
};

// What draws and writes beyond HTML and Markdown text. The default draws no charts (picture
// files are embedded as they are) and writes no PDF.
struct ReportBackend {
  FigureRenderer png = file_figure_png;
  ImageProbe probe;  // empty: PNG headers (probe_png)
  std::function<WriteResult(const ReportDocument&, const std::string&)> write_pdf;  // empty: no PDF
  std::string generator;  // "" = report_generator()
};

ReportResult export_report(const ReportRequest& request, const ReportBackend& backend = {});

// "AdaLA Workbench 0.1.0 (git abc123)"
std::string report_generator();

}  // namespace adala::report
