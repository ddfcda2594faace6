#pragma once
// The report with Qt behind it: what `adala report` and File → Export report… call.
// engine/report builds the document in plain C++; this layer gives it Qt's translations
// (QCoreApplication::translate through the installed QTranslators), QLocale's number and
// date formats, QCustomPlot's charts, picture files read by QImageReader, and the PDF writer.
//
//   adala::report::ReportRequest request;  // engine/report/report_export.h
//   request.locale = adala::report_render::report_locale(QLocale());
//   adala::report::ReportResult r = adala::report_render::export_report(request);
//
// Needs a QApplication in the calling thread, which must be the GUI thread.
#include <QLocale>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

#include "engine/report/report_export.h"
#include "engine/report/report_locale.h"

namespace adala::report_render {

// The locale's decimal point, grouping, signs, short date/time and data-size formats.
report::ReportLocale report_locale(const QLocale& locale);

// Routes engine/report's words through QCoreApplication::translate (idempotent).
void install_qt_translator();

// Charts by QCustomPlot, pictures by QImageReader, PDF by QPdfWriter.
report::ReportBackend qt_backend();

// export_report with the Qt backend and translator; an error when there is no QApplication.
report::ReportResult export_report(const report::ReportRequest& request);

// "AdaLA Workbench 0.1.0 (git abc123) · Qt 6.4.2 · QCustomPlot 2.1.0"
std::string report_generator();

QString to_qstring(const std::string& text);
QStringList to_qstrings(const std::vector<std::string>& texts);

}  // namespace adala::report_render
