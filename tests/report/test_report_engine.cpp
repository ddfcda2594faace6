// engine/report on its own, without Qt in the library: the translation hook, the one-pass
// placeholder substitution, ReportLocale's defaults, the stage table's titles, store times,
// JSON flattening, the chart specifications in the document, and an export with the default
// (Qt-free) backend: HTML and Markdown with picture files but no charts, no PDF.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "engine/report/report_document.h"
#include "engine/report/report_export.h"
#include "engine/report/report_i18n.h"
#include "engine/report/report_locale.h"
#include "engine/report/report_model.h"
#include "engine/report/report_text.h"
#include "engine/report/report_writers.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/report/report_fixture.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_report_engine {

using namespace adala::report;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QByteArray read_bytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Restores the identity translator when a test ends (also on failure).
struct TranslatorGuard {
  ~TranslatorGuard() { set_translator({}); }
};

}  // namespace

class TestReportEngine : public QObject {
  Q_OBJECT

 private:
  report_test::Database db_;

  ReportDocument documentOf(const std::vector<int64_t>& runs) {
    adala::store::RunStore store(db_.path.toStdString(), adala::store::OpenMode::ReadOnly);
    return build_report_document(load_report_model(store, runs));
  }

 private slots:
  void initTestCase() { db_ = report_test::make_database(QStringLiteral("engine")); }
  void cleanupTestCase() {
    if (!qEnvironmentVariableIsSet("ADALA_KEEP_TEST_OUTPUT")) QDir(db_.dir).removeRecursively();
  }

  void translatorHook() {
    TranslatorGuard guard;
    // Identity by default; %n becomes the number, as QCoreApplication::translate does.
    QCOMPARE(qs(AdalaReport::tr("Overview")), QStringLiteral("Overview"));
    QCOMPARE(qs(AdalaReport::tr("%n problem(s) found", "", 3)),
             QStringLiteral("3 problem(s) found"));
    std::vector<std::string> seen;
    set_translator([&seen](const char* context, const char* source, const char*, int n) {
      seen.push_back(std::string(context) + "|" + source + "|" + std::to_string(n));
      return std::string("<") + source + ">";
    });
    QCOMPARE(qs(AdalaReport::tr("Overview")), QStringLiteral("<Overview>"));
    QCOMPARE(qs(format_duration(ReportLocale{}, 3.25)), QStringLiteral("<%1 s>").arg("3.25"));
    QCOMPARE(seen.size(), size_t(2));
    QCOMPARE(qs(seen[0]), QStringLiteral("AdalaReport|Overview|-1"));
    QCOMPARE(qs(seen[1]), QStringLiteral("AdalaReport|%1 s|-1"));
    set_translator({});
    QCOMPARE(qs(AdalaReport::tr("Overview")), QStringLiteral("Overview"));
  }

  void placeholdersAreReplacedInOnePass() {
    QCOMPARE(qs(arg("%1 and %2", {"%2", "x"})), QStringLiteral("%2 and x"));
    QCOMPARE(qs(arg("%2 before %1", {"a", "b"})), QStringLiteral("b before a"));
    QCOMPARE(qs(arg("%1 of %3, 10% done", {"a"})), QStringLiteral("a of %3, 10% done"));
    QCOMPARE(qs(html_escaped("<a href=\"x\">&</a>")),
             QStringLiteral("&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"));
    QCOMPARE(qs(base64("any carnal pleas")), QStringLiteral("YW55IGNhcm5hbCBwbGVhcw=="));
    QCOMPARE(qs(base64("any carnal pleasu")), QStringLiteral("YW55IGNhcm5hbCBwbGVhc3U="));
    double v = 0;
    QVERIFY(parse_double(" 12.5 ", &v));
    ADALA_COMPARE_EXACT(v, 12.5);  // strtod rounds correctly: the literal's double
    QVERIFY(!parse_double("12.5x", &v));
    QVERIFY(!parse_double("", &v));
  }

  void defaultLocaleIsEnglish() {
    const ReportLocale en;
    QCOMPARE(qs(to_fixed(en, 1234.5, 1)), QStringLiteral("1,234.5"));
    QCOMPARE(qs(to_fixed(en, -0.001, 2)), QStringLiteral("-0.00"));
    QCOMPARE(qs(to_fixed(en, 2.5, 0)), QStringLiteral("3"));  // ties away from zero, as QLocale
    QCOMPARE(qs(to_integer(en, -1234567)), QStringLiteral("-1,234,567"));
    QCOMPARE(qs(format_number(en, 2.5e-5)), QStringLiteral("2.500e-05"));
    QCOMPARE(qs(format_number(en, 9.99951e7)), QStringLiteral("1.000e+08"));
    QCOMPARE(qs(format_percent(en, 0.8512)), QStringLiteral("85.12%"));
    QCOMPARE(qs(format_duration(en, 192)), QStringLiteral("3 min 12 s"));
    QCOMPARE(qs(format_data_size(en, 100)), QStringLiteral("100 bytes"));
    QCOMPARE(qs(format_data_size(en, 2048)), QStringLiteral("2.0 KB"));
    ReportLocale de;
    de.decimal = ",";
    de.group = ".";
    QCOMPARE(qs(format_number(de, 1234.5678, 6)), QStringLiteral("1.234,57"));
    de.datetime = [](int64_t ms) { return "t=" + std::to_string(ms); };
    QCOMPARE(qs(format_datetime(de, 42)), QStringLiteral("t=42"));
  }

  void stageTitlesComeFromTheTable() {
    TranslatorGuard guard;
    for (const auto& spec : adala::kStages)
      QCOMPARE(qs(stage_title(spec.name)), QString::fromUtf8(spec.title));
    QCOMPARE(qs(stage_title("no_such_stage")), QStringLiteral("no_such_stage"));
    set_translator([](const char* context, const char* source, const char*, int) {
      return std::string(context) + ":" + source;
    });
    QCOMPARE(qs(stage_title("attention_alignment")),
             QStringLiteral("AdalaReport:Stage 1 · attention alignment"));
    QCOMPARE(stage_names().size(), size_t(adala::kStageCount));
    QCOMPARE(qs(stage_names()[2]), QStringLiteral("feature_alignment"));
  }

  // The training loop's health.* metrics: the worst value per stage with its block, summed
  // non-finite counts, the stage's precision from the config and its skipped steps.
  void numericalHealthIsSummarisedPerStage() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("health.sqlite").toStdString();
    int64_t run = 0;
    {
      adala::store::RunStore store(path);
      run = store.create_run("health", R"({"stages":{"feature_alignment":{"precision":"bf16"}}})",
                             "cpu", "1.13.0", "0.1.0 (test)");
      const std::string st = "feature_alignment";
      store.begin_stage(run, st, 2, 20);
      store.add_metric(run, st, 10, "loss", -1, 0.5);
      store.add_metric(run, st, 10, "health.min_normaliser", 0, 3.5);
      store.add_metric(run, st, 10, "health.min_normaliser", 1, 2e-6);
      store.add_metric(run, st, 20, "health.min_normaliser", 1, 4e-5);
      store.add_metric(run, st, 10, "health.low_normaliser_share", 0, 0.0);
      store.add_metric(run, st, 20, "health.low_normaliser_share", 1, 0.25);
      store.add_metric(run, st, 10, "health.grad_nonfinite", 0, 2);
      store.add_metric(run, st, 20, "health.grad_nonfinite", 1, 3);
      store.add_metric(run, st, 20, "health.max_abs_activation", 0, 12.5);
      store.add_metric(run, st, 20, "health.max_abs_activation", 1, 80.0);
      store.add_evaluation(run, st, "skipped_steps", 4);
      store.end_stage(run, st, adala::store::RunStatus::Done);
    }
    adala::store::RunStore store(path, adala::store::OpenMode::ReadOnly);
    const ReportModel model = load_report_model(store, {run});
    const StageSummary* stage = model.runs.front().stage("feature_alignment");
    QVERIFY(stage && stage->health.any);
    // The smallest / largest of the values stored above (SQLite REAL), read back and copied;
    // the non-finite count is 2 + 3, integers held in doubles.
    ADALA_COMPARE_EXACT(stage->health.min_normaliser, 2e-6);
    QCOMPARE(stage->health.min_normaliser_block, 1);
    ADALA_COMPARE_EXACT(stage->health.max_low_share, 0.25);
    QCOMPARE(stage->health.max_low_share_block, 1);
    ADALA_COMPARE_EXACT(stage->health.grad_nonfinite, 5.0);
    ADALA_COMPARE_EXACT(stage->health.max_abs_activation, 80.0);
    QCOMPARE(stage->health.max_abs_block, 1);
    const ReportDocument doc = build_report_document(model);
    const ReportSection* section = nullptr;
    for (const auto& s : doc.sections)
      if (s.id == "numerical-health") section = &s;
    QVERIFY(section);
    const ReportTable* table = nullptr;
    for (const auto& b : section->blocks)
      if (b.kind == ReportBlock::Kind::Table) table = &b.table;
    QVERIFY(table);
    QCOMPARE(table->rows.size(), size_t(1));
    const auto& row = table->rows.front();
    QCOMPARE(qs(row[0]), qs(stage_title("feature_alignment")));
    QCOMPARE(qs(row[1]), QStringLiteral("bf16"));
    QVERIFY2(qs(row[2]).endsWith(QStringLiteral("(block 1)")), row[2].c_str());
    QVERIFY2(qs(row[3]).startsWith(QStringLiteral("25")), row[3].c_str());
    QCOMPARE(qs(row[4]), QStringLiteral("0 / 0 / 5"));
    QCOMPARE(qs(row[5]), QStringLiteral("80.00 (block 1)"));
    QCOMPARE(qs(row[6]), QStringLiteral("4"));
  }

  void storeTimesAndConfig() {
    const Timestamp t = parse_store_time("2024-05-01T12:00:00.250Z");
    QVERIFY(t.valid);
    QCOMPARE(t.utc_msecs, int64_t(1714564800250));
    QCOMPARE(parse_store_time("2024-05-01T12:00:00").utc_msecs, int64_t(1714564800000));
    QVERIFY(!parse_store_time("").valid);
    QVERIFY(!parse_store_time("yesterday").valid);

    const auto flat = flatten_json(
        R"({"a":{"b":[224,448],"c":1.5e-3,"d":"x","e":true,"f":null,"g":{},"r":[0.5,4.0,"s"]},"h":[{"i":1}],"n":60})");
    const std::map<std::string, std::string> expected = {
        {"a.b", "[224,448]"},     {"a.c", "0.0015"}, {"a.d", "x"},
        {"a.e", "true"},          {"a.f", "null"},   {"a.g", "{}"},
        {"a.r", "[0.5,4,\"s\"]"}, {"h[0].i", "1"},   {"n", "60"}};
    QCOMPARE(flat.size(), expected.size());
    for (const auto& [key, value] : expected) QCOMPARE(qs(flat.at(key)), qs(value));
    const auto broken = flatten_json(" not json ");
    QCOMPARE(broken.size(), size_t(1));
    QCOMPARE(qs(broken.at("(config)")), QStringLiteral("not json"));
    QVERIFY(flatten_json("").empty());

    const CsvTable csv = parse_csv("a,b,c\n1,\"x, \"\"y\"\"\",\n2\n");
    QCOMPARE(csv.header.size(), size_t(3));
    QCOMPARE(csv.rows.size(), size_t(2));
    QCOMPARE(qs(csv.rows[0][1]), QStringLiteral("x, \"y\""));
    QCOMPARE(qs(csv.rows[1][2]), QString());
    QCOMPARE(csv.column("c"), 2);

    QTemporaryDir dir;
    const std::string broken_csv = dir.filePath("broken.csv").toStdString();
    {
      QFile f(QString::fromStdString(broken_csv));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("a,b\n1,\"never closed\n");
    }
    std::string error;
    QVERIFY(read_csv(broken_csv, &error).header.empty());
    QCOMPARE(qs(error), qs(broken_csv + ", line 2, column 2: a quoted field is never closed"));
    QVERIFY(read_csv(dir.filePath("absent.csv").toStdString(), &error).header.empty());
    QCOMPARE(qs(error), QStringLiteral("No such file or directory"));
  }

  void figuresAreChartSpecifications() {
    const ReportDocument doc = documentOf({db_.full});
    QCOMPARE(doc.figures.size(), size_t(6));
    const ReportFigure& loss = doc.figures[0];
    QVERIFY(loss.is_chart());
    QCOMPARE(loss.chart.kind, ChartSpec::Kind::Lines);
    QCOMPARE(loss.chart.columns, 2);
    QCOMPARE(loss.chart.panels.size(), size_t(4));
    for (size_t i = 0; i < 4; ++i)
      QCOMPARE(qs(loss.chart.panels[i].title), QString::fromUtf8(adala::kStages[i].title));
    QCOMPARE(loss.display, (Size{660, 540}));  // two rows of 0.75 x 360
    QCOMPARE(loss.chart.style.size, loss.display);
    QCOMPARE(qs(loss.name), QStringLiteral("figure-01-loss"));
    QVERIFY(loss.chart.panels[0].series[0].color == palette_color(0));
    QCOMPARE(loss.chart.panels[0].series[0].y.size(), size_t(12));

    const ReportFigure& blocks = doc.figures[1];
    QCOMPARE(blocks.chart.panels.size(), size_t(1));
    QVERIFY(blocks.chart.panels[0].log_y);
    QCOMPARE(blocks.chart.panels[0].series.size(), size_t(4));
    QVERIFY(blocks.chart.panels[0].series[3].color == (Rgb{214, 39, 40}));
    QCOMPARE(qs(blocks.chart.panels[0].series[3].name), QStringLiteral("block 3"));

    const ReportFigure& accuracy = doc.figures[5];
    QCOMPARE(accuracy.chart.kind, ChartSpec::Kind::Bars);
    QVERIFY(accuracy.chart.bars.percent);
    // The teacher and the student the headline compares (Stage 2's 60% would flatten the gap).
    QCOMPARE(accuracy.chart.bars.categories, (std::vector<std::string>{"Teacher", "Student"}));
    // The student's top-1 as the fixture stored it (SQLite REAL), read back and copied.
    ADALA_COMPARE_EXACT(accuracy.chart.bars.groups[0].y[1], 0.8337);
    QCOMPARE(accuracy.display, (Size{660, 288}));
  }

  // A one-point gap between two high accuracies: the axis starts a bit below the lower bar,
  // ends a bit above the higher, at round numbers; clearly different values start at 0.
  void barAxisShowsASmallGap() {
    for (double scale : {1.0, 0.01}) {  // percent or fraction
      const double teacher = 89.31 * scale, student = 88.32 * scale;
      const AxisRange r = bar_value_range({teacher, student});
      QVERIFY(!r.from_zero());
      QVERIFY2(r.lower > 0 && r.lower <= student - 0.3 * scale,
               qPrintable(QString::number(r.lower)));
      QVERIFY2(r.upper >= teacher + 0.3 * scale, qPrintable(QString::number(r.upper)));
      // The gap is a visible part of the axis (from 0 to 100 it would be 1%).
      QVERIFY((teacher - student) / (r.upper - r.lower) >= 0.25);
    }
    // The step 5 * pow(10, -1), then 175 and 180 steps: a few ulps.
    ADALA_COMPARE_NEAR(bar_value_range({89.31, 88.32}).lower, 87.5, 1e-12 * 87.5);
    ADALA_COMPARE_NEAR(bar_value_range({89.31, 88.32}).upper, 90.0, 1e-12 * 90.0);
    QVERIFY(bar_value_range({0.85, 0.30}).from_zero());
    QVERIFY(bar_value_range({0.85}).from_zero());
    QVERIFY(bar_value_range({0.0, 0.01}).from_zero());
    QVERIFY(bar_value_range({}).from_zero());

    // The report's chart: zoomed, the gap labelled, the teacher's level drawn, and said so.
    const ReportDocument doc = documentOf({db_.full});
    const ReportFigure& accuracy = doc.figures[5];
    const BarChart& bars = accuracy.chart.bars;
    QVERIFY(bars.y_range_set);
    // bar_value_range: the step 10 * pow(10, -3), then 82 and 87 steps: a few ulps (82 * 0.01
    // is not the double nearest 0.82).
    ADALA_COMPARE_NEAR(bars.y_range.lower, 0.82, 1e-12 * 0.82);
    ADALA_COMPARE_NEAR(bars.y_range.upper, 0.87, 1e-12 * 0.87);
    QCOMPARE(qs(bars.note), QStringLiteral("gap −1.75 pt"));
    // The teacher's top-1 as the fixture stored it (SQLite REAL), read back and copied.
    ADALA_COMPARE_EXACT(bars.reference, 0.8512);
    QVERIFY2(
        qs(accuracy.caption).endsWith(QStringLiteral("The y axis starts at 82.00%, not at 0.")),
        accuracy.caption.c_str());
    // Two runs: one note with both gaps, no single reference line.
    const ReportDocument both = documentOf({db_.full, db_.second});
    const BarChart& pair = both.figures.back().chart.bars;
    QCOMPARE(qs(pair.note),
             QStringLiteral("#%1: gap −1.75 pt · #%2: gap −0.97 pt").arg(db_.full).arg(db_.second));
    QVERIFY(!std::isfinite(pair.reference));
    QVERIFY(!pair.y_range.from_zero());
  }

  // The document opens with the result: what was adapted, the headline sentence and table.
  void summaryOpensTheDocument() {
    const ReportDocument doc = documentOf({db_.full});
    const ReportSection& summary = doc.summary;
    QCOMPARE(qs(summary.id), QStringLiteral("summary"));
    QCOMPARE(qs(summary.title), QStringLiteral("Summary"));
    QVERIFY(!doc.section("summary"));  // not in the contents
    QCOMPARE(summary.blocks.size(), size_t(3));
    QCOMPARE(qs(summary.blocks[0].text),
             QStringLiteral("#%1 fm-tiny: vit_tiny on fashion-mnist, softmax attention replaced by "
                            "linear attention with the method adala (feature map elu1); stages "
                            "run: 0, 1, 2, 3.")
                 .arg(db_.full));
    QCOMPARE(qs(summary.blocks[1].text),
             QStringLiteral("Student 83.37% vs teacher 85.12%, gap −1.75 pt."));
    const ReportTable& t = summary.blocks[2].table;
    QCOMPARE(t.header, (std::vector<std::string>{"Result", "Value"}));
    QCOMPARE(t.rows, (std::vector<Row>{{"Teacher (softmax attention), top-1", "85.12%"},
                                       {"Student (linear attention), top-1", "83.37%"},
                                       {"Gap to the teacher (student − teacher)", "−1.75 pt"}}));

    // A run with the teacher only: it says so, and shows no empty table.
    const ReportDocument bare = documentOf({db_.bare});
    QCOMPARE(bare.summary.blocks.size(), size_t(2));
    QVERIFY(qs(bare.summary.blocks[0].text)
                .contains(QLatin1String("the teacher (softmax attention) only")));
    QCOMPARE(qs(bare.summary.blocks[1].text), QStringLiteral("No accuracy was recorded."));

    // Two runs: one line each, the table with a column per run.
    const ReportDocument both = documentOf({db_.full, db_.second});
    QCOMPARE(both.summary.blocks[0].kind, ReportBlock::Kind::Bullets);
    QCOMPARE(both.summary.blocks[0].items.size(), size_t(2));
    QVERIFY(qs(both.summary.blocks[0].items[1])
                .endsWith(QStringLiteral("Student 84.15% vs teacher 85.12%, gap −0.97 pt.")));
    QCOMPARE(both.summary.blocks[1].table.header.size(), size_t(3));

    // Every format puts it under the title, before the contents.
    const QString out = db_.dir + "/summary-out";
    QDir().mkpath(out);
    const QString html = qs(render_html(doc));
    const int section = html.indexOf(QLatin1String("<section id=\"summary\">"));
    QVERIFY(section > html.indexOf(QLatin1String("<h1>")));
    QVERIFY(section < html.indexOf(QLatin1String("<nav class=\"toc\">")));
    QVERIFY(html.indexOf(QStringLiteral("Student 83.37% vs teacher 85.12%, gap −1.75 pt.")) <
            html.indexOf(QLatin1String("<nav class=\"toc\">")));
    QVERIFY(write_markdown(doc, (out + "/full.md").toStdString()).ok);
    const QString md = QString::fromUtf8(read_bytes(out + "/full.md"));
    const int contents = md.indexOf(QLatin1String("## Contents"));
    QVERIFY(md.indexOf(QLatin1String("## Summary")) >
            md.indexOf(QLatin1String("# ViT-AdaLA run report")));
    QVERIFY(md.indexOf(QLatin1String("## Summary")) < contents);
    QVERIFY(md.indexOf(QStringLiteral("Student 83.37% vs teacher 85.12%, gap −1.75 pt.")) <
            contents);
    QVERIFY(md.indexOf(QStringLiteral("| Gap to the teacher (student − teacher) | −1.75 pt |")) <
            contents);
    QVERIFY(!md.contains(QLatin1String("[Summary]")));  // not listed in the contents
  }

  // Cost ratios from the run's scaling table: linear (student) against softmax (teacher).
  void headlineCostFromScalingTable() {
    const ReportDocument doc = documentOf({db_.figures});
    adala::store::RunStore store(db_.path.toStdString(), adala::store::OpenMode::ReadOnly);
    const Headline h = load_report_model(store, {db_.figures}).runs.front().headline;
    QCOMPARE(h.cost_source, Headline::CostSource::Scaling);
    QCOMPARE(h.costs.size(), size_t(3));
    QCOMPARE(h.costs[0].resolution, int64_t(224));
    // The scaling CSV's text ("10.9", ...) read with from_chars, which rounds correctly: the
    // same double as the literal, copied into the cost point.
    ADALA_COMPARE_EXACT(h.costs[0].student_ms, 10.9);
    ADALA_COMPARE_EXACT(h.costs[0].teacher_ms, 11.5);
    ADALA_COMPARE_EXACT(h.costs[2].student_mb, 420.0);
    ADALA_COMPARE_EXACT(h.costs[2].teacher_mb, 1900.0);
    const ReportTable* t = nullptr;
    for (const auto& b : doc.summary.blocks)
      if (b.kind == ReportBlock::Kind::Table) t = &b.table;
    QVERIFY(t);
    auto row = [&](const std::string& label) {
      for (const auto& r : t->rows)
        if (r.front() == label) return qs(r.back());
      return QString();
    };
    QCOMPARE(row("ms / image at 224², student / teacher"),
             QStringLiteral("0.95× (10.9 / 11.5 ms)"));
    QCOMPARE(row("Peak memory at 896², student / teacher"),
             QStringLiteral("0.22× (420 / 1,900 MB)"));
    QCOMPARE(qs(doc.summary.blocks.back().text).left(34),
             QStringLiteral("Inference cost from the run's scal"));
  }

  // A scaling table measured at batch 8 on a machine whose matmul rate moved 60 -> 100 GFLOP/s:
  // the table carries the batch, and a notice under it names the swing.
  void scalingTableShowsBatchAndUnsteadyRate() {
    const QString dir = report_test::fresh_dir("unsteady");
    const std::string path = (dir + "/runs.sqlite").toStdString();
    int64_t run = 0;
    {
      adala::store::RunStore store(path);
      report_test::RunSpec spec;
      spec.name = "scaling-b8";
      run = report_test::add_run(store, dir, spec);
      const QString csv = dir + "/scaling.csv";
      report_test::write_text(csv, "preset,resolution,mode\n");  // each case rewrites it
      store.add_artifact(run, "scaling_csv", csv.toStdString());
      store.flush();
    }
    auto scalingSection = [&](const std::string& csvText) {
      report_test::write_text(dir + "/scaling.csv", QByteArray::fromStdString(csvText));
      adala::store::RunStore store(path, adala::store::OpenMode::ReadOnly);
      const ReportDocument doc = build_report_document(load_report_model(store, {run}));
      for (const auto& s : doc.sections)
        if (s.id == "scaling") return s;
      return ReportSection{};
    };
    const std::string header =
        "preset,resolution,tokens,mode,batch,ms_per_img,train_ms,matmul_gflops_min,"
        "matmul_gflops_max,unsteady\n";
    ReportSection s = scalingSection(header + "vit_tiny,224,196,softmax,8,11.5,40,80,100,0\n" +
                                     "vit_tiny,224,196,linear,8,10.9,38,60,90,1\n");
    const ReportTable* t = nullptr;
    const ReportBlock* notice = nullptr;
    for (const auto& b : s.blocks) {
      if (b.kind == ReportBlock::Kind::Table && !t) t = &b.table;
      if (b.kind == ReportBlock::Kind::Notice) notice = &b;
    }
    QVERIFY(t);
    QCOMPARE(t->header, (Row{"Model", "Resolution", "Tokens", "Attention", "Batch", "ms / image",
                             "Training step (ms)"}));
    QCOMPARE(t->rows.at(1).at(4), std::string("8"));
    QVERIFY(notice);
    // 100 / 60 - 1 = 66.7 % over the whole run (both rows' probes), above the 25 % allowed.
    QCOMPARE(qs(notice->text),
             QStringLiteral("Unsteady machine: the reference matmul rate moved 66.7 % during this "
                            "benchmark (60.0 to 100 GFLOP/s), more than the 25 % a trusted run "
                            "allows. Ratios between these rows are not to be trusted; measure "
                            "again."));
    // A steady run (90 -> 100, 11 %) has no notice.
    s = scalingSection(header + "vit_tiny,224,196,softmax,8,11.5,40,90,100,0\n");
    for (const auto& b : s.blocks) QVERIFY(b.kind != ReportBlock::Kind::Notice);
    QDir(dir).removeRecursively();
  }

  // Cost ratios from `adala compare-methods`: the method's run against the comparison's teacher.
  void headlineCostFromMethodComparison() {
    const QString dir = report_test::fresh_dir("comparison");
    const std::string path = (dir + "/runs.sqlite").toStdString();
    int64_t student = 0;
    {
      adala::store::RunStore store(path);
      report_test::RunSpec teacher;
      teacher.name = "cmp-teacher";
      teacher.stages = {0};
      teacher.teacher_top1 = 0.8931;
      teacher.tags = {"comparison", "comparison:cmp", "method:teacher"};
      const int64_t t = report_test::add_run(store, dir, teacher);
      report_test::RunSpec method = teacher;
      method.name = "cmp-adala";
      method.stages = {0, 1, 2, 3};
      method.student_top1 = 0.8832;
      method.tags = {"comparison", "comparison:cmp", "method:adala"};
      student = report_test::add_run(store, dir, method);
      for (auto [run, ms224, ms896, peak224] :
           {std::tuple{t, 10.0, 160.0, 4e8}, std::tuple{student, 5.0, 40.0, 2e8}}) {
        store.add_evaluation(run, "comparison", "ms_per_img@224", ms224);
        store.add_evaluation(run, "comparison", "ms_per_img@896", ms896);
        store.add_evaluation(run, "comparison", "peak_bytes@224", peak224);
      }
      store.flush();
    }
    adala::store::RunStore store(path, adala::store::OpenMode::ReadOnly);
    const ReportModel model = load_report_model(store, {student});
    const Headline& h = model.runs.front().headline;
    QCOMPARE(h.cost_source, Headline::CostSource::Comparison);
    QCOMPARE(h.costs.size(), size_t(2));
    QCOMPARE(h.costs[1].resolution, int64_t(896));
    // peak_bytes 4e8 read back from the store, times 1e-6 (not exact in binary): one rounding.
    ADALA_COMPARE_NEAR(h.costs[0].teacher_mb, 400.0, 1e-12 * 400.0);
    QVERIFY(!std::isfinite(h.costs[1].student_mb));
    const ReportDocument doc = build_report_document(model);
    QCOMPARE(qs(doc.summary.blocks[1].text),
             QStringLiteral("Student 88.32% vs teacher 89.31%, gap −0.99 pt."));
    const ReportTable& t = doc.summary.blocks[2].table;
    std::vector<std::string> labels;
    for (const auto& r : t.rows) labels.push_back(r.front());
    QCOMPARE(
        labels,
        (std::vector<std::string>{
            "Teacher (softmax attention), top-1", "Student (linear attention), top-1",
            "Gap to the teacher (student − teacher)", "ms / image at 224², student / teacher",
            "Peak memory at 224², student / teacher", "ms / image at 896², student / teacher"}));
    QCOMPARE(qs(t.rows[3][1]), QStringLiteral("0.50× (5.00 / 10.0 ms)"));
    QCOMPARE(qs(t.rows[4][1]), QStringLiteral("0.50× (200 / 400 MB)"));
    QCOMPARE(qs(t.rows[5][1]), QStringLiteral("0.25× (40.0 / 160 ms)"));
    QVERIFY(qs(doc.summary.blocks.back().text).contains(QLatin1String("compare-methods")));
    // The chart of this run: the 89.31% / 88.32% pair on an axis from 87.5% to 90%.
    const BarChart& bars = doc.figures.back().chart.bars;
    QCOMPARE(qs(bars.note), QStringLiteral("gap −0.99 pt"));
    // bar_value_range: pow(10, k) times 5 for the step, then 175 and 180 steps: a few ulps.
    ADALA_COMPARE_NEAR(bars.y_range.lower, 0.875, 1e-12 * 0.875);
    ADALA_COMPARE_NEAR(bars.y_range.upper, 0.9, 1e-12 * 0.9);
    QDir(dir).removeRecursively();
  }

  // "The y axis is logarithmic" only in the captions of charts whose y axis is logarithmic:
  // the document decides the scale (>= 30x between the smallest and largest value) and the
  // renderer draws what it decided.
  void logarithmicSentenceOnlyOnLogarithmicAxes() {
    auto says_log = [](const std::string& text) {
      return text.find("logarithmic") != std::string::npos;
    };
    auto check = [&](const ReportDocument& doc) {
      int log_figures = 0;
      for (const ReportFigure& f : doc.figures) {
        if (!f.is_chart()) continue;
        bool log = f.chart.kind == ChartSpec::Kind::Bars && f.chart.bars.log_y;
        for (const auto& panel : f.chart.panels) log = log || panel.log_y;
        if (log != says_log(f.caption)) return -1;
        log_figures += log;
      }
      for (const auto& section : doc.sections)
        for (const auto& block : section.blocks)
          if (block.kind == ReportBlock::Kind::Paragraph && says_log(block.text)) return -1;
      return log_figures;
    };
    // The fixture's block MSE spans ~40x: logarithmic, and said so.
    const ReportDocument wide = documentOf({db_.full});
    QVERIFY(wide.section("block-mse"));
    const int wide_logs = check(wide);
    QVERIFY(wide_logs >= 2);
    // The loss curves span ~7x: a linear axis, no sentence.
    QVERIFY(!wide.figures[0].chart.panels[0].log_y);
    QVERIFY(!says_log(wide.figures[0].caption));

    // A run whose block MSE spans 2x: linear axes, and no "logarithmic" anywhere.
    const QString dir = report_test::fresh_dir("narrow-mse");
    const std::string path = (dir + "/runs.sqlite").toStdString();
    int64_t run = 0;
    {
      adala::store::RunStore store(path);
      run = store.create_run("narrow", "{}", "cpu", "", "");
      store.begin_stage(run, "attention_alignment", 1, 20);
      for (int step = 1; step <= 20; ++step)
        for (int b = 0; b < 3; ++b)
          store.add_metric(run, "attention_alignment", step, "block_mse", b,
                           0.01 + 0.0005 * step + 0.001 * b);
      store.end_stage(run, "attention_alignment", adala::store::RunStatus::Done);
      store.flush();
    }
    adala::store::RunStore store(path, adala::store::OpenMode::ReadOnly);
    const ReportDocument narrow = build_report_document(load_report_model(store, {run}));
    QVERIFY(narrow.section("block-mse"));
    QCOMPARE(check(narrow), 0);
    QDir(dir).removeRecursively();
  }

  void qtFreeExportHasPicturesButNoCharts() {
    const QString out = db_.dir + "/engine-out";
    QDir().mkpath(out);
    ReportRequest request;
    request.db_path = db_.path.toStdString();
    request.runs = {std::to_string(db_.figures)};
    request.output = (out + "/figures.html").toStdString();
    std::vector<std::string> warnings;
    request.warn = [&warnings](const std::string& w) { warnings.push_back(w); };
    ReportResult r = export_report(request);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(warnings.size(), size_t(1));
    QCOMPARE(r.figures, 9);
    const QString html = QString::fromUtf8(read_bytes(qs(r.output)));
    QCOMPARE(html.count(QLatin1String("<figure id=")), 9);
    QCOMPARE(html.count(QLatin1String("<figcaption>Figure ")), 9);
    // Only the two picture files are embedded, byte for byte.
    static const QRegularExpression uri(
        QStringLiteral("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\""));
    QList<QByteArray> embedded;
    for (auto it = uri.globalMatch(html); it.hasNext();)
      embedded << QByteArray::fromBase64(it.next().captured(1).toLatin1());
    QCOMPARE(embedded.size(), 2);
    QCOMPARE(embedded[0], read_bytes(db_.present_figure));
    QCOMPARE(embedded[1], read_bytes(db_.segmentation_figure));
    QVERIFY(html.contains(QStringLiteral("Figure file is missing: %1").arg(db_.missing_figure)));

    request.format = ReportFormat::Markdown;
    request.output = (out + "/figures.md").toStdString();
    r = export_report(request);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.files.size(), size_t(3));  // the document and the two pictures
    QCOMPARE(read_bytes(qs(r.files[1])), read_bytes(db_.present_figure));
    const QString md = QString::fromUtf8(read_bytes(qs(r.output)));
    QCOMPARE(md.count(QLatin1String("![")), 2);
    QCOMPARE(md.count(QRegularExpression(QStringLiteral("^\\*Figure \\d+\\. "),
                                         QRegularExpression::MultilineOption)),
             9);

    request.format = ReportFormat::Pdf;
    request.output = (out + "/figures.pdf").toStdString();
    r = export_report(request);
    QVERIFY(!r.ok);
    QVERIFY2(qs(r.error).contains(QLatin1String("PDF")), r.error.c_str());
    QVERIFY(!QFile::exists(qs(request.output)));
  }
};

ADALA_TEST_GUILESS_MAIN(TestReportEngine)
}  // namespace test_report_engine

#include "test_report_engine.moc"
