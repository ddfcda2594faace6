// The workbench's command line read into WorkbenchOptions (app/gui/workbench_options.h): the
// defaults, every option's value, each bad value's message (what `adala-workbench` prints after
// "adala-workbench: " before it exits with 2), and the options --help lists, in order.
#include <QDir>
#include <QtTest/QtTest>

#include "app/gui/workbench_options.h"
#include "tests/support/test_suite.h"
#include "widgets/common/colour_scale.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_workbench_options {

using namespace adala::gui;
using adala::widgets::ScaleMode;

namespace {

// The options of `adala-workbench <arguments>`; a failed test when the line does not parse.
std::optional<WorkbenchOptions> read(const QStringList& arguments, QString* error = nullptr) {
  WorkbenchCommandLine line;
  if (!line.parse(QStringList{QStringLiteral("adala-workbench")} + arguments)) {
    if (error) *error = line.error();
    return std::nullopt;
  }
  QString why;
  auto options = line.options(&why);
  if (error) *error = why;
  return options;
}

QString absolute(const QString& path) { return QDir::current().absoluteFilePath(path); }

}  // namespace

class TestGuiWorkbenchOptions : public QObject {
  Q_OBJECT
 private slots:
  void defaults() {
    const auto o = read({});
    QVERIFY(o);
    QCOMPARE(o->database, QFileInfo(defaultDatabase()).absoluteFilePath());
    QVERIFY(o->experiment.isEmpty() && o->startConfig.isEmpty());
    QVERIFY(!o->measureStall && !o->quitWhenDone && !o->inspect);
    QVERIFY(o->stages.isEmpty());
    QCOMPARE(o->threads, 0);
    QVERIFY(!o->openRun && !o->compare && !o->tab && !o->scale && !o->inspectorView);
    QVERIFY(!o->theme && !o->quitAfterSeconds);
  }

  void a_run_to_start() {
    auto o = read({"--db", "rel/runs.sqlite", "--run", "exp.json", "--stages", " 0, 2", "--threads",
                   "3", "--theme", "dark", "--quit-when-done", "--quit-after", "2.5", "doc.json"});
    QVERIFY(o);
    QCOMPARE(o->database, absolute("rel/runs.sqlite"));
    QCOMPARE(o->startConfig, QString("exp.json"));
    QCOMPARE(o->experiment, QString("doc.json"));
    QVERIFY(!o->measureStall);
    QCOMPARE(o->stages, (QList<int>{0, 2}));
    QCOMPARE(o->threads, 3);
    QCOMPARE(o->theme, QString("dark"));
    QVERIFY(o->quitWhenDone);
    ADALA_COMPARE_EXACT(o->quitAfterSeconds, 2.5);  // "2.5" parsed: exact in binary
    // --measure-stall starts its own experiment, whatever --run says.
    o = read({"--run", "exp.json", "--measure-stall", "stall.json"});
    QVERIFY(o);
    QVERIFY(o->measureStall);
    QCOMPARE(o->startConfig, QString("stall.json"));
  }

  void recorded_runs_and_views() {
    const auto o = read({"--open-run", "7", "--compare", "3,,4", "--tab", "health", "--scaling-csv",
                         "s.csv", "--open-segmentation", "seg", "--segmentation-image", "2"});
    QVERIFY(o);
    QCOMPARE(o->openRun, qint64(7));
    QCOMPARE(o->compare, (QList<qint64>{3, 4}));
    QCOMPARE(o->tab, WorkbenchTab::Health);
    QCOMPARE(o->scalingCsv, absolute("s.csv"));
    QCOMPARE(o->openSegmentation, absolute("seg"));
    QCOMPARE(o->segmentationImage, 2);
    // Each tab by its name; one the workbench does not have shows the plots.
    const std::pair<const char*, WorkbenchTab> tabs[] = {
        {"summary", WorkbenchTab::Summary}, {"plot", WorkbenchTab::Plot},
        {"health", WorkbenchTab::Health},   {"inspector", WorkbenchTab::Inspector},
        {"scaling", WorkbenchTab::Scaling}, {"features", WorkbenchTab::Features},
        {"plans", WorkbenchTab::Plans},     {"no-such-tab", WorkbenchTab::Plot}};
    for (const auto& [name, tab] : tabs) {
      const auto shown = read({"--tab", name});
      QCOMPARE(shown->tab, tab);
    }
  }

  void the_inspector() {
    auto o = read({"--inspect",        "ck/w.safetensors",
                   "--image",          "a.png",
                   "--dataset",        "data",
                   "--dataset-index",  "5",
                   "--precision",      "bf16",
                   "--input-size",     "-1",
                   "--block",          "1",
                   "--head",           "2",
                   "--query-patch",    "3,4",
                   "--inspector-view", "rollout",
                   "--scale",          "per-pane",
                   "--export-figure",  "f.pdf"});
    QVERIFY(o);
    QVERIFY(o->inspect);
    QCOMPARE(o->checkpoint, absolute("ck/w.safetensors"));
    QCOMPARE(o->image, absolute("a.png"));
    QCOMPARE(o->dataset, absolute("data"));
    QCOMPARE(o->datasetIndex, 5);
    QCOMPARE(o->precision, QString("bf16"));
    QCOMPARE(o->inputSize, -1);
    QCOMPARE(o->block, 1);
    QCOMPARE(o->head, 2);
    QCOMPARE(o->queryPatch, (std::pair(3, 4)));
    QCOMPARE(o->inspectorView, InspectorView::Rollout);
    QCOMPARE(o->scale, ScaleMode::PerPane);
    QCOMPARE(o->exportFigure, absolute("f.pdf"));
    // Any one of its inputs opens the inspector.
    auto with = [](const char* option, const char* value) {
      return read({option, value}).value_or(WorkbenchOptions{});
    };
    for (const char* option : {"--inspect", "--image", "--dataset", "--dataset-index"})
      QVERIFY2(with(option, "1").inspect, option);
    QVERIFY(!with("--block", "1").inspect);
    // The scales by name, or a fixed range.
    QCOMPARE(with("--scale", "shared").scale, ScaleMode::Shared);
    QCOMPARE(with("--scale", "log").scale, ScaleMode::Log);
    o = read({"--scale", "0.001..0.5"});
    QCOMPARE(o->scale, ScaleMode::Fixed);
    QCOMPARE(o->fixedRange, QString("0.001..0.5"));
    QCOMPARE(with("--inspector-view", "grid").inspectorView, InspectorView::Grid);
    QCOMPARE(with("--inspector-view", "maps").inspectorView, InspectorView::Maps);
    // A query patch that is not row,col is left out, as before.
    QVERIFY(!with("--query-patch", "3").queryPatch);
  }

  void bad_values_name_the_option_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString stages = QStringLiteral("--stages: expected numbers 0..3, e.g. 0,1,2,3");
    QTest::newRow("stage 4") << QStringList{"--stages", "0,4"} << stages;
    QTest::newRow("stage not a number") << QStringList{"--stages", "one"} << stages;
    QTest::newRow("no stage") << QStringList{"--stages", ","} << stages;
    QTest::newRow("view") << QStringList{"--inspector-view", "table"}
                          << QStringLiteral("--inspector-view table: maps, rollout or grid");
    QTest::newRow("precision") << QStringList{"--inspect", "w.safetensors", "--precision", "fp16"}
                               << QStringLiteral("--precision fp16: fp32 or bf16 (CPU autocast)");
    double lo = 0.0, hi = 0.0;
    for (const char* scale : {"wide", "0.5..0.1"}) {
      QString why;
      QVERIFY(!adala::widgets::parseFixedRange(scale, &lo, &hi, &why));
      QVERIFY(!why.isEmpty());
      QTest::newRow(qPrintable(QString("scale %1").arg(scale)))
          << QStringList{"--scale", scale}
          << QString("--scale %1: shared, per-pane, log or min..max (%2)").arg(scale, why);
    }
    // QCommandLineParser's own: an option the workbench does not have, a value left out.
    QTest::newRow("unknown option")
        << QStringList{"--colour"} << QStringLiteral("Unknown option 'colour'.");
    QTest::newRow("missing value")
        << QStringList{"--db"} << QStringLiteral("Missing value after '--db'.");
  }

  void bad_values_name_the_option() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QString error;
    QVERIFY(!read(arguments, &error));
    QCOMPARE(error, message);
  }

  void precision_without_the_inspector_is_ignored() {
    // As the workbench always did: --precision only matters with the inspector's inputs.
    const auto o = read({"--precision", "fp16"});
    QVERIFY(o);
    QVERIFY(o->precision.isEmpty());
  }

  void help_lists_every_option_in_order() {
    const QString help = WorkbenchCommandLine().helpText();
    const char* options[] = {"--db <file>",
                             "--run <config>",
                             "--stages <list>",
                             "--open-run <id>",
                             "--compare <id,id,...>",
                             "--inspect <checkpoint>",
                             "--image <file>",
                             "--dataset-index <n>",
                             "--dataset <path>",
                             "--precision <precision>",
                             "--input-size <pixels>",
                             "--block <b>",
                             "--head <h>",
                             "--query-patch <row,col>",
                             "--tab <name>",
                             "--scaling-csv <file>",
                             "--theme <name>",
                             "--threads <n>",
                             "--quit-after <seconds>",
                             "--quit-when-done",
                             "--measure-stall <config>",
                             "--scale <scale>",
                             "--inspector-view <view>",
                             "--export-figure <file>",
                             "--open-segmentation <folder>",
                             "--segmentation-image <n>"};
    qsizetype at = 0;
    for (const char* option : options) {
      const qsizetype found = help.indexOf(QLatin1String(option), at);
      QVERIFY2(found >= 0, option);
      at = found;
    }
    QVERIFY(help.contains(defaultDatabase()));
    QVERIFY(help.contains("[experiment.json]"));
  }
};

ADALA_TEST_GUILESS_MAIN(TestGuiWorkbenchOptions)
}  // namespace test_gui_workbench_options

#include "test_gui_workbench_options.moc"
