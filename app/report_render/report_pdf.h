#pragma once
// The report as PDF through Qt's own printing (QTextDocument laid out on a QPdfWriter, A4): a
// title page with the table of contents (with page numbers), each section on a new page,
// "page N of M" on every page; vector text, figures at their print resolution. Needs a
// QApplication (the charts are QCustomPlot widgets drawn off screen).
#include <string>

#include "engine/report/report_document.h"
#include "engine/report/report_writers.h"

namespace adala::report_render {

report::WriteResult write_pdf(const report::ReportDocument& doc, const std::string& path);

}  // namespace adala::report_render
