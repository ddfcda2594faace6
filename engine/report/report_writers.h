#pragma once
// The three report formats, written from one ReportDocument:
//   HTML      one self-contained file: CSS inline, every figure a base64 PNG data URI.
//   Markdown  FILE.md plus its figures as PNG files in FILE_files/ beside it.
//   PDF       Qt's own printing (QTextDocument laid out on a QPdfWriter, A4): a title page
//             with the table of contents (with page numbers), each section on a new page,
//             "page N of M" on every page; vector text, figures at their print resolution.
#include <QString>
#include <QStringList>
#include <QVector>

#include "engine/report/report_document.h"

namespace adala::report {

struct WriteResult {
  bool ok = false;
  QString error;
  QStringList files;          // every file written (the document first)
  int pages = 0;              // PDF only
  QVector<int> section_pages; // PDF only: 1-based page of each section's heading
};

QString render_html(const ReportDocument& doc);
WriteResult write_html(const ReportDocument& doc, const QString& path);
WriteResult write_markdown(const ReportDocument& doc, const QString& path);
WriteResult write_pdf(const ReportDocument& doc, const QString& path);

// "report.md" -> "report_files" (the folder Markdown figures go to, beside the file).
QString markdown_figure_folder(const QString& markdown_path);

}  // namespace adala::report
