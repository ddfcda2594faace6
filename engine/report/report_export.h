#pragma once
// One call from a database and run ids to a report file: what `adala report` and the GUI's
// File → Export report… both use.
//
//   adala::report::ReportRequest request;
//   request.db_path = dbPath;                  // "" = the default workspace database
//   request.runs = {"3", "fashion-mnist-tiny"}; // ids or unique names, in report order
//   request.format = adala::report::ReportFormat::Pdf;
//   request.output = "/tmp/run3.pdf";
//   adala::report::ReportResult r = adala::report::export_report(request);
//   if (!r.ok) show(r.error);  // r.warnings: missing artifacts etc. (the report was written)
//
// Needs a QApplication (charts are QCustomPlot widgets drawn off screen) in the calling
// thread, which must be the GUI thread. Numbers and dates follow request.locale; words follow
// the installed translators (adala::i18n::install_translator).
#include <QLocale>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

#include "engine/report/report_charts.h"

namespace adala::report {

enum class ReportFormat { Html, Pdf, Markdown };

QString format_name(ReportFormat format);       // "html" | "pdf" | "md"
QString format_extension(ReportFormat format);  // ".html" | ".pdf" | ".md"
std::optional<ReportFormat> parse_report_format(const QString& text);  // html|htm|pdf|md|markdown
std::optional<ReportFormat> format_from_path(const QString& path);     // by extension

struct ReportRequest {
  QString db_path;    // "" = adala::store::RunStore::default_path()
  QStringList runs;   // run ids or unique names
  ReportFormat format = ReportFormat::Html;
  QString output;     // the file to write (Markdown: figures go to <stem>_files/ beside it)
  QString title;      // "" = from the runs
  QLocale locale;     // numbers and dates (default: QLocale(), which install_translator sets)
  ChartStyle chart;   // chart size and print scale
  // Called once per problem (a missing artifact file, ...) as it is found; the export
  // goes on. Default (empty): printed to stderr as "warning: ...".
  std::function<void(const QString&)> warn;
};

struct ReportResult {
  bool ok = false;
  QString error;          // why nothing (or not everything) was written
  QString output;         // the document written
  QStringList files;      // every file written (document first, then figure files)
  QStringList warnings;   // problems found; they are in the document too
  QStringList sections;   // ids of the sections the document has, in order
  int figures = 0;
  int pages = 0;          // PDF only
  QVector<int> section_pages;  // PDF only: the page each section starts on
};

ReportResult export_report(const ReportRequest& request);

// "AdaLA Workbench 0.1.0 (git abc123) · Qt 6.4.2 · QCustomPlot 2.1.0"
QString report_generator();

}  // namespace adala::report
