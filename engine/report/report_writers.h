#pragma once
// The report formats written here, from one ReportDocument:
//   HTML      one self-contained file: CSS inline, every figure a base64 PNG data URI.
//   Markdown  FILE.md plus its figures as PNG files in FILE_files/ beside it.
// (The PDF writer is in the application: app/report_render/report_pdf.h.)
// Figures reach the writers as PNG bytes from a FigureRenderer: the application's draws the
// charts (app/report_render); the default one, file_figure_png, passes picture files through
// and draws no charts (their place shows the caption only).
#include <functional>
#include <string>
#include <vector>

#include "engine/report/report_document.h"

namespace adala::report {

struct WriteResult {
  bool ok = false;
  std::string error;
  std::vector<std::string> files;  // every file written (the document first)
  int pages = 0;                   // PDF only
  std::vector<int> section_pages;  // PDF only: 1-based page of each section's heading
};

// PNG bytes of a figure; "" when it cannot be drawn.
using FigureRenderer = std::function<std::string(const ReportFigure&)>;
std::string file_figure_png(
    const ReportFigure& figure);  // PNG picture files as they are; no charts

std::string render_html(const ReportDocument& doc, const FigureRenderer& png = file_figure_png);
WriteResult write_html(const ReportDocument& doc, const std::string& path,
                       const FigureRenderer& png = file_figure_png);
WriteResult write_markdown(const ReportDocument& doc, const std::string& path,
                           const FigureRenderer& png = file_figure_png);

// "report.md" -> "report_files" (the folder Markdown figures go to, beside the file).
std::string markdown_figure_folder(const std::string& markdown_path);

// "Figure 3. caption" (translated), as every writer captions a figure.
std::string figure_caption(const ReportFigure& figure);

// Writes through a temporary file renamed over `path` (no half-written report); false and
// *error ("cannot write PATH: reason") when it fails.
bool write_file_atomically(const std::string& path, const std::string& bytes, std::string* error);

}  // namespace adala::report
