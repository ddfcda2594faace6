// `adala report`: a run report (or a comparison of runs) as HTML, PDF or Markdown, from the
// run database. Same code as the GUI's File → Export report… (engine/report, drawn and
// translated by app/report_render). A build without Qt writes HTML and Markdown in English,
// with picture files but without charts, and no PDF.
#include "app/cli/commands.h"

#ifdef ADALA_HAVE_REPORT

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

constexpr const char* kUsage =
    "usage: adala report RUN [RUN...] [--format html|pdf|md] -o FILE [--db FILE]\n"
    "                    [--title TEXT] [--language en|ko] [--scale S]\n"
    "  One document for one run, or a comparison of several (config differences, stages,\n"
    "  per-block MSE, ablation, teacher vs student, attention/segmentation figures, scaling).\n"
    "  html: one self-contained file; pdf: A4 with contents and page numbers; md: FILE plus\n"
    "  its figures in FILE_files/ beside it. --format defaults to the extension of FILE.\n"
    "  --language: the report's language (default: the system's); --scale: chart pixels per\n"
    "  point (default 3, about 300 dpi in print). RUN is a run id or a unique run name.\n"
    "  A missing artifact file is reported (here and in the document); the report is written.\n";

#ifdef ADALA_HAVE_REPORT_RENDER
// A QApplication for the charts, unless the process already has one; off screen unless the
// caller chose a platform.
std::unique_ptr<QApplication> ensure_application() {
  if (QCoreApplication::instance()) return nullptr;
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
  static int argc = 1;
  static char name[] = "adala";
  static char* argv[] = {name, nullptr};
  return std::make_unique<QApplication>(argc, argv);
}
#endif

}  // namespace

int report_command(const Args& raw) {
  // -o FILE is the one short option (ArgParser knows long ones only).
  Args args;
  for (size_t i = 0; i < raw.size(); ++i) {
    args.push_back(raw[i] == "-o" ? std::string("--output") : raw[i]);
  }
  ArgParser p;
  p.option("format", "").option("output", "").option("db", "").option("title", "").option("language", "")
      .option("scale", "3").flag("help");
  p.parse(args);
  if (p.flag_set("help")) {
    std::printf("%s", kUsage);
    return 0;
  }
  if (p.positional().empty()) throw UsageError(std::string("no RUN given\n") + kUsage);
  if (p.get("output").empty()) throw UsageError(std::string("-o FILE is required\n") + kUsage);

  const std::string output = p.get("output");
  std::optional<report::ReportFormat> format;
  if (p.has("format")) {
    format = report::parse_report_format(p.get("format"));
    if (!format) throw UsageError("--format " + p.get("format") + ": expected html, pdf or md");
  } else {
    format = report::format_from_path(output);
    if (!format) throw UsageError("cannot tell the format from " + p.get("output") + ": give --format html|pdf|md");
  }
  const double scale = p.get_double("scale");
  if (!(scale >= 0.5 && scale <= 8)) throw UsageError("--scale expects a number between 0.5 and 8");

  report::ReportRequest request;
  request.db_path = p.get("db");
  request.runs = p.positional();
  request.format = *format;
  request.output = output;
  request.title = p.get("title");
  request.chart.scale = scale;
  request.warn = [](const std::string& message) {
    std::fprintf(stderr, "adala report: warning: %s\n", message.c_str());
  };
#ifdef ADALA_HAVE_REPORT_RENDER
  auto app = ensure_application();
  const QString language = i18n::install_translator(*QCoreApplication::instance(),
                                                    QString::fromStdString(p.get("language")));
  request.locale = report_render::report_locale(i18n::locale_for(language));
  const report::ReportResult result = report_render::export_report(request);
#else
  if (p.has("language") && p.get("language") != "en")
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

#endif  // ADALA_HAVE_REPORT
