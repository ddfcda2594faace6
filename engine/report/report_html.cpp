#include "engine/report/report_i18n.h"
#include "engine/report/report_text.h"
#include "engine/report/report_writers.h"

namespace adala::report {

namespace {

std::string esc(const std::string& s) { return html_escaped(s); }

constexpr const char* kCss = R"css(
body { font-family: "Noto Sans", "Segoe UI", "Helvetica Neue", Arial, "Apple SD Gothic Neo", "Malgun Gothic", "NanumGothic", sans-serif;
       color: #1d1d1f; max-width: 62rem; margin: 2rem auto; padding: 0 1.5rem; line-height: 1.45; }
h1 { font-size: 1.8rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.35rem; border-bottom: 2px solid #d0d7de; padding-bottom: 0.2rem; margin-top: 2.4rem; }
h3 { font-size: 1.1rem; margin-top: 1.6rem; }
.meta { color: #57606a; margin: 0.1rem 0; font-size: 0.92rem; }
nav.toc { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 0.6rem 1.2rem; margin: 1.5rem 0; }
nav.toc h2 { border: none; margin: 0.3rem 0; font-size: 1.1rem; }
nav.toc ol { margin: 0.3rem 0 0.4rem 1.2rem; padding: 0; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.6rem; vertical-align: top; text-align: left; }
th { background: #f0f3f6; }
tbody tr:nth-child(even) { background: #fafbfc; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.path { word-break: break-all; }
figure { margin: 1.2rem 0; text-align: center; }
figure img { max-width: 100%; height: auto; border: 1px solid #e1e4e8; }
figcaption { color: #57606a; font-size: 0.9rem; margin-top: 0.3rem; }
.notice { border-left: 4px solid #d29922; background: #fff8e5; padding: 0.5rem 0.9rem; margin: 0.8rem 0; }
.notice ul { margin: 0.3rem 0 0 1rem; padding: 0; }
footer { color: #8c959f; font-size: 0.8rem; margin-top: 3rem; border-top: 1px solid #d0d7de; padding-top: 0.4rem; }
)css";

void html_table(std::string& out, const ReportTable& t) {
  auto cls = [&](size_t c) {
    return c < t.numeric.size() && t.numeric[c] ? std::string(" class=\"num\"") : std::string();
  };
  out += "<table>\n<thead><tr>";
  for (size_t c = 0; c < t.header.size(); ++c) {
    const int width = c < t.widths.size() ? t.widths[c] : 0;
    out += "<th" + cls(c) +
           (width > 0 ? " style=\"width:" + std::to_string(width) + "%\"" : std::string()) + ">" +
           esc(t.header[c]) + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (size_t c = 0; c < row.size(); ++c) {
      const bool path = starts_with(row[c], "/") && !contains(row[c], " ");
      out += "<td" + (path ? std::string(" class=\"path\"") : cls(c)) + ">" + esc(row[c]) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table>\n";
}

// One section: its heading and its blocks.
void html_section(std::string& out, const ReportDocument& doc, const ReportSection& s,
                  const FigureRenderer& png) {
  out += "<section id=\"" + esc(s.id) + "\">\n<h2>" + esc(s.title) + "</h2>\n";
  for (const auto& b : s.blocks) {
    switch (b.kind) {
      case ReportBlock::Kind::Subheading:
        out += "<h3>" + esc(b.text) + "</h3>\n";
        break;
      case ReportBlock::Kind::Paragraph:
        out += "<p>" + esc(b.text) + "</p>\n";
        break;
      case ReportBlock::Kind::Bullets:
        out += "<ul>\n";
        for (const auto& item : b.items) out += "<li>" + esc(item) + "</li>\n";
        out += "</ul>\n";
        break;
      case ReportBlock::Kind::Notice:
        out += "<div class=\"notice\" role=\"note\"><strong>" + esc(b.text) + "</strong>";
        if (!b.items.empty()) {
          out += "<ul>";
          for (const auto& item : b.items) out += "<li>" + esc(item) + "</li>";
          out += "</ul>";
        }
        out += "</div>\n";
        break;
      case ReportBlock::Kind::Table:
        html_table(out, b.table);
        break;
      case ReportBlock::Kind::Figure: {
        const ReportFigure& f = doc.figures[size_t(b.figure)];
        const std::string bytes = png ? png(f) : std::string();
        out += "<figure id=\"" + esc(f.name) + "\">";
        if (!bytes.empty())
          out += "<img src=\"data:image/png;base64," + base64(bytes) + "\" width=\"" +
                 std::to_string(f.display.width) + "\" height=\"" +
                 std::to_string(f.display.height) + "\" alt=\"" + esc(f.caption) + "\">";
        out += "<figcaption>" + esc(figure_caption(f)) + "</figcaption></figure>\n";
        break;
      }
    }
  }
  out += "</section>\n";
}

}  // namespace

std::string render_html(const ReportDocument& doc, const FigureRenderer& png) {
  std::string out;
  out.reserve(1 << 20);
  out += "<!DOCTYPE html>\n<html lang=\"" + esc(doc.language) +
         "\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"AdaLA Workbench\">\n<title>" +
         esc(doc.title) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n";
  out += "<header>\n<h1>" + esc(doc.title) + "</h1>\n";
  for (const auto& line : doc.meta) out += "<p class=\"meta\">" + esc(line) + "</p>\n";
  out += "</header>\n";
  html_section(out, doc, doc.summary, png);

  out += "<nav class=\"toc\">\n<h2>" + esc(AdalaReport::tr("Contents")) + "</h2>\n<ol>\n";
  for (const auto& s : doc.sections)
    out += "<li><a href=\"#" + esc(s.id) + "\">" + esc(s.title) + "</a></li>\n";
  out += "</ol>\n</nav>\n";

  for (const auto& s : doc.sections) html_section(out, doc, s, png);
  out += "<footer>" + esc(join(doc.meta, " · ")) + "</footer>\n</body>\n</html>\n";
  return out;
}

WriteResult write_html(const ReportDocument& doc, const std::string& path,
                       const FigureRenderer& png) {
  WriteResult r;
  if (!write_file_atomically(path, render_html(doc, png), &r.error)) return r;
  r.ok = true;
  r.files.push_back(path);
  return r;
}

}  // namespace adala::report
