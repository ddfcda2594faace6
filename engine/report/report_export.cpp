#include "engine/report/report_export.h"

#include <QApplication>
#include <QFileInfo>
#include <qcustomplot.h>

#include <cstdio>
#include <exception>

#include "engine/report/report_document.h"
#include "engine/report/report_model.h"
#include "engine/report/report_writers.h"
#include "engine/store/run_store.h"

#ifndef ADALA_VERSION
#define ADALA_VERSION "unknown"
#endif
#ifndef ADALA_GIT_VERSION
#define ADALA_GIT_VERSION "unknown"
#endif

namespace adala::report {

QString format_name(ReportFormat format) {
  switch (format) {
    case ReportFormat::Html: return QStringLiteral("html");
    case ReportFormat::Pdf: return QStringLiteral("pdf");
    case ReportFormat::Markdown: return QStringLiteral("md");
  }
  return {};
}

QString format_extension(ReportFormat format) { return '.' + format_name(format); }

std::optional<ReportFormat> parse_report_format(const QString& text) {
  const QString t = text.trimmed().toLower();
  if (t == QLatin1String("html") || t == QLatin1String("htm")) return ReportFormat::Html;
  if (t == QLatin1String("pdf")) return ReportFormat::Pdf;
  if (t == QLatin1String("md") || t == QLatin1String("markdown")) return ReportFormat::Markdown;
  return std::nullopt;
}

std::optional<ReportFormat> format_from_path(const QString& path) {
  const QString suffix = QFileInfo(path).suffix();
  if (suffix.isEmpty()) return std::nullopt;
  return parse_report_format(suffix);
}

QString report_generator() {
  return QStringLiteral("AdaLA Workbench %1 (%2) · Qt %3 · QCustomPlot %4")
      .arg(QStringLiteral(ADALA_VERSION), QStringLiteral(ADALA_GIT_VERSION), QString::fromLatin1(qVersion()),
           QStringLiteral(QCUSTOMPLOT_VERSION_STR));
}

ReportResult export_report(const ReportRequest& request) {
  ReportResult result;
  result.output = request.output;
  auto warn = [&](const QString& message) {
    result.warnings << message;
    if (request.warn) request.warn(message);
    else std::fprintf(stderr, "warning: %s\n", message.toLocal8Bit().constData());
  };
  if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
    result.error = QStringLiteral("a report needs a QApplication (charts are drawn by QCustomPlot)");
    return result;
  }
  if (request.runs.isEmpty()) {
    result.error = QStringLiteral("no runs given");
    return result;
  }
  if (request.output.isEmpty()) {
    result.error = QStringLiteral("no output file given");
    return result;
  }
  try {
    const std::string db = request.db_path.isEmpty() ? store::RunStore::default_path() : request.db_path.toStdString();
    store::RunStore store(db, store::OpenMode::ReadOnly);
    std::vector<int64_t> ids;
    for (const auto& run : request.runs) {
      const auto info = store.find_run(run.toStdString());
      if (!info) {
        result.error = QStringLiteral("no run \"%1\" in %2").arg(run, QString::fromStdString(store.path()));
        return result;
      }
      ids.push_back(info->id);
    }
    ReportModel model = load_report_model(store, ids);
    for (const auto& w : model.warnings) warn(w);

    DocumentOptions options;
    options.title = request.title;
    options.locale = request.locale;
    options.chart = request.chart;
    options.generator = report_generator();
    const ReportDocument doc = build_report_document(model, options);
    result.sections = doc.section_ids();
    result.figures = doc.figures.size();

    WriteResult written;
    switch (request.format) {
      case ReportFormat::Html: written = write_html(doc, request.output); break;
      case ReportFormat::Pdf: written = write_pdf(doc, request.output); break;
      case ReportFormat::Markdown: written = write_markdown(doc, request.output); break;
    }
    if (!written.ok) {
      result.error = written.error;
      return result;
    }
    result.files = written.files;
    result.pages = written.pages;
    result.section_pages = written.section_pages;
    result.ok = true;
  } catch (const std::exception& e) {
    result.error = QString::fromLocal8Bit(e.what());
  }
  return result;
}

}  // namespace adala::report
