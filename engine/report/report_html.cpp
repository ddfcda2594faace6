#include <QBuffer>
#include <QFile>
#include <QSaveFile>

#include "engine/report/report_strings.h"
#include "engine/report/report_writers.h"

namespace adala::report {

namespace {

QString esc(const QString& s) { return s.toHtmlEscaped(); }

QByteArray png_bytes(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes;
}

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

void html_table(QString& out, const ReportTable& t) {
  auto cls = [&](int c) { return c < t.numeric.size() && t.numeric[c] ? QStringLiteral(" class=\"num\"") : QString(); };
  out += QStringLiteral("<table>\n<thead><tr>");
  for (int c = 0; c < t.header.size(); ++c) {
    const int width = c < t.widths.size() ? t.widths[c] : 0;
    out += QStringLiteral("<th%1%2>%3</th>")
               .arg(cls(c), width > 0 ? QStringLiteral(" style=\"width:%1%\"").arg(width) : QString(), esc(t.header[c]));
  }
  out += QStringLiteral("</tr></thead>\n<tbody>\n");
  for (const auto& row : t.rows) {
    out += QStringLiteral("<tr>");
    for (int c = 0; c < row.size(); ++c) {
      const bool path = row[c].startsWith('/') && !row[c].contains(' ');
      out += QStringLiteral("<td%1>%2</td>").arg(path ? QStringLiteral(" class=\"path\"") : cls(c), esc(row[c]));
    }
    out += QStringLiteral("</tr>\n");
  }
  out += QStringLiteral("</tbody></table>\n");
}

}  // namespace

QString render_html(const ReportDocument& doc) {
  QString out;
  out.reserve(1 << 20);
  out += QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                        "<meta name=\"generator\" content=\"AdaLA Workbench\">\n<title>%2</title>\n<style>%3</style>\n</head>\n<body>\n")
             .arg(esc(doc.language), esc(doc.title), QString::fromLatin1(kCss));
  out += QStringLiteral("<header>\n<h1>%1</h1>\n").arg(esc(doc.title));
  for (const auto& line : doc.meta) out += QStringLiteral("<p class=\"meta\">%1</p>\n").arg(esc(line));
  out += QStringLiteral("</header>\n");

  out += QStringLiteral("<nav class=\"toc\">\n<h2>%1</h2>\n<ol>\n").arg(esc(AdalaReport::tr("Contents")));
  for (const auto& s : doc.sections)
    out += QStringLiteral("<li><a href=\"#%1\">%2</a></li>\n").arg(esc(s.id), esc(s.title));
  out += QStringLiteral("</ol>\n</nav>\n");

  for (const auto& s : doc.sections) {
    out += QStringLiteral("<section id=\"%1\">\n<h2>%2</h2>\n").arg(esc(s.id), esc(s.title));
    for (const auto& b : s.blocks) {
      switch (b.kind) {
        case ReportBlock::Kind::Subheading: out += QStringLiteral("<h3>%1</h3>\n").arg(esc(b.text)); break;
        case ReportBlock::Kind::Paragraph: out += QStringLiteral("<p>%1</p>\n").arg(esc(b.text)); break;
        case ReportBlock::Kind::Bullets:
          out += QStringLiteral("<ul>\n");
          for (const auto& item : b.items) out += QStringLiteral("<li>%1</li>\n").arg(esc(item));
          out += QStringLiteral("</ul>\n");
          break;
        case ReportBlock::Kind::Notice:
          out += QStringLiteral("<div class=\"notice\" role=\"note\"><strong>%1</strong>").arg(esc(b.text));
          if (!b.items.isEmpty()) {
            out += QStringLiteral("<ul>");
            for (const auto& item : b.items) out += QStringLiteral("<li>%1</li>").arg(esc(item));
            out += QStringLiteral("</ul>");
          }
          out += QStringLiteral("</div>\n");
          break;
        case ReportBlock::Kind::Table: html_table(out, b.table); break;
        case ReportBlock::Kind::Figure: {
          const ReportFigure& f = doc.figures[b.figure];
          const QString caption = AdalaReport::tr("Figure %1.").arg(f.number) + ' ' + f.caption;
          out += QStringLiteral("<figure id=\"%1\"><img src=\"data:image/png;base64,%2\" width=\"%3\" height=\"%4\" alt=\"%5\">"
                                "<figcaption>%6</figcaption></figure>\n")
                     .arg(esc(f.name), QString::fromLatin1(png_bytes(f.image).toBase64()))
                     .arg(f.display.width())
                     .arg(f.display.height())
                     .arg(esc(f.caption), esc(caption));
          break;
        }
      }
    }
    out += QStringLiteral("</section>\n");
  }
  out += QStringLiteral("<footer>%1</footer>\n</body>\n</html>\n").arg(esc(doc.meta.join(QStringLiteral(" · "))));
  return out;
}

WriteResult write_html(const ReportDocument& doc, const QString& path) {
  WriteResult r;
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    r.error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return r;
  }
  file.write(render_html(doc).toUtf8());
  if (!file.commit()) {
    r.error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return r;
  }
  r.ok = true;
  r.files << path;
  return r;
}

}  // namespace adala::report
