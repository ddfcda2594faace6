// PDF through Qt's own printing: the document as Qt rich text in a QTextDocument, laid out
// on a QPdfWriter (A4), painted page by page with a footer ("page N of M"). The table of
// contents needs the pages the sections land on, which needs a layout: the document is laid
// out, the headings' pages read back, the contents filled in and laid out again until the
// numbers stand still (they do after one round: the contents has a fixed number of lines).
// The same loop keeps sub-headings with what follows them and figures with their captions.
#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScreen>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "app/report_render/report_pdf.h"
#include "app/report_render/qt_text.h"

#include "app/report_render/chart_render.h"
#include "engine/report/report_i18n.h"

namespace adala::report_render {

using report::ReportBlock;
using report::ReportDocument;
using report::ReportFigure;
using report::ReportSection;
using report::ReportTable;
using report::WriteResult;

namespace {

QString esc(const std::string& s) { return qs(s).toHtmlEscaped(); }

// Lets long paths wrap inside table cells: a zero-width space after every '/'.
QString with_path_breaks(const std::string& s) {
  QString t = qs(s);
  if (t.size() > 24) t.replace('/', QStringLiteral("/\u200B"));
  return t;
}
QString breakable(const std::string& s) { return with_path_breaks(s).toHtmlEscaped(); }

// The resolution QTextDocument treats HTML pixel lengths in (Qt's qt_defaultDpi()).
double layout_dpi() {
  if (QCoreApplication::testAttribute(Qt::AA_Use96Dpi)) return 96.0;
  if (const QScreen* screen = QGuiApplication::primaryScreen())
    return std::round(screen->logicalDotsPerInchY());
  return 100.0;
}

const char* const kFigureScheme = "adala-figure";

struct PdfLayout {
  double content_logical_width = 660;  // HTML pixels across the text area
  // For measuring table cells as the document lays them out: the paint device, its pixels
  // per HTML pixel, the text area's width in its pixels.
  QPaintDevice* device = nullptr;
  double device_per_logical = 1;
  double content_device_width = 0;
};

constexpr double kTablePointSize = 8.5;
constexpr int kCellPadding = 3;  // HTML pixels, each side

QFont table_font(double point_size, bool bold) {
  QFont font = QApplication::font();
  font.setPointSizeF(point_size);
  font.setBold(bold);
  return font;
}

// The widest word (split at blanks and at breakable()'s zero-width spaces) and the whole text.
struct TextWidth {
  double word = 0, whole = 0;
};
TextWidth measure(const QFontMetricsF& metrics, const QString& text) {
  TextWidth w;
  w.whole = metrics.horizontalAdvance(text);
  static const QRegularExpression breaks(QStringLiteral("[\\s\\x{200B}]+"));
  for (const QString& word : text.split(breaks, Qt::SkipEmptyParts))
    w.word = std::max(w.word, metrics.horizontalAdvance(word));
  return w;
}

// Column widths (percent of the table's width) measured with the cells' font, so that no
// number or duration breaks inside: a numeric column is as wide as its widest cell, a text
// column at least as wide as its longest word, and wraps only at blanks; what is left goes to
// the text columns whose cells would wrap, as far as their text (or the document's width) asks,
// and the rest to every column in proportion.
// Empty when even that does not fit at this point size.
std::vector<double> column_percents(const ReportTable& t, const PdfLayout& layout,
                                    double point_size) {
  const size_t n = t.header.size();
  const double total = layout.content_device_width;
  if (n == 0 || !layout.device || total <= 0) return {};
  const QFontMetricsF cell(table_font(point_size, false), layout.device);
  const QFontMetricsF head(table_font(point_size, true), layout.device);
  // Padding, border and a little room for the layout's rounding.
  const double extra = (2 * kCellPadding + 3) * layout.device_per_logical;
  std::vector<double> need(n, 0), want(n, 0);
  for (size_t c = 0; c < n; ++c) {
    const bool numeric = c < t.numeric.size() && t.numeric[c];
    // Headings wrap at blanks before any cell does.
    need[c] = measure(head, qs(t.header[c])).word;
    for (const auto& row : t.rows) {
      if (c >= row.size()) continue;
      const TextWidth w = measure(cell, with_path_breaks(row[c]));
      need[c] = std::max(need[c], numeric ? w.whole : std::min(w.word, 0.4 * total));
      want[c] = std::max(want[c], w.whole);
    }
    const int hint = c < t.widths.size() ? t.widths[c] : 0;
    need[c] += extra;
    want[c] = std::max({want[c] + extra, hint * total / 100.0, need[c]});
  }
  double needed = 0, wanted = 0;
  for (size_t c = 0; c < n; ++c) {
    needed += need[c];
    wanted += want[c] - need[c];
  }
  if (needed > total) return {};
  const double room = total - needed;
  double want_sum = 0;
  for (double w : want) want_sum += w;
  std::vector<double> width(n);
  for (size_t c = 0; c < n; ++c)
    width[c] = wanted <= room
                   ? want[c] + (room - wanted) * want[c] / want_sum  // the rest in proportion
                   : need[c] + room * (want[c] - need[c]) / wanted;
  std::vector<double> percents;
  for (double w : width) percents.push_back(std::floor(w / total * 10000) / 100);
  return percents;
}

QString rich_table(const ReportTable& t, const PdfLayout& layout) {
  // A table too wide for its columns' words is set smaller; if it is too wide even then, the
  // columns are left to Qt.
  double point_size = kTablePointSize;
  std::vector<double> percents;
  for (double size : {kTablePointSize, kTablePointSize - 1, kTablePointSize - 2}) {
    point_size = size;
    percents = column_percents(t, layout, size);
    if (!percents.empty()) break;
  }
  QString out = QStringLiteral(
                    "<table border=\"1\" cellspacing=\"0\" cellpadding=\"%1\" width=\"100%\" "
                    "style=\"border-collapse: collapse; border-color: #b8c2cc; font-size: "
                    "%2pt;\">\n<thead><tr>")
                    .arg(kCellPadding)
                    .arg(point_size);
  auto numeric = [&](size_t c) { return c < t.numeric.size() && t.numeric[c]; };
  auto align = [&](size_t c) {
    return numeric(c) ? QStringLiteral("right") : QStringLiteral("left");
  };
  for (size_t c = 0; c < t.header.size(); ++c) {
    const QString width = c < percents.size()
                              ? QStringLiteral(" width=\"%1%\"").arg(percents[c], 0, 'f', 2)
                              : QString();
    out += QStringLiteral("<th bgcolor=\"#e6ebf1\" align=\"%1\"%2>%3</th>")
               .arg(align(c), width, esc(t.header[c]));
  }
  out += QStringLiteral("</tr></thead>\n");
  for (size_t r = 0; r < t.rows.size(); ++r) {
    out += r % 2 ? QStringLiteral("<tr bgcolor=\"#f7f9fb\">") : QStringLiteral("<tr>");
    for (size_t c = 0; c < t.header.size(); ++c) {
      const std::string cell = c < t.rows[r].size() ? t.rows[r][c] : std::string();
      // Numbers and durations ("1 min 38 s") stay on one line.
      const QString text = numeric(c) ? esc(cell).replace(QLatin1Char(' '), QLatin1String("&nbsp;"))
                                      : breakable(cell);
      out += QStringLiteral("<td align=\"%1\">%2</td>").arg(align(c), text);
    }
    out += QStringLiteral("</tr>\n");
  }
  out += QStringLiteral("</table>\n");
  return out;
}

// `breaks`: sub-headings ("sub-N") and figures ("fig-N") that start a new page (keep-with-next).
struct BlockWriter {
  const ReportDocument& doc;
  const PdfLayout& layout;
  const std::set<QString>& breaks;
  QString& out;
  int subheading = 0;  // the sub-headings so far, for their keys

  QString page_break(const QString& key) const {
    return breaks.count(key) ? QStringLiteral(" page-break-before: always;") : QString();
  }
  void notice(const ReportBlock& b) {
    out += QStringLiteral(
               "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" border=\"1\" "
               "style=\"border-collapse: collapse; border-color: #d29922;\"><tr><td "
               "bgcolor=\"#fff8e5\">"
               "<p><b>%1</b></p>")
               .arg(esc(b.text));
    for (const auto& item : b.items) out += QStringLiteral("<p>• %1</p>").arg(breakable(item));
    out += QStringLiteral("</td></tr></table>\n");
  }
  void figure(const ReportBlock& b) {
    const ReportFigure& f = doc.figures[size_t(b.figure)];
    QSizeF size(f.display.width, f.display.height);
    if (size.width() > layout.content_logical_width)
      size = size * (layout.content_logical_width / size.width());
    out +=
        QStringLiteral(
            "<p align=\"center\" style=\"margin-top: 10px;%1\"><img src=\"%2:%3\" "
            "width=\"%4\" height=\"%5\"></p>\n")
            .arg(page_break(QStringLiteral("fig-%1").arg(b.figure)), QLatin1String(kFigureScheme))
            .arg(b.figure)
            .arg(int(size.width()))
            .arg(int(size.height()));
    out += QStringLiteral(
               "<p align=\"center\" style=\"margin-bottom: 10px;\"><span style=\"color: "
               "#57606a; font-size: 8.5pt;\">%1</span></p>\n")
               .arg(esc(report::figure_caption(f)));
  }
  void section(const ReportSection& s) {
    for (const auto& b : s.blocks) {
      switch (b.kind) {
        case ReportBlock::Kind::Subheading: {
          const QString key = QStringLiteral("sub-%1").arg(subheading++);
          out += QStringLiteral("<h3 style=\"%1\"><a name=\"%2\"></a>%3</h3>\n")
                     .arg(page_break(key), key, esc(b.text));
          break;
        }
        case ReportBlock::Kind::Paragraph:
          out += QStringLiteral("<p>%1</p>\n").arg(breakable(b.text));
          break;
        case ReportBlock::Kind::Bullets:
          out += QStringLiteral("<ul>\n");
          for (const auto& item : b.items)
            out += QStringLiteral("<li>%1</li>\n").arg(breakable(item));
          out += QStringLiteral("</ul>\n");
          break;
        case ReportBlock::Kind::Notice:
          notice(b);
          break;
        case ReportBlock::Kind::Table:
          out += rich_table(b.table, layout);
          break;
        case ReportBlock::Kind::Figure:
          figure(b);
          break;
      }
    }
  }
};

// The table of contents: each section's number, title and page (0 while not known).
QString contents_table(const ReportDocument& doc, const QVector<int>& toc_pages) {
  QString out = QStringLiteral(
      "<table width=\"100%\" cellspacing=\"0\" cellpadding=\"4\" style=\"font-size: 11pt;\">\n");
  for (int i = 0; i < int(doc.sections.size()); ++i) {
    const QString page = i < toc_pages.size() && toc_pages[i] > 0 ? QString::number(toc_pages[i])
                                                                  : QStringLiteral("0");
    out +=
        QStringLiteral("<tr><td width=\"7%\">%1.</td><td>%2</td><td align=\"right\">%3</td></tr>\n")
            .arg(QString::number(i + 1), esc(doc.sections[size_t(i)].title), page);
  }
  out += QStringLiteral("</table>\n");
  return out;
}

QString rich_html(const ReportDocument& doc, const QVector<int>& toc_pages, const PdfLayout& layout,
                  const std::set<QString>& breaks) {
  QString out;
  BlockWriter blocks{doc, layout, breaks, out, 0};
  out += QStringLiteral(
      "<html><head><style>"
      "h1 { font-size: 20pt; color: #14304f; }"
      "h2 { font-size: 15pt; color: #14304f; margin-top: 0px; margin-bottom: 8px; }"
      "h3 { font-size: 11.5pt; color: #1d1d1f; margin-top: 14px; margin-bottom: 4px; }"
      "p { margin-top: 4px; margin-bottom: 4px; }"
      "</style></head><body>\n");
  out += QStringLiteral("<h1>%1</h1>\n").arg(esc(doc.title));
  for (const auto& line : doc.meta)
    out += QStringLiteral("<p><span style=\"color: #57606a; font-size: 9pt;\">%1</span></p>\n")
               .arg(breakable(line));
  // The summary, as an abstract, then the contents: the first two level-2 headings.
  out += QStringLiteral("<p>&nbsp;</p>\n<h2>%1</h2>\n").arg(esc(doc.summary.title));
  blocks.section(doc.summary);
  out += QStringLiteral("<p>&nbsp;</p>\n<h2>%1</h2>\n").arg(esc(AdalaReport::tr("Contents")));
  out += contents_table(doc, toc_pages);

  for (int i = 0; i < int(doc.sections.size()); ++i) {
    const ReportSection& s = doc.sections[size_t(i)];
    out += QStringLiteral("<h2 style=\"page-break-before: always;\">%1. %2</h2>\n")
               .arg(QString::number(i + 1), esc(s.title));
    blocks.section(s);
  }
  out += QStringLiteral("</body></html>\n");
  return out;
}

// The keep-with-next key rich_html gave a block: "sub-N" (sub-heading), "fig-N" (figure).
QString block_key(const QTextBlock& b) {
  for (auto it = b.begin(); !it.atEnd(); ++it) {
    const QTextCharFormat f = it.fragment().charFormat();
    if (f.isImageFormat()) {
      const QString name = f.toImageFormat().name();
      const QString prefix = QLatin1String(kFigureScheme) + ':';
      if (name.startsWith(prefix)) return QStringLiteral("fig-") + name.mid(prefix.size());
    }
    for (const QString& anchor : f.anchorNames())
      if (anchor.startsWith(QLatin1String("sub-"))) return anchor;
  }
  return {};
}

QString cannot_write(const QString& path, const QSaveFile& file) {
  return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
}

// A4 at 300 dpi with the document's title.
void set_up_writer(QPdfWriter& writer, const ReportDocument& doc) {
  writer.setResolution(300);
  writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                   QMarginsF(16, 15, 16, 12), QPageLayout::Millimeter));
  writer.setTitle(qs(doc.title));
  writer.setCreator(QStringLiteral("AdaLA Workbench"));
}

// A page in the writer's pixels: the paint rectangle, the footer at its foot, the text above.
struct PageGeometry {
  QRect paint;
  double footer_height = 0;
  QSizeF page;  // the text's part
};

PageGeometry page_geometry(const QPdfWriter& writer) {
  PageGeometry g;
  g.paint = writer.pageLayout().paintRectPixels(writer.resolution());
  g.footer_height = 9.0 / 25.4 * writer.resolution();  // 9 mm
  g.page = QSizeF(g.paint.width(), g.paint.height() - g.footer_height);
  return g;
}

PdfLayout pdf_layout(QPdfWriter& writer, const QSizeF& page) {
  const double device_per_logical = writer.logicalDpiY() / layout_dpi();
  PdfLayout layout;
  layout.content_logical_width = std::floor(page.width() / device_per_logical) - 2;
  layout.device = &writer;
  layout.device_per_logical = device_per_logical;
  layout.content_device_width = page.width();
  return layout;
}

// The text document laid out on the writer's pages, with the figures as its images.
void set_up_text(QTextDocument& text, QPdfWriter& writer, const QSizeF& page,
                 const ReportDocument& doc) {
  text.documentLayout()->setPaintDevice(&writer);
  text.setPageSize(page);
  text.setDocumentMargin(0);
  QFont font = QApplication::font();
  font.setPointSizeF(10);
  text.setDefaultFont(font);
  for (size_t i = 0; i < doc.figures.size(); ++i)
    text.addResource(QTextDocument::ImageResource,
                     QUrl(QStringLiteral("%1:%2").arg(QLatin1String(kFigureScheme)).arg(i)),
                     QVariant(figure_image(doc.figures[i])));
}

// The pages a laid-out block's lines fall on, pages `h` high.
struct PageLocator {
  const QTextDocument& text;
  double h;

  // Where a block's first and last lines are (a page break moves the lines, not the block's
  // top), in document coordinates.
  double line_top(const QTextBlock& b) const {
    const double top = text.documentLayout()->blockBoundingRect(b).top();
    const QTextLayout* l = b.layout();
    return l && l->lineCount() > 0 ? top + l->lineAt(0).y() : top;
  }
  double line_bottom(const QTextBlock& b) const {
    const QRectF r = text.documentLayout()->blockBoundingRect(b);
    const QTextLayout* l = b.layout();
    return l && l->lineCount() > 0 ? r.top() + l->lineAt(l->lineCount() - 1).rect().bottom()
                                   : r.bottom();
  }
  int top_page(const QTextBlock& b) const { return int(std::floor((line_top(b) + 0.5) / h)); }
  int bottom_page(const QTextBlock& b) const { return int(std::floor((line_bottom(b) - 0.5) / h)); }
};

// Keeps a sub-heading with what follows, and a figure with its caption: adds to `breaks` the
// keys of those that end a page whose next block is on the next one. Whether it added any.
bool add_keep_with_next_breaks(const QTextDocument& text, const PageLocator& at,
                               std::set<QString>& breaks) {
  bool changed = false;
  for (QTextBlock b = text.begin(); b.isValid(); b = b.next()) {
    const QTextBlock next = b.next();
    const QString key = block_key(b);
    if (!next.isValid() || key.isEmpty() || breaks.count(key)) continue;
    if (at.top_page(next) > at.bottom_page(b) && at.top_page(b) == at.bottom_page(b)) {
      // Not when the block already starts a page (it would only move to the next one).
      if (std::fmod(at.line_top(b) + 0.5, at.h) < 2.0) continue;
      breaks.insert(key);
      changed = true;
    }
  }
  return changed;
}

// Pages of the section headings (the first two level-2 headings are the summary's and the
// contents').
QVector<int> section_pages(const QTextDocument& text, const PageLocator& at) {
  QVector<int> pages;
  int front = 2;
  for (QTextBlock b = text.begin(); b.isValid(); b = b.next()) {
    if (b.blockFormat().headingLevel() != 2) continue;
    if (front > 0) {
      --front;
      continue;
    }
    pages << at.top_page(b) + 1;
  }
  return pages;
}

// Sets the document's HTML and lays it out until its contents' page numbers and its page
// breaks stand still; returns the sections' pages.
QVector<int> lay_out(QTextDocument& text, const ReportDocument& doc, const PdfLayout& layout,
                     double page_height) {
  QVector<int> toc_pages(int(doc.sections.size()), 0);
  std::set<QString> breaks;  // keys (block_key) of blocks that start a new page
  const PageLocator at{text, page_height};
  for (int round = 0; round < 8; ++round) {
    // The breaks go into the HTML: changing block formats after setHtml leaves stale layout
    // check points behind, and the painting then skips blocks.
    text.setHtml(rich_html(doc, toc_pages, layout, breaks));
    (void)text.pageCount();  // lays it out

    bool changed = add_keep_with_next_breaks(text, at, breaks);
    const QVector<int> pages = section_pages(text, at);
    if (pages != toc_pages) {
      toc_pages = pages;
      changed = true;
    }
    if (!changed) break;
  }
  return toc_pages;
}

// Page `p` of the text, then its footer: a rule, the title and "Page N of M".
void paint_page(QPainter& painter, QPdfWriter& writer, QTextDocument& text, const PageGeometry& g,
                const QString& title, int p, int pages) {
  const QSizeF& page = g.page;
  const double h = page.height();
  painter.save();
  painter.setClipRect(QRectF(0, 0, page.width(), page.height()));
  painter.translate(0, -p * h);
  QAbstractTextDocumentLayout::PaintContext context;
  // One device pixel less: a line starting exactly at the next page's top is not drawn
  // (clipped, but its text would still be in this page's content stream).
  context.clip = QRectF(0, p * h, page.width(), h - 1);
  context.palette.setColor(QPalette::Text, Qt::black);
  text.documentLayout()->draw(&painter, context);
  painter.restore();

  QFont footer_font = QApplication::font();
  footer_font.setPointSizeF(8);
  const QFontMetricsF footer_metrics(footer_font, &writer);
  const double line_y = page.height() + g.footer_height * 0.35;
  painter.setPen(QPen(QColor(190, 196, 204), writer.resolution() / 150.0));
  painter.drawLine(QPointF(0, line_y), QPointF(page.width(), line_y));
  painter.setFont(footer_font);
  painter.setPen(QColor(110, 118, 129));
  const QRectF footer(0, line_y, page.width(), g.paint.height() - line_y);
  const QString number = qs(AdalaReport::tr("Page %1 of %2")).arg(p + 1).arg(pages);
  const double number_width = footer_metrics.horizontalAdvance(number);
  painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter, number);
  painter.drawText(
      QRectF(footer.left(), footer.top(), footer.width() - number_width - 40, footer.height()),
      Qt::AlignLeft | Qt::AlignVCenter,
      footer_metrics.elidedText(title, Qt::ElideRight, footer.width() - number_width - 60));
}

}  // namespace

WriteResult write_pdf(const ReportDocument& doc, const std::string& output) {
  WriteResult result;
  const QString path = qs(output);
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    result.error = cannot_write(path, file).toStdString();
    return result;
  }
  QPdfWriter writer(&file);
  set_up_writer(writer, doc);
  const PageGeometry geometry = page_geometry(writer);
  const PdfLayout layout = pdf_layout(writer, geometry.page);

  QTextDocument text;
  set_up_text(text, writer, geometry.page, doc);
  const QVector<int> toc_pages = lay_out(text, doc, layout, geometry.page.height());

  const int pages = text.pageCount();
  QPainter painter;
  if (!painter.begin(&writer)) {
    result.error = QStringLiteral("cannot start the PDF writer for %1").arg(path).toStdString();
    return result;
  }
  for (int p = 0; p < pages; ++p) {
    if (p > 0) writer.newPage();
    paint_page(painter, writer, text, geometry, qs(doc.title), p, pages);
  }
  painter.end();
  if (!file.commit()) {
    result.error = cannot_write(path, file).toStdString();
    return result;
  }
  result.ok = true;
  result.files.push_back(output);
  result.pages = pages;
  result.section_pages.assign(toc_pages.begin(), toc_pages.end());
  return result;
}

}  // namespace adala::report_render
