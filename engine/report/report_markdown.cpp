#include <filesystem>
#include <system_error>

#include "engine/report/report_i18n.h"
#include "engine/report/report_text.h"
#include "engine/report/report_writers.h"

namespace adala::report {

namespace {

// Markdown-safe inline text: no table-breaking pipes, no stray emphasis or HTML.
std::string md(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '|' || c == '*' || c == '_' || c == '`' || c == '<' || c == '>' || c == '[' ||
        c == ']' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "<br>";
      continue;
    }
    out += c;
  }
  return out;
}

void md_table(std::string& out, const ReportTable& t) {
  out += '|';
  for (const auto& h : t.header) out += ' ' + md(h) + " |";
  out += "\n|";
  for (size_t c = 0; c < t.header.size(); ++c)
    out += c < t.numeric.size() && t.numeric[c] ? "---:|" : ":---|";
  out += '\n';
  for (const auto& row : t.rows) {
    out += '|';
    for (size_t c = 0; c < t.header.size(); ++c)
      out += ' ' + md(c < row.size() ? row[c] : std::string()) + " |";
    out += '\n';
  }
  out += '\n';
}

// One section: an anchor, its heading, its blocks.
void md_section(std::string& out, const ReportDocument& doc, const ReportSection& s,
                const std::vector<bool>& drawn, const std::string& folder_name) {
  out += "<a id=\"" + s.id + "\"></a>\n\n## " + md(s.title) + "\n\n";
  for (const auto& b : s.blocks) {
    switch (b.kind) {
      case ReportBlock::Kind::Subheading:
        out += "### " + md(b.text) + "\n\n";
        break;
      case ReportBlock::Kind::Paragraph:
        out += md(b.text) + "\n\n";
        break;
      case ReportBlock::Kind::Bullets:
        for (const auto& item : b.items) out += "- " + md(item) + "\n";
        out += '\n';
        break;
      case ReportBlock::Kind::Notice:
        out += "> **" + md(b.text) + "**\n";
        for (const auto& item : b.items) out += "> - " + md(item) + "\n";
        out += '\n';
        break;
      case ReportBlock::Kind::Table:
        md_table(out, b.table);
        break;
      case ReportBlock::Kind::Figure: {
        const ReportFigure& f = doc.figures[size_t(b.figure)];
        if (drawn[size_t(b.figure)])
          out += "![" + md(f.caption) + "](" + folder_name + "/" + f.name + ".png)\n\n";
        out += "*" + md(figure_caption(f)) + "*\n\n";
        break;
      }
    }
  }
}

std::string spaces_escaped(std::string text) {
  for (size_t at = text.find(' '); at != std::string::npos; at = text.find(' ', at + 3))
    text.replace(at, 1, "%20");
  return text;
}

}  // namespace

std::string markdown_figure_folder(const std::string& markdown_path) {
  return absolute_dir(markdown_path) + '/' + complete_base_name(markdown_path) + "_files";
}

WriteResult write_markdown(const ReportDocument& doc, const std::string& path,
                           const FigureRenderer& png) {
  WriteResult r;
  const std::string folder = markdown_figure_folder(path);
  const std::string folder_name = spaces_escaped(file_name(folder));
  std::error_code ec;
  if (!doc.figures.empty() && !std::filesystem::create_directories(folder, ec) && ec) {
    r.error = "cannot create " + folder;
    return r;
  }
  std::vector<std::string> figure_files;
  std::vector<bool> drawn;
  for (const auto& f : doc.figures) {
    const std::string bytes = png ? png(f) : std::string();
    drawn.push_back(!bytes.empty());
    if (bytes.empty()) continue;
    const std::string file = folder + '/' + f.name + ".png";
    std::string error;
    if (!write_file_atomically(file, bytes, &error)) {
      r.error = "cannot write " + file;
      return r;
    }
    figure_files.push_back(file);
  }

  std::string out;
  out += "# " + md(doc.title) + "\n\n";
  for (const auto& line : doc.meta) out += md(line) + "  \n";
  out += '\n';
  md_section(out, doc, doc.summary, drawn, folder_name);
  out += "## " + md(AdalaReport::tr("Contents")) + "\n\n";
  for (size_t i = 0; i < doc.sections.size(); ++i)
    out += std::to_string(i + 1) + ". [" + md(doc.sections[i].title) + "](#" + doc.sections[i].id +
           ")\n";
  out += '\n';
  for (const auto& s : doc.sections) md_section(out, doc, s, drawn, folder_name);
  if (!write_file_atomically(path, out, &r.error)) return r;
  r.ok = true;
  r.files.push_back(path);
  r.files.insert(r.files.end(), figure_files.begin(), figure_files.end());
  return r;
}

}  // namespace adala::report
