// The numerical-health heatmap against a run database written through RunStore (as the
// engine's RunStoreSink writes it): the colour map's cells hold the stored value of block b at
// step s, a cell with a non-finite count is marked, switching the key or the stage redraws, and
// the main window shows an opened run in its "Numerical health" tab.
#include <QtTest/QtTest>

#include <QAbstractItemView>
#include <QComboBox>
#include <QTabWidget>

#include <cmath>

#include <qcustomplot.h>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/runs/health_heatmap.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_health {

using namespace adala;
using namespace adala::gui;
using namespace adala::widgets;

namespace {

constexpr int kBlocks = 3;
const qint64 kSteps[] = {0, 5, 10, 15};  // log_every 5

// Distinct, known values per (key, stage, step, block).
double minNormaliser(int stage, qint64 step, int block) {
  return std::pow(10.0, -1.0 - block) * (1.0 + 0.01 * double(step)) * (stage == 1 ? 1.0 : 3.0);
}
double maxAbs(int stage, qint64 step, int block) {
  return 10.0 * (block + 1) + double(step) + 100.0 * stage;
}

// A training run (id 1) with health rows for Stage 1 and Stage 2; Stage 1 block 1 has 7
// non-finite attention values at step 10, Stage 2 block 2 non-finite gradients at step 15.
int64_t writeRun(const QString& db) {
  store::RunStore store(db.toStdString());
  const int64_t run = store.create_run("health", "{}", "cpu", "", "");
  for (int stage : {1, 2}) {
    const std::string name = stage_name(stage);
    store.begin_stage(run, name, stage, 20);
    for (qint64 step : kSteps)
      for (int b = 0; b < kBlocks; ++b) {
        store.add_metric(run, name, step, "loss", -1, 0.5);
        store.add_metric(run, name, step, "health.min_normaliser", b,
                         minNormaliser(stage, step, b));
        store.add_metric(run, name, step, "health.max_abs_activation", b, maxAbs(stage, step, b));
        store.add_metric(run, name, step, "health.low_normaliser_share", b, 0.0);
        store.add_metric(run, name, step, "health.attention_nonfinite", b,
                         stage == 1 && step == 10 && b == 1 ? 7.0 : 0.0);
        store.add_metric(run, name, step, "health.activation_nonfinite", b, 0.0);
        store.add_metric(run, name, step, "health.grad_nonfinite", b,
                         stage == 2 && step == 15 && b == 2 ? 3.0 : 0.0);
      }
    store.end_stage(run, name, store::RunStatus::Done);
  }
  store.flush();
  return run;
}

// Alignment MSE of block b: Stage 1 logged every 5 steps (0-15), Stage 2 every 10 (0-20).
const qint64 kStage1Steps[] = {0, 5, 10, 15};
const qint64 kStage2Steps[] = {0, 10, 20};
double blockMse(int stage, qint64 step, int block) {
  return std::pow(10.0, -1.0 - block) *
         (stage == 1 ? 2.0 - 0.1 * double(step) : 0.5 - 0.01 * double(step));
}

// A run (id 1) with a teacher stage (health rows only) and block_mse rows for Stages 1 and 2.
int64_t writeAlignmentRun(const QString& db) {
  store::RunStore store(db.toStdString());
  const int64_t run = store.create_run("alignment", "{}", "cpu", "", "");
  store.begin_stage(run, stage_name(0), 0, 10);
  for (int b = 0; b < kBlocks; ++b)
    store.add_metric(run, stage_name(0), 0, "health.max_abs_activation", b, 1.0);
  store.end_stage(run, stage_name(0), store::RunStatus::Done);
  for (int stage : {1, 2}) {
    const std::string name = stage_name(stage);
    store.begin_stage(run, name, stage, 20);
    for (qint64 step : stage == 1
                           ? QVector<qint64>(std::begin(kStage1Steps), std::end(kStage1Steps))
                           : QVector<qint64>(std::begin(kStage2Steps), std::end(kStage2Steps)))
      for (int b = 0; b < kBlocks; ++b)
        store.add_metric(run, name, step, "block_mse", b, blockMse(stage, step, b));
    store.end_stage(run, name, store::RunStatus::Done);
  }
  store.flush();
  return run;
}

// Shows `map` on screen with the run loaded: empty, or what went wrong.
QString showRun(HealthHeatmap& map, const QString& db, int64_t run) {
  map.resize(900, 500);
  map.show();
  if (!QTest::qWaitForWindowExposed(&map)) return QStringLiteral("the heatmap was not exposed");
  QString error;
  if (!map.loadRun(db, run, &error)) return QStringLiteral("cannot load run: ") + error;
  return QString();
}

double cell(const HealthHeatmap& map, qint64 step, int block) {
  return map.colorMap()->data()->data(double(step), double(block));
}

}  // namespace

class TestGuiHealth : public QObject {
  Q_OBJECT
  QString dir_, db_;
  int64_t run_ = 0;

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir(QStringLiteral("health"));
    db_ = dir_ + QStringLiteral("/runs.sqlite");
    run_ = writeRun(db_);
  }

  void cells_hold_the_stored_values() {
    HealthHeatmap map;
    const QString error = showRun(map, db_, run_);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(map.stages(), QStringList({QString(stage_name(1)), QString(stage_name(2)),
                                        HealthHeatmap::allStages()}));
    QVERIFY(map.setStage(stage_name(1)));
    QVERIFY(map.setKey("health.min_normaliser"));
    auto* data = map.colorMap()->data();
    QCOMPARE(data->keySize(), 4);  // steps 0, 5, 10, 15
    QCOMPARE(data->valueSize(), kBlocks);
    // Every cell is the double written through RunStore (SQLite REAL round-trips it) and copied
    // untouched into the colour map; the expected value is the same function of the same inputs.
    for (qint64 step : kSteps)
      for (int b = 0; b < kBlocks; ++b)
        ADALA_COMPARE_EXACT(cell(map, step, b), minNormaliser(1, step, b));
    QCOMPARE(map.colorScale()->dataScaleType(), QCPAxis::stLogarithmic);
    QVERIFY(map.colorScale()->axis()->label().contains(map.keyCombo()->currentText()));

    // One marked cell in Stage 1: block 1 at step 10.
    QCOMPARE(map.markedCount(), 1);
    QVERIFY(map.isMarked(1, 10));
    QVERIFY(!map.isMarked(1, 5));
    QVERIFY(!map.isMarked(0, 10));

    // Another key through the combo: other values, linear scale for counts.
    map.keyCombo()->setCurrentIndex(map.keyCombo()->findData("health.max_abs_activation"));
    for (qint64 step : kSteps)
      for (int b = 0; b < kBlocks; ++b) ADALA_COMPARE_EXACT(cell(map, step, b), maxAbs(1, step, b));
    map.keyCombo()->setCurrentIndex(map.keyCombo()->findData("health.attention_nonfinite"));
    QCOMPARE(map.colorScale()->dataScaleType(), QCPAxis::stLinear);
    ADALA_COMPARE_EXACT(cell(map, 10, 1), 7.0);
    ADALA_COMPARE_EXACT(cell(map, 10, 0), 0.0);
    ADALA_COMPARE_EXACT(cell(map, 5, 1), 0.0);
    QCOMPARE(map.markedCount(), 1);  // marks do not depend on the key shown

    // The other stage through its combo.
    map.stageCombo()->setCurrentIndex(map.stageCombo()->findData(QString(stage_name(2))));
    map.keyCombo()->setCurrentIndex(map.keyCombo()->findData("health.min_normaliser"));
    for (qint64 step : kSteps)
      for (int b = 0; b < kBlocks; ++b)
        ADALA_COMPARE_EXACT(cell(map, step, b), minNormaliser(2, step, b));
    QCOMPARE(map.markedCount(), 1);
    QVERIFY(map.isMarked(2, 15));
    QVERIFY(!map.isMarked(1, 10));
    map.keyCombo()->setCurrentIndex(map.keyCombo()->findData("health.grad_nonfinite"));
    ADALA_COMPARE_EXACT(cell(map, 15, 2), 3.0);
  }

  void a_missing_step_is_an_empty_cell() {
    HealthHeatmap map;
    map.setSamples({{stage_name(1), 0, "health.max_abs_activation", 0, 2.0},
                    {stage_name(1), 4, "health.max_abs_activation", 0, 4.0},
                    {stage_name(1), 10, "health.max_abs_activation", 0, 8.0}});
    QVERIFY(map.setKey("health.max_abs_activation"));
    QCOMPARE(map.colorMap()->data()->keySize(), 6);  // every 2 steps from 0 to 10
    // The samples' values, copied into the cells.
    ADALA_COMPARE_EXACT(cell(map, 0, 0), 2.0);
    ADALA_COMPARE_EXACT(cell(map, 4, 0), 4.0);
    ADALA_COMPARE_EXACT(cell(map, 10, 0), 8.0);
    QVERIFY(std::isnan(cell(map, 6, 0)));
    QCOMPARE(map.markedCount(), 0);
  }

  // Logged every 10 steps and at the stage's last step (96): the grid is every 2 steps, yet
  // every cell from 10 to 96 holds the value logged at or after it (no empty stripes).
  void an_odd_last_step_leaves_no_empty_stripes() {
    HealthHeatmap map;
    QVector<HealthSample> samples;
    for (qint64 step : {10, 20, 30, 40, 50, 60, 70, 80, 90, 96})
      samples.push_back({stage_name(3), step, "health.max_abs_activation", 0, double(step)});
    map.setSamples(samples);
    QVERIFY(map.setKey("health.max_abs_activation"));
    QCOMPARE(map.colorMap()->data()->keySize(), 44);  // every 2 steps from 10 to 96
    for (qint64 step = 10; step <= 96; step += 2) {
      const double expected = step <= 90 ? double((step + 9) / 10 * 10) : 96.0;
      ADALA_COMPARE_EXACT(cell(map, step, 0), expected);  // whole numbers, copied
    }
  }

  void alignment_mse_lays_the_stages_on_one_step_axis() {
    const QString db = dir_ + QStringLiteral("/alignment.sqlite");
    const int64_t run = writeAlignmentRun(db);
    HealthHeatmap map;
    const QString error = showRun(map, db, run);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(map.stages(), QStringList({QString(stage_name(0)), QString(stage_name(1)),
                                        QString(stage_name(2)), HealthHeatmap::allStages()}));

    // Chosen as a user does: typed into the key combo, the stage combo opened with the mouse.
    map.keyCombo()->setFocus();
    QTest::keyClicks(map.keyCombo(), QStringLiteral("alignment"));
    QCOMPARE(map.key(), QStringLiteral("block_mse"));
    QTest::mouseClick(map.stageCombo(), Qt::LeftButton);
    QAbstractItemView* popup = map.stageCombo()->view();
    QTRY_VERIFY(popup->isVisible());
    popup->setCurrentIndex(
        popup->model()->index(map.stageCombo()->findData(HealthHeatmap::allStages()), 0));
    QTest::keyClick(popup, Qt::Key_Return);
    QTRY_VERIFY(!popup->isVisible());
    QCOMPARE(map.stage(), HealthHeatmap::allStages());

    // Stage 1 at steps 0-15, Stage 2 from global step 20 (15 + its interval), each value
    // spanning its stage's logging interval; the teacher stage has no alignment MSE.
    auto* data = map.colorMap()->data();
    QCOMPARE(data->keySize(), 9);  // global steps 0, 5, ..., 40
    QCOMPARE(data->valueSize(), kBlocks);
    // The stored doubles (SQLite REAL round-trips them), copied into the cells; the expected
    // value is the same function of the same inputs.
    for (int b = 0; b < kBlocks; ++b) {
      for (qint64 step : kStage1Steps)
        ADALA_COMPARE_EXACT(cell(map, step, b), blockMse(1, step, b));
      for (qint64 step : kStage2Steps) {
        ADALA_COMPARE_EXACT(cell(map, 20 + step, b), blockMse(2, step, b));
        if (step < 20) ADALA_COMPARE_EXACT(cell(map, 25 + step, b), blockMse(2, step, b));
      }
    }
    QCOMPARE(map.colorScale()->dataScaleType(), QCPAxis::stLogarithmic);
    QVERIFY(map.colorScale()->axis()->label().contains(map.keyCombo()->currentText()));
    QVERIFY(map.plot()->xAxis->label().contains(QObject::tr("step")));
    QCOMPARE(map.plot()->yAxis->label(), QObject::tr("block"));

    // The boundary: at the first Stage-2 step, drawn between the last Stage-1 cell and it,
    // with each stage's name where it begins.
    QCOMPARE(map.boundarySteps(), QVector<qint64>({20}));
    QStringList labels;
    int lines = 0;
    for (QCPAbstractItem* item : map.boundaryItems()) {
      if (auto* line = qobject_cast<QCPItemStraightLine*>(item)) {
        ++lines;
        const double x = line->point1->coords().x();
        ADALA_COMPARE_EXACT(line->point2->coords().x(), x);  // both ends set from the same x
        QVERIFY2(x > 15 && x <= 20, qPrintable(QString::number(x)));
      } else if (auto* text = qobject_cast<QCPItemText*>(item)) {
        labels << text->text();
      }
    }
    QCOMPARE(lines, 1);
    QCOMPARE(labels.size(), 2);
    QVERIFY(labels[0].contains(QString(stage_name(1))));
    QVERIFY(labels[1].contains(QString(stage_name(2))));

    // One stage alone: its own steps, no boundary.
    QVERIFY(map.setStage(stage_name(2)));
    QCOMPARE(data->keySize(), 3);
    for (qint64 step : kStage2Steps) ADALA_COMPARE_EXACT(cell(map, step, 1), blockMse(2, step, 1));
    QVERIFY(map.boundarySteps().isEmpty());
    QVERIFY(map.boundaryItems().isEmpty());
  }

  // As the training loop logs: steps counted from 1, a row at the end of each interval. Stage
  // 2 continues from Stage 1's last step; its first row (step 10) covers global steps 11-20.
  void stages_counted_from_one_follow_each_other() {
    const QString mse = HealthHeatmap::alignmentKey();
    HealthHeatmap map;
    map.setSamples({{stage_name(1), 5, mse, 0, 1.0},
                    {stage_name(1), 10, mse, 0, 2.0},
                    {stage_name(2), 10, mse, 0, 3.0},
                    {stage_name(2), 20, mse, 0, 4.0}});
    QVERIFY(map.setKey(mse));
    QVERIFY(map.setStage(HealthHeatmap::allStages()));
    QCOMPARE(map.colorMap()->data()->keySize(), 6);  // global steps 5, 10, ..., 30
    const double expected[] = {1.0, 2.0, 3.0, 3.0, 4.0, 4.0};
    for (int i = 0; i < 6; ++i) ADALA_COMPARE_EXACT(cell(map, 5 * (i + 1), 0), expected[i]);
    QCOMPARE(map.boundarySteps(), QVector<qint64>({11}));
    for (QCPAbstractItem* item : map.boundaryItems())
      if (auto* line = qobject_cast<QCPItemStraightLine*>(item))
        // Between the cells of steps 10 and 15: 15 - 5 / 2, exact in binary.
        ADALA_COMPARE_EXACT(line->point1->coords().x(), 12.5);
  }

  void main_window_shows_an_opened_run() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QCOMPARE(tabs->widget(MainWindow::HealthTab), static_cast<QWidget*>(window.healthHeatmap()));
    QCOMPARE(tabs->tabText(MainWindow::HealthTab), QObject::tr("Numerical health"));
    window.openRun(run_);
    auto* map = window.healthHeatmap();
    QCOMPARE(map->runId(), qint64(run_));
    QCOMPARE(map->stage(), QString(stage_name(2)));  // the latest stage
    QVERIFY(map->setKey("health.max_abs_activation"));
    ADALA_COMPARE_EXACT(cell(*map, 5, 2), maxAbs(2, 5, 2));  // the stored double, read back
    QTest::keyClick(&window, Qt::Key_7, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), int(MainWindow::HealthTab));
  }
};

ADALA_TEST_MAIN(TestGuiHealth)
}  // namespace test_gui_health

#include "test_gui_health.moc"
