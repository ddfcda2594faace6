#include "engine/report/report_export.h"

#include <cstdio>
#include <exception>

#include "engine/runtime/build_info.h"
#include "engine/report/report_document.h"
#include "engine/report/report_text.h"
#include "engine/store/run_store.h"

namespace adala::report {

std::string format_name(ReportFormat format) {
  switch (format) {
    case ReportFormat::Html:
      return "html";
    case ReportFormat::Pdf:
      return "pdf";
    case ReportFormat::Markdown:
      return "md";
  }
  return {};
}

std::string format_extension(ReportFormat format) { return '.' + format_name(format); }

std::optional<ReportFormat> parse_report_format(const std::string& text) {
  const std::string t = to_lower_ascii(trimmed(text));
  if (t == "html" || t == "htm") return ReportFormat::Html;
  if (t == "pdf") return ReportFormat::Pdf;
  if (t == "md" || t == "markdown") return ReportFormat::Markdown;
  return std::nullopt;
}

std::optional<ReportFormat> format_from_path(const std::string& path) {
  const std::string ext = suffix(path);
  if (ext.empty()) return std::nullopt;
  return parse_report_format(ext);
}

std::string report_generator() {
  return std::string("AdaLA Workbench ") + kProjectVersion + " (" + kGitVersion + ")";
}

ReportResult export_report(const ReportRequest& request, const ReportBackend& backend) {
  ReportResult result;
  result.output = request.output;
  auto warn = [&](const std::string& message) {
    result.warnings.push_back(message);
    if (request.warn)
      request.warn(message);
    else
      std::fprintf(stderr, "warning: %s\n", message.c_str());
  };
  if (request.runs.empty()) {
    result.error = "no runs given";
    return result;
  }
  if (request.output.empty()) {
    result.error = "no output file given";
    return result;
  }
  if (request.format == ReportFormat::Pdf && !backend.write_pdf) {
    result.error = "this build writes no PDF (it needs the Qt front end): use html or md";
    return result;
  }
  try {
    const std::string db =
        request.db_path.empty() ? store::RunStore::default_path() : request.db_path;
    store::RunStore store(db, store::OpenMode::ReadOnly);
    std::vector<int64_t> ids;
    for (const auto& run : request.runs) {
      const auto info = store.find_run(run);
      if (!info) {
        result.error = "no run \"" + run + "\" in " + store.path();
        return result;
      }
      ids.push_back(info->id);
    }
    ReportModel model = load_report_model(store, ids, backend.probe);
    for (const auto& w : model.warnings) warn(w);

    DocumentOptions options;
    options.title = request.title;
    options.locale = request.locale;
    options.chart = request.chart;
    options.generator = backend.generator.empty() ? report_generator() : backend.generator;
    const ReportDocument doc = build_report_document(model, options);
    result.sections = doc.section_ids();
    result.figures = int(doc.figures.size());

    WriteResult written;
    switch (request.format) {
      case ReportFormat::Html:
        written = write_html(doc, request.output, backend.png);
        break;
      case ReportFormat::Pdf:
        written = backend.write_pdf(doc, request.output);
        break;
      case ReportFormat::Markdown:
        written = write_markdown(doc, request.output, backend.png);
        break;
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
    result.error = e.what();
  }
  return result;
}

}  // namespace adala::report
