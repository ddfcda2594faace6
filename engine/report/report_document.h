#pragma once
// The report as a format-neutral document: a title, sections (each with an id, a title and
// blocks: sub-headings, paragraphs, tables, figures, notices) and the figures as images.
// Every user-visible word is translated here (AdalaReport::tr), every number and date goes
// through the QLocale given; the HTML, Markdown and PDF writers only lay it out.
//
// A section is only created when it has something to show: a run without block MSE has
// no block-MSE section, a run without figures no figure sections (no empty headings).
#include <QImage>
#include <QLocale>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QVector>

#include "engine/report/report_charts.h"
#include "engine/report/report_model.h"

namespace adala::report {

struct ReportTable {
  QStringList header;
  QVector<QStringList> rows;
  QVector<bool> numeric;  // per column: right-aligned
  QVector<int> widths;    // per column: percent of the page width (0 or missing: automatic)
};

struct ReportFigure {
  QString name;     // file stem for writers that store figures as files: "figure-03-block-mse"
  QString caption;  // without the "Figure N." prefix
  QImage image;
  QSize display;    // logical size (96 dpi pixels) the document shows it at
  int number = 0;   // 1-based
};

struct ReportBlock {
  enum class Kind { Subheading, Paragraph, Table, Figure, Notice, Bullets };
  Kind kind = Kind::Paragraph;
  QString text;        // Subheading, Paragraph, Notice (plain text)
  QStringList items;   // Bullets, Notice details
  ReportTable table;   // Table
  int figure = -1;     // Figure: index into ReportDocument::figures
};

struct ReportSection {
  QString id;     // stable, language-independent: "overview", "config", "stages", ...
  QString title;  // translated
  QVector<ReportBlock> blocks;
};

struct ReportDocument {
  QString title;
  QStringList meta;  // lines under the title: generated when, by what, from which database
  QString language;  // BCP-47 name of the locale used ("en", "ko")
  QVector<ReportSection> sections;
  QVector<ReportFigure> figures;
  QStringList warnings;  // missing artifacts and other problems (also in the Overview)

  const ReportSection* section(const QString& id) const;
  QStringList section_ids() const;
};

struct DocumentOptions {
  QString title;      // "" = from the runs
  QLocale locale;     // numbers and dates
  ChartStyle chart;   // size and print scale of the charts
  QString generator;  // e.g. "AdaLA Workbench 0.1.0 (abc123)"
};

// Section ids in document order (each present only when it has content).
const QStringList& all_section_ids();

ReportDocument build_report_document(const ReportModel& model, const DocumentOptions& options = {});

// Locale-aware formatting used by the builder (exposed for the tests).
QString format_number(const QLocale& locale, double value, int significant = 4);
QString format_percent(const QLocale& locale, double fraction, int decimals = 2);
QString format_duration(const QLocale& locale, double seconds);
QString format_datetime(const QLocale& locale, const QDateTime& utc);
QString stage_title(const QString& stage);  // "Stage 1 · attention alignment" (translated)

}  // namespace adala::report
