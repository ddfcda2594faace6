// Report export: HTML / PDF / Markdown of runs written straight into a RunStore (no
// training). Checks sections, embedded figures, PDF pages and text (pdftotext), Markdown
// figure files, missing artifacts, omitted sections, comparison, ablation, Korean.
#include <unistd.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QtTest>

#include <algorithm>
#include <cstdio>

#include "app/i18n/language.h"
#include "app/report_render/qt_report.h"
#include "engine/report/report_document.h"
#include "engine/report/report_export.h"
#include "engine/report/report_i18n.h"
#include "engine/report/report_model.h"
#include "engine/report/report_writers.h"
#include "engine/store/run_store.h"
#include "tests/report/report_fixture.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_report {

using namespace adala::report;
using adala::report_render::report_locale;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QStringList qsl(const std::vector<std::string>& v) { return adala::report_render::to_qstrings(v); }

// The export's result in Qt types, so the checks read as before.
struct Result {
  bool ok = false;
  QString error, output;
  QStringList files, warnings, sections;
  int figures = 0, pages = 0;
  QVector<int> section_pages;
};

Result to_qt(const ReportResult& r) {
  Result q;
  q.ok = r.ok;
  q.error = qs(r.error);
  q.output = qs(r.output);
  q.files = qsl(r.files);
  q.warnings = qsl(r.warnings);
  q.sections = qsl(r.sections);
  q.figures = r.figures;
  q.pages = r.pages;
  q.section_pages = QVector<int>(r.section_pages.begin(), r.section_pages.end());
  return q;
}

Result export_qt(const ReportRequest& request) {
  return to_qt(adala::report_render::export_report(request));
}

QString read_all(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

// The data URIs of an HTML report, decoded.
QVector<QImage> embedded_images(const QString& html) {
  QVector<QImage> images;
  static const QRegularExpression uri(
      QStringLiteral("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\""));
  for (auto it = uri.globalMatch(html); it.hasNext();) {
    QImage image;
    image.loadFromData(QByteArray::fromBase64(it.next().captured(1).toLatin1()), "PNG");
    images << image;
  }
  return images;
}

QString run_tool(const QString& program, const QStringList& args, int* exit_code = nullptr) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(program, args);
  if (!p.waitForFinished(30000)) {
    p.kill();
    p.waitForFinished();
  }
  if (exit_code) *exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  // NFKC: pdftotext gives ligature glyphs as one character ("ﬁ" in "Configuration").
  return QString::fromUtf8(p.readAll()).normalized(QString::NormalizationForm_KC);
}

}  // namespace

class TestReport : public QObject {
  Q_OBJECT

 private:
  report_test::Database db_;
  QString out_;

  Result exportRuns(const QList<int64_t>& runs, ReportFormat format, const QString& file,
                    QStringList* warnings = nullptr, double scale = 1.5) {
    ReportRequest r;
    r.db_path = db_.path.toStdString();
    for (auto id : runs) r.runs.push_back(std::to_string(id));
    r.format = format;
    r.output = (out_ + '/' + file).toStdString();
    r.chart.scale = scale;
    r.locale = report_locale(QLocale(QLocale::English, QLocale::UnitedStates));
    r.warn = [warnings](const std::string& w) {
      if (warnings) *warnings << qs(w);
    };
    return export_qt(r);
  }

  ReportDocument documentOf(const QList<int64_t>& runs) {
    adala::store::RunStore store(db_.path.toStdString(), adala::store::OpenMode::ReadOnly);
    DocumentOptions o;
    o.locale = report_locale(QLocale(QLocale::English, QLocale::UnitedStates));
    o.chart.scale = 1.0;
    return build_report_document(
        load_report_model(store, std::vector<int64_t>(runs.begin(), runs.end())), o);
  }

 private slots:
  void initTestCase() {
    adala::i18n::install_translator(*qApp, QStringLiteral("en"));
    adala::report_render::install_qt_translator();
    db_ = report_test::make_database(QStringLiteral("db"));
    out_ = db_.dir + "/out";
    QDir().mkpath(out_);
  }

  // ADALA_KEEP_TEST_OUTPUT=1 keeps the database and the reports for a look.
  void cleanupTestCase() {
    if (!qEnvironmentVariableIsSet("ADALA_KEEP_TEST_OUTPUT"))
      QDir(db_.dir).removeRecursively();
    else
      qInfo("reports kept in %s", qPrintable(out_));
  }

  void htmlHasEverySectionAndDecodableFigures() {
    const Result r = exportRuns({db_.full}, ReportFormat::Html, "full.html");
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.sections,
             (QStringList{"overview", "config", "stages", "block-mse", "accuracy", "artifacts"}));
    const QString html = read_all(r.output);
    for (const QString& id : r.sections)
      QVERIFY2(html.contains(QStringLiteral("<section id=\"%1\">").arg(id)), qPrintable(id));
    for (const char* title :
         {"Overview", "Configuration", "Training stages", "Per-block alignment error",
          "Teacher vs student", "Files", "Contents"})
      QVERIFY2(html.contains(QStringLiteral("<h2>%1</h2>").arg(QLatin1String(title))), title);
    // Self-contained: no file or network references, every figure a decodable PNG.
    QVERIFY(!html.contains(QLatin1String("src=\"http")));
    QVERIFY(!html.contains(QLatin1String("src=\"file")));
    const auto images = embedded_images(html);
    QCOMPARE(images.size(), r.figures);
    // loss grid, 2 x (block curves + final bars), accuracy bars
    QCOMPARE(r.figures, 6);
    for (const QImage& image : images) {
      QVERIFY(!image.isNull());
      QVERIFY2(image.width() >= 660 * 1.5 - 1,
               qPrintable(QString::number(image.width())));  // print scale
    }
    // The run's numbers.
    QVERIFY(html.contains(QLatin1String("85.12%")));     // teacher top-1
    QVERIFY(html.contains(QLatin1String("83.37%")));     // student top-1
    QVERIFY(html.contains(QLatin1String("60.43%")));     // Stage 2, teacher's head
    QVERIFY(html.contains(QStringLiteral("−1.75 pt")));  // gap
    QVERIFY(html.contains(QLatin1String("0.4321")));     // teacher final loss
    QVERIFY(html.contains(QLatin1String("1.728")));      // fine-tuning final loss
    QVERIFY(html.contains(QLatin1String("60 of 60")));   // steps
    QVERIFY(html.contains(QLatin1String("model.embed_dim")));
    QVERIFY(html.contains(QLatin1String("1.13.0")));
    QVERIFY(r.warnings.isEmpty());
  }

  void pdfHasPagesContentsAndTheRunsNumbers() {
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    if (pdftotext.isEmpty() || pdfinfo.isEmpty())
      QSKIP("poppler-utils (pdftotext, pdfinfo) not installed; scripts/setup.sh installs it");
    const Result r = exportRuns({db_.full}, ReportFormat::Pdf, "full.pdf", nullptr, 3.0);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(QFileInfo(r.output).size() > 10000);

    const QString info = run_tool(pdfinfo, {r.output});
    const auto pages = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info);
    QVERIFY2(pages.hasMatch(), qPrintable(info));
    QCOMPARE(pages.captured(1).toInt(), r.pages);
    // Title page with the contents, then every section on its own page(s): the overview
    // and config fit one page each, the block-MSE section's four figures need two.
    QCOMPARE(r.section_pages.size(), r.sections.size());
    QCOMPARE(r.section_pages.front(), 2);
    for (int i = 1; i < r.section_pages.size(); ++i)
      QVERIFY(r.section_pages[i] > r.section_pages[i - 1]);
    // 1 title page with the contents + 6 sections, the block-MSE one (4 figures) on two.
    QCOMPARE(r.pages, 8);
    QCOMPARE(r.section_pages, (QVector<int>{2, 3, 4, 5, 7, 8}));
    QVERIFY(info.contains(QLatin1String("ViT-AdaLA run report: fm-tiny")));  // PDF title

    int rc = 0;
    const QString text = run_tool(pdftotext, {"-layout", r.output, "-"}, &rc);
    QCOMPARE(rc, 0);
    for (const char* needle :
         {"ViT-AdaLA run report: fm-tiny", "85.12%", "83.37%", "60.43%", "0.4321", "1.728",
          "60 of 60", "model.embed_dim", "Stage 1 · attention alignment", "Contents"})
      QVERIFY2(text.contains(QString::fromUtf8(needle)), needle);
    // Page numbers on every page, and each section on the page the contents names.
    for (int p = 1; p <= r.pages; ++p) {
      const QString page =
          run_tool(pdftotext, {"-f", QString::number(p), "-l", QString::number(p), r.output, "-"});
      QVERIFY2(page.contains(QStringLiteral("Page %1 of %2").arg(p).arg(r.pages)),
               qPrintable(QString::number(p)));
    }
    const ReportDocument doc = documentOf({db_.full});
    QCOMPARE(qsl(doc.section_ids()), r.sections);
    for (int i = 0; i < int(doc.sections.size()); ++i) {
      const int p = r.section_pages[i];
      const QString title = qs(doc.sections[size_t(i)].title);
      const QString page =
          run_tool(pdftotext, {"-f", QString::number(p), "-l", QString::number(p), r.output, "-"});
      QVERIFY2(page.contains(QStringLiteral("%1. %2").arg(i + 1).arg(title)), qPrintable(title));
      // ... and the contents lists it with that page.
      QVERIFY(QRegularExpression(
                  QStringLiteral("%1\\s+%2\\s*\\n").arg(QRegularExpression::escape(title)).arg(p))
                  .match(run_tool(pdftotext, {"-layout", "-f", "1", "-l", "1", r.output, "-"}))
                  .hasMatch());
    }
  }

  // Page 1 opens with the result, as a paper's abstract: before the contents.
  void pdfOpensWithTheResult() {
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (pdftotext.isEmpty()) QSKIP("poppler-utils (pdftotext) not installed");
    const Result r = exportRuns({db_.full}, ReportFormat::Pdf, "summary.pdf", nullptr, 1.0);
    QVERIFY2(r.ok, qPrintable(r.error));
    const QString first = run_tool(pdftotext, {"-f", "1", "-l", "1", r.output, "-"});
    const int contents = first.indexOf(QLatin1String("Contents"));
    QVERIFY2(contents > 0, qPrintable(first));
    for (const char* needle : {"Summary", "Student 83.37% vs teacher 85.12%, gap −1.75 pt.",
                               "Teacher (softmax attention), top-1", "85.12%", "83.37%", "−1.75 pt",
                               "vit_tiny on fashion-mnist"}) {
      const int at = first.indexOf(QString::fromUtf8(needle));
      QVERIFY2(at >= 0 && at < contents, needle);
    }
  }

  // Numbers and durations never break inside a stage-table cell: each is whole on one line.
  void pdfStageTableKeepsNumbersWhole() {
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (pdftotext.isEmpty()) QSKIP("poppler-utils (pdftotext) not installed");
    const QString dir = report_test::fresh_dir("long-cells");
    int64_t run = 0;
    {
      adala::store::RunStore store((dir + "/runs.sqlite").toStdString());
      report_test::RunSpec spec;
      spec.name = "long-cells";
      spec.loss_scale = 0.004613 / 0.4321;  // Stage 0 ends at 0.004613
      spec.compute_seconds = 98;            // 1 min 38 s
      run = report_test::add_run(store, dir, spec);
      store.flush();
    }
    ReportRequest request;
    request.db_path = (dir + "/runs.sqlite").toStdString();
    request.runs = {std::to_string(run)};
    request.format = ReportFormat::Pdf;
    request.output = (dir + "/long-cells.pdf").toStdString();
    request.chart.scale = 1.0;
    request.locale = report_locale(QLocale(QLocale::English, QLocale::UnitedStates));
    const Result r = export_qt(request);
    QVERIFY2(r.ok, qPrintable(r.error));
    const ReportDocument doc = [&] {
      adala::store::RunStore store(request.db_path, adala::store::OpenMode::ReadOnly);
      return build_report_document(load_report_model(store, {run}));
    }();
    const std::vector<std::string> ids = doc.section_ids();
    const int page =
        r.section_pages[int(std::find(ids.begin(), ids.end(), "stages") - ids.begin())];
    const QString text = run_tool(pdftotext, {"-layout", "-f", QString::number(page), "-l",
                                              QString::number(page), r.output, "-"});
    for (const char* cell : {"0.004613", "1 min 38 s", "Stage 1 · attention alignment", "60 of 60"})
      QVERIFY2(text.contains(QString::fromUtf8(cell)),
               qPrintable(QString::fromUtf8(cell) + "\n" + text));
    QDir(dir).removeRecursively();
  }

  void markdownWritesFiguresBesideIt() {
    const Result r = exportRuns({db_.figures}, ReportFormat::Markdown, "figures.md");
    QVERIFY2(r.ok, qPrintable(r.error));
    const QString folder = out_ + "/figures_files";
    QCOMPARE(qs(markdown_figure_folder(r.output.toStdString())), folder);
    QCOMPARE(r.files.size(), 1 + r.figures);
    const QString md = read_all(r.output);
    QVERIFY(md.startsWith(QLatin1String("# ViT-AdaLA run report: fm-figures")));
    static const QRegularExpression link(QStringLiteral("!\\[[^\\]]*\\]\\(([^)]+)\\)"));
    int links = 0;
    for (auto it = link.globalMatch(md); it.hasNext();) {
      const QString target = out_ + '/' + it.next().captured(1);
      QImage image(target);
      QVERIFY2(!image.isNull(), qPrintable(target));
      ++links;
    }
    QCOMPARE(links, r.figures);
    QCOMPARE(QDir(folder).entryList({"*.png"}, QDir::Files).size(), r.figures);
    QVERIFY(md.contains(QLatin1String("| Teacher (softmax attention), top-1 | 85.12% |")));
    QVERIFY(md.contains(QLatin1String("<a id=\"attention\"></a>")));
    QVERIFY(md.contains(QLatin1String("[Resolution scaling](#scaling)")));
  }

  void missingArtifactIsReportedAndExportEnds() {
    QStringList warnings;
    const Result r = exportRuns({db_.figures}, ReportFormat::Html, "figures.html", &warnings);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.warnings, warnings);
    QCOMPARE(warnings.size(), 1);
    QVERIFY(warnings.front().contains(db_.missing_figure));
    QVERIFY(warnings.front().contains(QLatin1String("attention_figure")));
    const QString html = read_all(r.output);
    QVERIFY(html.contains(QStringLiteral("Figure file is missing: %1").arg(db_.missing_figure)));
    QVERIFY(html.contains(QLatin1String("1 problem found while building this report")));
    QVERIFY(html.contains(QLatin1String("MISSING")));
    // The rest is there: the present figure, segmentation, scaling table and charts.
    QCOMPARE(r.sections, (QStringList{"overview", "config", "stages", "block-mse", "accuracy",
                                      "attention", "segmentation", "scaling", "artifacts"}));
    QCOMPARE(embedded_images(html).size(), r.figures);
    QCOMPARE(r.figures, 6 + 1 + 1 + 1);  // + attention, segmentation, scaling grid
    QVERIFY(html.contains(QLatin1String("attention block2 head0")));
    QVERIFY(html.contains(QLatin1String("skipped nothing, &quot;quoted&quot;")));  // CSV quoting
    QVERIFY(html.contains(QLatin1String("Peak memory (MB)")));

    // Without a warn callback the problem goes to stderr.
    fflush(stderr);
    const int saved = dup(2);
    const QString err_path = out_ + "/stderr.txt";
    FILE* err = std::fopen(err_path.toLocal8Bit().constData(), "w");
    dup2(fileno(err), 2);
    ReportRequest request;
    request.db_path = db_.path.toStdString();
    request.runs = {std::to_string(db_.figures)};
    request.format = ReportFormat::Markdown;
    request.output = (out_ + "/figures-stderr.md").toStdString();
    request.chart.scale = 1.0;
    const Result quiet = export_qt(request);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::fclose(err);
    QVERIFY(quiet.ok);
    QVERIFY2(read_all(err_path).contains(db_.missing_figure), qPrintable(read_all(err_path)));
    // Markdown escapes the path's underscores.
    QVERIFY(
        read_all(quiet.output)
            .contains(QStringLiteral("Figure file is missing: %1")
                          .arg(QString(db_.missing_figure).replace('_', QLatin1String("\\_")))));
  }

  void sectionsAbsentFromARunAreOmitted() {
    const Result r = exportRuns({db_.bare}, ReportFormat::Html, "bare.html");
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.sections, (QStringList{"overview", "config", "stages"}));
    const QString html = read_all(r.output);
    for (const char* absent :
         {"block-mse", "accuracy", "ablation", "attention", "segmentation", "scaling", "artifacts"})
      QVERIFY2(!html.contains(QStringLiteral("id=\"%1\"").arg(QLatin1String(absent))), absent);
    for (const char* title : {"Per-block alignment error", "Teacher vs student", "Ablation",
                              "Attention maps", "Segmentation", "Resolution scaling", "Files"})
      QVERIFY2(!html.contains(QLatin1String(title)), title);
    QCOMPARE(r.figures, 1);  // the loss curve
    // No empty headings anywhere: every section of every kind of report has content.
    for (const auto& runs :
         QList<QList<int64_t>>{{db_.bare}, {db_.full}, {db_.figures}, {db_.full, db_.second}}) {
      const ReportDocument doc = documentOf(runs);
      for (const auto& s : doc.sections) QVERIFY2(!s.blocks.empty(), s.id.c_str());
      for (size_t i = 0; i < doc.sections.size(); ++i)
        for (size_t b = 0; b < doc.sections[i].blocks.size(); ++b)
          if (doc.sections[i].blocks[b].kind == ReportBlock::Kind::Subheading)
            QVERIFY2(b + 1 < doc.sections[i].blocks.size(), doc.sections[i].id.c_str());
    }
  }

  void comparisonShowsConfigDifferences() {
    const ReportDocument doc = documentOf({db_.full, db_.second});
    const ReportSection* config = doc.section("config");
    QVERIFY(config);
    QCOMPARE(config->blocks[0].kind, ReportBlock::Kind::Paragraph);
    QCOMPARE(qs(config->blocks[0].text), QStringLiteral("2 settings differ between the runs:"));
    const ReportTable& diff = config->blocks[1].table;
    QCOMPARE(qsl(diff.header), (QStringList{"Setting", QStringLiteral("#%1 fm-tiny").arg(db_.full),
                                            QStringLiteral("#%1 fm-tiny-lr").arg(db_.second)}));
    QCOMPARE(diff.rows.size(), 2);
    QCOMPARE(qsl(diff.rows[0]), (QStringList{"name", "fm-tiny", "fm-tiny-lr"}));
    QCOMPARE(qsl(diff.rows[1]), (QStringList{"stages.fine_tuning.lr", "0.0003", "0.001"}));
    QCOMPARE(qs(config->blocks[2].text), QStringLiteral("Shared settings"));
    QVERIFY(config->blocks[3].table.rows.size() > 10);
    // Both runs' accuracies side by side, with their gaps.
    const ReportTable& acc = doc.section("accuracy")->blocks[0].table;
    QCOMPARE(qsl(acc.rows.back()),
             (QStringList{QStringLiteral("Gap to the teacher (student − teacher)"),
                          QStringLiteral("−1.75 pt"), QStringLiteral("−0.97 pt")}));
    QCOMPARE(qs(doc.title), QStringLiteral("ViT-AdaLA comparison: #%1 fm-tiny, #%2 fm-tiny-lr")
                                .arg(db_.full)
                                .arg(db_.second));
    const Result r = exportRuns({db_.full, db_.second}, ReportFormat::Html, "compare.html");
    QVERIFY2(r.ok, qPrintable(r.error));
    for (const QImage& image : embedded_images(read_all(r.output))) QVERIFY(!image.isNull());
  }

  void ablationTableFromTaggedRuns() {
    // Any one run of the ablation brings the whole table.
    const ReportDocument doc = documentOf({db_.ablation[3]});
    const ReportSection* s = doc.section("ablation");
    QVERIFY(s);
    const ReportTable* table = nullptr;
    int figures = 0;
    for (const auto& b : s->blocks) {
      if (b.kind == ReportBlock::Kind::Table) table = &b.table;
      if (b.kind == ReportBlock::Kind::Figure) ++figures;
    }
    QVERIFY(table);
    QCOMPARE(table->rows.size(), 4);
    QCOMPARE(qsl(table->rows[0]),
             (QStringList{"(a) teacher (softmax)", QStringLiteral("#%1").arg(db_.ablation[0]),
                          "85.12%", "0.00 pt"}));
    QCOMPARE(qs(table->rows[1][2]), QStringLiteral("74.10%"));
    QCOMPARE(qs(table->rows[1][3]), QStringLiteral("−11.02 pt"));
    QCOMPARE(qsl(table->rows[3]),
             (QStringList{"(d) Stage 1 + 2 + 3 (ViT-AdaLA)",
                          QStringLiteral("#%1").arg(db_.ablation[3]), "83.90%", "−1.22 pt"}));
    QCOMPARE(figures, 1);  // Stage-2 curves of (c) and (d)
    bool below = false;
    for (const auto& b : s->blocks)
      below = below || qs(b.text).contains(QLatin1String("(d) is below (c) at 11 of 11"));
    QVERIFY(below);
    QVERIFY(!documentOf({db_.full}).section("ablation"));
  }

  void koreanReport() {
    adala::i18n::install_translator(*qApp, QStringLiteral("ko"));
    QCOMPARE(adala::i18n::current_language(), QStringLiteral("ko"));
    QCOMPARE(QLocale().language(), QLocale::Korean);
    QVERIFY2(qs(AdalaReport::tr("Overview")) != QLatin1String("Overview"),
             "Korean translation not loaded");
    ReportRequest request;
    request.db_path = db_.path.toStdString();
    request.runs = {std::to_string(db_.full)};
    request.format = ReportFormat::Html;
    request.output = (out_ + "/full-ko.html").toStdString();
    request.chart.scale = 1.0;
    request.locale = report_locale(QLocale());
    const Result r = export_qt(request);
    adala::i18n::install_translator(*qApp, QStringLiteral("en"));
    QVERIFY2(r.ok, qPrintable(r.error));
    const QString html = read_all(r.output);
    QVERIFY(html.contains(QLatin1String("<html lang=\"ko")));
    QVERIFY(html.contains(QStringLiteral("<h2>개요</h2>")));
    QVERIFY(html.contains(QStringLiteral("<h2>요약</h2>")));  // the summary, translated too
    QVERIFY(html.contains(QStringLiteral("학생 83.37% 대 교사 85.12%")));
    QVERIFY(html.contains(QStringLiteral("교사")));
    QVERIFY(!html.contains(QLatin1String("<h2>Overview</h2>")));
    QCOMPARE(qs(AdalaReport::tr("Overview")), QStringLiteral("Overview"));  // back to English
  }

  void languageSetting() {
    QCoreApplication::setOrganizationName(QStringLiteral("AdaLA-test"));
    QCoreApplication::setApplicationName(QStringLiteral("test_report"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, out_ + "/settings");
    QCOMPARE(adala::i18n::saved_language(), QString());
    adala::i18n::save_language(QStringLiteral("ko"));
    QCOMPARE(adala::i18n::saved_language(), QStringLiteral("ko"));
    QCOMPARE(QSettings().value(QLatin1String(adala::i18n::kLanguageSettingsKey)).toString(),
             QStringLiteral("ko"));
    adala::i18n::save_language(QString());
    QCOMPARE(adala::i18n::resolve_language(QString()), adala::i18n::system_language());
    QCOMPARE(adala::i18n::resolve_language(QStringLiteral("ko_KR")), QStringLiteral("ko"));
    QCOMPARE(adala::i18n::resolve_language(QStringLiteral("xx")), QStringLiteral("en"));
    QCOMPARE(adala::i18n::locale_for(QStringLiteral("ko")).language(), QLocale::Korean);
    QCOMPARE(adala::i18n::available_languages(), (QStringList{"en", "ko"}));
  }

  void localeFormatting() {
    const ReportLocale en = report_locale(QLocale(QLocale::English, QLocale::UnitedStates)),
                       de = report_locale(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(qs(format_number(en, 0.4321)), QStringLiteral("0.4321"));
    QCOMPARE(qs(format_number(de, 0.4321)), QStringLiteral("0,4321"));
    QCOMPARE(qs(format_number(en, 1234.5678)), QStringLiteral("1,235"));
    QCOMPARE(qs(format_number(en, 2.5e-5)), QStringLiteral("2.500E-05"));
    QCOMPARE(qs(format_percent(en, 0.8512)), QStringLiteral("85.12%"));
    QCOMPARE(qs(format_percent(de, 0.8512)), QStringLiteral("85,12%"));
    QCOMPARE(qs(format_duration(en, 3.25)), QStringLiteral("3.25 s"));
    QCOMPARE(qs(format_duration(en, 192)), QStringLiteral("3 min 12 s"));
    QCOMPARE(qs(format_duration(en, 3 * 3600 + 125)), QStringLiteral("3 h 02 min"));
    // The ReportLocale writes what QLocale writes, grouping and exponent included.
    for (const QLocale& q : {QLocale(QLocale::English, QLocale::UnitedStates),
                             QLocale(QLocale::German, QLocale::Germany),
                             QLocale(QLocale::Korean, QLocale::SouthKorea), QLocale::c()}) {
      const ReportLocale l = report_locale(q);
      for (double v :
           {0.0, 0.4321, -2.5, 2.5, 0.125, 9.9996, -0.0049, 1234.5678, 1234567.891, -98765.4321})
        for (int decimals : {0, 1, 2, 4})
          QCOMPARE(qs(to_fixed(l, v, decimals)), q.toString(v, 'f', decimals));
      for (double v : {2.5e-5, -3.75e8, 1.0e100, 9.99951, 1.00005})
        QCOMPARE(qs(to_exponent(l, v, 3)), q.toString(v, 'e', 3));
      for (qint64 v : {qint64(0), qint64(999), qint64(1000), qint64(-1234567), qint64(60)})
        QCOMPARE(qs(to_integer(l, v)), q.toString(v));
      QCOMPARE(qs(format_data_size(l, 2048)),
               q.formattedDataSize(2048, 1, QLocale::DataSizeTraditionalFormat));
    }
  }

  void errorsAreReported() {
    ReportRequest r;
    r.db_path = db_.path.toStdString();
    r.runs = {"999"};
    r.output = (out_ + "/none.html").toStdString();
    Result result = export_qt(r);
    QVERIFY(!result.ok);
    QVERIFY2(result.error.contains(QLatin1String("no run \"999\"")), qPrintable(result.error));
    QVERIFY(!QFileInfo::exists(qs(r.output)));
    r.runs = {"fm-tiny"};  // by name
    r.output = (out_ + "/no-such-dir/x.html").toStdString();
    result = export_qt(r);
    QVERIFY(!result.ok);
    QVERIFY(result.error.contains(QLatin1String("cannot write")));
    r.db_path = (out_ + "/no-such.sqlite").toStdString();
    result = export_qt(r);
    QVERIFY(!result.ok);
    QCOMPARE(parse_report_format("markdown"), std::optional<ReportFormat>(ReportFormat::Markdown));
    QCOMPARE(format_from_path("/x/y.PDF"), std::optional<ReportFormat>(ReportFormat::Pdf));
    QVERIFY(!format_from_path("/x/y").has_value());
  }
};

ADALA_TEST_MAIN(TestReport)
}  // namespace test_report

#include "test_report.moc"
