// `adala report`: a run report (or a comparison of runs) as HTML, PDF or Markdown, from the
// run database. Same code as the GUI's File → Export report… (engine/report, drawn and
// translated by app/report_render). A build without Qt writes HTML and Markdown in English,
// with picture files but without charts, and no PDF.
#include "app/cli/commands.h"

#include <cstdio>
#include <memory>

#include "app/cli/arg_parser.h"
#include "engine/report/report_export.h"

#ifdef ADALA_HAVE_REPORT_RENDER
#include <QApplication>
#include <QByteArray>

#include "app/i18n/language.h"
#include "app/report_render/qt_report.h"
#endif

namespace adala::cli {

namespace {

#ifdef ADALA_HAVE_REPORT_RENDER
// A QApplication for the charts, unless the process already has one; off screen unless the
// caller chose a platform.
std::unique_ptr<QApplication> ensure_application() {
  if (QCoreApplication::instance()) return nullptr;
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
  static int argc = 1;
  static char name[] = "adala";
  static char* argv[] = {name, nullptr};
  return std::make_unique<QApplication>(argc, argv);
}
#endif

}  // namespace

int report_command(const Args& raw) {
  CLI::App command_line{
      "One document for one run, or a comparison of several (config differences, stages, per-block "
      "MSE, ablation, teacher vs student, attention/segmentation figures, scaling). html: one "
      "self-contained file; pdf: A4 with contents and page numbers; md: FILE plus its figures in "
      "FILE_files/ beside it. A missing artifact file is reported (here and in the document); the "
      "report is written.",
      "adala report"};
  prepare_command_app(command_line);
  std::vector<std::string> runs;
  std::string format_name, output, db, title, language_option;
  double scale = 3;
  command_line.add_option("RUN", runs, "run ids or unique run names")->required();
  CLI::Option* format_option = command_line.add_option(
      "--format", format_name, "html, pdf or md (default: FILE's extension)");
  command_line.add_option("-o,--output", output, "the document to write")->required();
  command_line.add_option("--db", db, "the run database");
  command_line.add_option("--title", title, "the document's title");
  [[maybe_unused]] CLI::Option* language_given =
      command_line.add_option("--language", language_option, "en or ko (default: the system's)");
  command_line.add_option("--scale", scale, "chart pixels per point (3: about 300 dpi in print)")
      ->check(CLI::Range(0.5, 8.0));
  if (!parse_command_line(command_line, raw)) return 0;

  std::optional<report::ReportFormat> format;
  if (format_option->count()) {
    format = report::parse_report_format(format_name);
    if (!format) throw UsageError("--format " + format_name + ": expected html, pdf or md");
  } else {
    format = report::format_from_path(output);
    if (!format)
      throw UsageError("cannot tell the format from " + output + ": give --format html|pdf|md");
  }

  report::ReportRequest request;
  request.db_path = db;
  request.runs = runs;
  request.format = *format;
  request.output = output;
  request.title = title;
  request.chart.scale = scale;
  request.warn = [](const std::string& message) {
    std::fprintf(stderr, "adala report: warning: %s\n", message.c_str());
  };
#ifdef ADALA_HAVE_REPORT_RENDER
  auto app = ensure_application();
  const QString language = i18n::install_translator(*QCoreApplication::instance(),
                                                    QString::fromStdString(language_option));
  request.locale = report_render::report_locale(i18n::locale_for(language));
  const report::ReportResult result = report_render::export_report(request);
#else
  if (language_given->count() && language_option != "en")
    std::fprintf(
        stderr,
        "adala report: warning: this build has no translations; the report is in English\n");
  const report::ReportResult result = report::export_report(request);
#endif
  if (!result.ok) {
    std::fprintf(stderr, "adala report: error: %s\n", result.error.c_str());
    return 1;
  }
  std::printf("written: %s (%s", result.output.c_str(), report::format_name(*format).c_str());
  if (result.pages > 0) std::printf(", %d pages", result.pages);
  std::printf(", %d sections, %d figures", int(result.sections.size()), result.figures);
  if (result.files.size() > 1) std::printf(", %d figure files", int(result.files.size() - 1));
  if (!result.warnings.empty()) std::printf(", %d warnings", int(result.warnings.size()));
  std::printf(")\n");
  return 0;
}

}  // namespace adala::cli
