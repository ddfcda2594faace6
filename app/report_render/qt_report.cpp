#include "app/report_render/qt_report.h"

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QImageReader>
#include <qcustomplot.h>

#include "app/report_render/chart_render.h"
#include "app/report_render/report_pdf.h"
#include "engine/runtime/build_info.h"
#include "engine/report/report_i18n.h"

namespace adala::report_render {

namespace {

std::string png_bytes(const report::ReportFigure& figure) {
  const QImage image = figure_image(figure);
  if (image.isNull()) return {};
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes.toStdString();
}

// Reads the whole picture, as the report always did: a truncated file is unreadable.
bool probe_image(const std::string& path, report::Size* size, std::string* error) {
  QImageReader reader(QString::fromStdString(path));
  const QImage image = reader.read();
  if (image.isNull()) {
    *error = reader.errorString().toStdString();
    return false;
  }
  *size = {image.width(), image.height()};
  return true;
}

}  // namespace

QString to_qstring(const std::string& text) { return QString::fromStdString(text); }

QStringList to_qstrings(const std::vector<std::string>& texts) {
  QStringList out;
  for (const auto& t : texts) out << QString::fromStdString(t);
  return out;
}

report::ReportLocale report_locale(const QLocale& locale) {
  report::ReportLocale out;
  out.name = locale.bcp47Name().toStdString();
  out.decimal = locale.decimalPoint().toStdString();
  out.group = locale.numberOptions().testFlag(QLocale::OmitGroupSeparator)
                  ? std::string()
                  : locale.groupSeparator().toStdString();
  out.percent = locale.percent().toStdString();
  out.minus = locale.negativeSign().toStdString();
  out.exponential = locale.exponential().toStdString();
  out.datetime = [locale](int64_t utc_msecs) {
    const QDateTime utc = QDateTime::fromMSecsSinceEpoch(utc_msecs, Qt::UTC);
    return locale.toString(utc.toLocalTime(), QLocale::ShortFormat).toStdString();
  };
  out.data_size = [locale](int64_t bytes) {
    return locale.formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat).toStdString();
  };
  return out;
}

void install_qt_translator() {
  report::set_translator(
      [](const char* context, const char* source, const char* disambiguation, int n) {
        return QCoreApplication::translate(context, source, disambiguation, n).toStdString();
      });
}

report::ReportBackend qt_backend() {
  report::ReportBackend backend;
  backend.png = png_bytes;
  backend.probe = probe_image;
  backend.write_pdf = write_pdf;
  backend.generator = report_generator();
  return backend;
}

report::ReportResult export_report(const report::ReportRequest& request) {
  if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
    report::ReportResult result;
    result.output = request.output;
    result.error = "a report needs a QApplication (charts are drawn by QCustomPlot)";
    return result;
  }
  install_qt_translator();
  return report::export_report(request, qt_backend());
}

std::string report_generator() {
  return QStringLiteral("AdaLA Workbench %1 (%2) · Qt %3 · QCustomPlot %4")
      .arg(QString::fromLatin1(kProjectVersion), QString::fromLatin1(kGitVersion),
           QString::fromLatin1(qVersion()), QStringLiteral(QCUSTOMPLOT_VERSION_STR))
      .toStdString();
}

}  // namespace adala::report_render
