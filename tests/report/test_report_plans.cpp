// The report's "Attention plans" section from a run database holding plan points written with
// record_plan_point: the plans of the reported run's session (or of every session), the table
// cheapest first with the frontier marked, the frontier chart's specification, and the chart
// drawn; no section where the database has no plans.
#include <QtTest/QtTest>

#include <QImage>

#include <algorithm>
#include <fstream>

#include "app/report_render/chart_render.h"
#include "engine/report/report_document.h"
#include "engine/report/report_model.h"
#include "engine/report/report_writers.h"
#include "engine/store/run_store.h"
#include "tests/plan/plan_fixture.h"
#include "tests/support/test_dirs.h"
#include "tests/support/report_column.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_report_plans {

using namespace adala;
using namespace adala::report;

namespace {

const ReportBlock* first_block(const ReportSection& s, ReportBlock::Kind kind) {
  for (const auto& b : s.blocks)
    if (b.kind == kind) return &b;
  return nullptr;
}

using adala_test::column;

}  // namespace

class TestReportPlans : public QObject {
  Q_OBJECT
  std::string dir_;
  plan_test::Fixture f_;
  int64_t ordinary_ = 0;

 private slots:
  void initTestCase() {
    dir_ = adala_test::fresh_test_dir("report", "plans");
    f_ = plan_test::write_fixture(dir_ + "/runs.sqlite");
    store::RunStore store(f_.path);
    ordinary_ = store.create_run("ordinary", "{}", "cpu", "1.13", "0.1");
    store.add_evaluation(ordinary_, "fine_tuning", "top1", 0.8);
    store.set_run_status(ordinary_, store::RunStatus::Done);
  }

  void a_plan_run_reports_its_session() {
    store::RunStore store(f_.path, store::OpenMode::ReadOnly);
    const ReportModel model = load_report_model(store, {f_.softmax0});
    QCOMPARE(model.plans.planner, std::string("sess-a"));
    QCOMPARE(model.plans.points.size(), size_t(5));
    QCOMPARE(model.plans.resolutions, (std::vector<int64_t>{32, 64}));
    const ReportDocument doc = build_report_document(model);
    const ReportSection* s = doc.section("plans");
    QVERIFY(s);
    QCOMPARE(s->title, std::string("Attention plans"));
    const auto ids = doc.section_ids();
    const auto order = all_section_ids();
    QVERIFY(std::find(order.begin(), order.end(), "plans") != order.end());
    const ReportBlock* t = first_block(*s, ReportBlock::Kind::Table);
    QVERIFY(t);
    QCOMPARE(t->table.header.size(), size_t(8));  // no Session column for one session
    QCOMPARE(
        column(t->table, "Plan"),
        (std::vector<std::string>{"all-linear", "window3", "softmax-0", "softmax-0-3", "teacher"}));
    QCOMPARE(column(t->table, "Blocks"),
             (std::vector<std::string>{"LLLL", "WWWW", "SLLL", "SLLS", "SSSS"}));
    QCOMPARE(column(t->table, "Frontier"), (std::vector<std::string>{"✓", "✓", "✓", "", "✓"}));
    QCOMPARE(column(t->table, "Run").back(), "#" + std::to_string(f_.teacher));
    QCOMPARE(column(t->table, "Gap to teacher").front(), std::string("−10.00 pt"));
    // At 64 px, the largest resolution where each plan has a cost; 3 significant digits.
    QCOMPARE(column(t->table, "ms / image").at(1), std::string("3.00"));
    bool says_resolution = false;
    for (const auto& b : s->blocks)
      says_resolution = says_resolution || (b.kind == ReportBlock::Kind::Paragraph &&
                                            b.text.find("64 px") != std::string::npos);
    QVERIFY(says_resolution);

    // The chart: top-1 against ms / image and against peak memory, the frontier as steps.
    const ReportBlock* fig = first_block(*s, ReportBlock::Kind::Figure);
    QVERIFY(fig);
    const ReportFigure& f = doc.figures.at(size_t(fig->figure));
    QVERIFY(f.is_chart());
    QCOMPARE(f.chart.kind, ChartSpec::Kind::Lines);
    QCOMPARE(f.chart.panels.size(), size_t(2));
    const LineChart& ms = f.chart.panels[0];
    QCOMPARE(ms.series.size(), size_t(2));
    const ChartSeries& frontier = ms.series[0];
    const ChartSeries& points = ms.series[1];
    QCOMPARE(frontier.style, ChartSeries::Style::Steps);
    // ms / image as the fixture stored it (SQLite REAL), read back and divided by 1.0.
    ADALA_COMPARE_EXACT(frontier.x, (std::vector<double>{2.0, 3.0, 5.5, 16.0}));
    const std::vector<double> frontier_top1{80.0, 84.0, 86.0, 90.0};
    QCOMPARE(frontier.y.size(), frontier_top1.size());
    for (size_t i = 0; i < frontier_top1.size(); ++i)  // 100 * top1 (0.8, ...): one rounding
      ADALA_COMPARE_NEAR(frontier.y[i], frontier_top1[i], 1e-12 * frontier_top1[i]);
    QCOMPARE(points.style, ChartSeries::Style::Points);
    QCOMPARE(points.x.size(), size_t(5));
    QCOMPARE(points.labels.size(), size_t(5));
    QVERIFY(std::find(points.labels.begin(), points.labels.end(), "softmax-0-3") !=
            points.labels.end());
    QVERIFY(ms.x_label.find("ms / image at 64 px") != std::string::npos);
    const LineChart& peak = f.chart.panels[1];
    const std::vector<double> frontier_mb{20.0, 35.0, 60.0, 200.0};
    QCOMPARE(peak.series[0].x.size(), frontier_mb.size());
    for (size_t i = 0; i < frontier_mb.size(); ++i)  // peak bytes / 1e6: one rounding at most
      ADALA_COMPARE_NEAR(peak.series[0].x[i], frontier_mb[i], 1e-12 * frontier_mb[i]);
    // Drawn: a picture with the frontier's colour in it.
    const QImage image = report_render::render_chart(f.chart);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 600);
    const Rgb c = frontier.color;
    bool found = false;
    for (int y = 0; y < image.height() && !found; y += 2)
      for (int x = 0; x < image.width() && !found; x += 2)
        found = image.pixelColor(x, y) == QColor(c.r, c.g, c.b);
    QVERIFY(found);
  }

  void another_run_reports_every_session() {
    store::RunStore store(f_.path, store::OpenMode::ReadOnly);
    const ReportModel model = load_report_model(store, {ordinary_});
    QCOMPARE(model.plans.planner, std::string());
    QCOMPARE(model.plans.points.size(), size_t(7));
    QCOMPARE(model.plans.resolutions, (std::vector<int64_t>{32}));
    const ReportDocument doc = build_report_document(model);
    const ReportSection* s = doc.section("plans");
    QVERIFY(s);
    const ReportTable& t = first_block(*s, ReportBlock::Kind::Table)->table;
    QCOMPARE(t.header.at(1), std::string("Session"));
    QCOMPARE(t.rows.size(), size_t(7));
    // Each gap against its own session's teacher: sess-b's all-linear 65 % vs 70 %.
    bool found = false;
    for (const auto& row : t.rows)
      found = found || (row[0] == "all-linear" && row[1] == "sess-b" && row[4] == "−5.00 pt");
    QVERIFY(found);
    // In the Markdown the section and its rows are there.
    const std::string md = dir_ + "/report.md";
    QVERIFY(write_markdown(doc, md).ok);
    std::ifstream in(md);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    QVERIFY(text.find("Attention plans") != std::string::npos);
    QVERIFY(text.find("| softmax-0-3 | sess-a | SLLS |") != std::string::npos);
  }

  void no_plans_no_section() {
    const std::string path = adala_test::fresh_test_dir("report", "no-plans") + "/runs.sqlite";
    int64_t run = 0;
    {
      store::RunStore store(path);
      run = store.create_run("plain", "{}", "cpu", "1.13", "0.1");
      store.set_run_status(run, store::RunStatus::Done);
    }
    store::RunStore store(path, store::OpenMode::ReadOnly);
    const ReportModel model = load_report_model(store, {run});
    QVERIFY(model.plans.empty());
    QVERIFY(build_report_document(model).section("plans") == nullptr);
  }
};

ADALA_TEST_MAIN(TestReportPlans)
}  // namespace test_report_plans

#include "test_report_plans.moc"
