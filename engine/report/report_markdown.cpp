#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include "engine/report/report_strings.h"
#include "engine/report/report_writers.h"

namespace adala::report {

namespace {

// Markdown-safe inline text: no table-breaking pipes, no stray emphasis or HTML.
QString md(const QString& s) {
  QString out;
  out.reserve(s.size());
  for (QChar c : s) {
    if (c == '|' || c == '*' || c == '_' || c == '`' || c == '<' || c == '>' || c == '[' || c == ']' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += QStringLiteral("<br>");
      continue;
    }
    out += c;
  }
  return out;
}

void md_table(QString& out, const ReportTable& t) {
  out += '|';
  for (const auto& h : t.header) out += ' ' + md(h) + QStringLiteral(" |");
  out += QStringLiteral("\n|");
  for (int c = 0; c < t.header.size(); ++c)
    out += c < t.numeric.size() && t.numeric[c] ? QStringLiteral("---:|") : QStringLiteral(":---|");
  out += '\n';
  for (const auto& row : t.rows) {
    out += '|';
    for (int c = 0; c < t.header.size(); ++c) out += ' ' + md(c < row.size() ? row[c] : QString()) + QStringLiteral(" |");
    out += '\n';
  }
  out += '\n';
}

}  // namespace

QString markdown_figure_folder(const QString& markdown_path) {
  const QFileInfo info(markdown_path);
  return info.absolutePath() + '/' + info.completeBaseName() + QStringLiteral("_files");
}

WriteResult write_markdown(const ReportDocument& doc, const QString& path) {
  WriteResult r;
  const QString folder = markdown_figure_folder(path);
  QString folder_name = QFileInfo(folder).fileName();
  folder_name.replace(' ', QStringLiteral("%20"));
  if (!doc.figures.isEmpty() && !QDir().mkpath(folder)) {
    r.error = QStringLiteral("cannot create %1").arg(folder);
    return r;
  }
  QStringList figure_files;
  for (const auto& f : doc.figures) {
    const QString file = folder + '/' + f.name + QStringLiteral(".png");
    if (!f.image.save(file, "PNG")) {
      r.error = QStringLiteral("cannot write %1").arg(file);
      return r;
    }
    figure_files << file;
  }

  QString out;
  out += QStringLiteral("# %1\n\n").arg(md(doc.title));
  for (const auto& line : doc.meta) out += md(line) + QStringLiteral("  \n");
  out += QStringLiteral("\n## %1\n\n").arg(md(AdalaReport::tr("Contents")));
  for (int i = 0; i < doc.sections.size(); ++i)
    out += QStringLiteral("%1. [%2](#%3)\n").arg(i + 1).arg(md(doc.sections[i].title), doc.sections[i].id);
  out += '\n';
  for (const auto& s : doc.sections) {
    out += QStringLiteral("<a id=\"%1\"></a>\n\n## %2\n\n").arg(s.id, md(s.title));
    for (const auto& b : s.blocks) {
      switch (b.kind) {
        case ReportBlock::Kind::Subheading: out += QStringLiteral("### %1\n\n").arg(md(b.text)); break;
        case ReportBlock::Kind::Paragraph: out += md(b.text) + QStringLiteral("\n\n"); break;
        case ReportBlock::Kind::Bullets:
          for (const auto& item : b.items) out += QStringLiteral("- %1\n").arg(md(item));
          out += '\n';
          break;
        case ReportBlock::Kind::Notice:
          out += QStringLiteral("> **%1**\n").arg(md(b.text));
          for (const auto& item : b.items) out += QStringLiteral("> - %1\n").arg(md(item));
          out += '\n';
          break;
        case ReportBlock::Kind::Table: md_table(out, b.table); break;
        case ReportBlock::Kind::Figure: {
          const ReportFigure& f = doc.figures[b.figure];
          const QString caption = AdalaReport::tr("Figure %1.").arg(f.number) + ' ' + f.caption;
          out += QStringLiteral("![%1](%2/%3.png)\n\n*%4*\n\n").arg(md(f.caption), folder_name, f.name, md(caption));
          break;
        }
      }
    }
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(out.toUtf8()) < 0 || !file.commit()) {
    r.error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return r;
  }
  r.ok = true;
  r.files << path << figure_files;
  return r;
}

}  // namespace adala::report
