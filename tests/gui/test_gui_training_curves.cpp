// The "Loss & lr" tab against a run database written through RunStore's API (the keys the
// engine logs: loss, lr, train_acc per stage): every stage that logged a curve gets a row, and
// the points plotted for the Stage-3 (and Stage-0) loss, learning rate and training accuracy
// are exactly the database's rows; per-block rows (block_mse) are not a stage's loss; opening
// or comparing runs in the main window loads them.
#include <QtTest/QtTest>

#include <QTabWidget>

#include <cmath>

#include <qcustomplot.h>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/training_curves_plot.h"

using namespace adala;
using namespace adala::gui;
using namespace adala::widgets;
using Metric = TrainingCurvesPlot::Metric;

namespace {

// Stage 0 and Stage 3 (logged every 7 steps, 0..63), Stage 1 only per-block rows.
int64_t writeRun(store::RunStore& db, double scale) {
  const int64_t run = db.create_run("curves", "{}", "cpu", "", "");
  for (int stage : {0, 1, 3}) {
    const std::string name = stage_name(stage);
    db.begin_stage(run, name, stage, 63);
    for (qint64 step = 0; step <= 63; step += 7) {
      if (stage == 1) {
        db.add_metric(run, name, step, "block_mse", 0, 0.1);
        continue;
      }
      db.add_metric(run, name, step, "loss", -1, scale * (2.5 - 0.03 * double(step)) + 0.1 * stage);
      db.add_metric(run, name, step, "lr", -1, 1e-3 * std::cos(double(step) / 63.0) / (stage + 1));
      db.add_metric(run, name, step, "train_acc", -1, 0.1 + 0.012 * double(step) + 0.01 * stage);
      db.add_metric(run, name, step, "images_per_second", -1, 1000.0);  // not plotted here
    }
    db.end_stage(run, name, store::RunStatus::Done);
  }
  db.set_run_status(run, store::RunStatus::Done);
  db.flush();
  return run;
}

QVector<QPointF> fromDatabase(store::RunStore& db, int64_t run, int stage, const char* key) {
  QVector<QPointF> points;
  for (const auto& m : db.metrics(run, stage_name(stage), key))
    points << QPointF(double(m.step), m.value);
  return points;
}

}  // namespace

class TestGuiTrainingCurves : public QObject {
  Q_OBJECT
  QString db_;
  int64_t first_ = 0, second_ = 0;

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    db_ = gui_test::freshDir(QStringLiteral("training_curves")) + QStringLiteral("/runs.sqlite");
    store::RunStore db(db_.toStdString());
    first_ = writeRun(db, 1.0);
    second_ = writeRun(db, 0.5);
  }

  void plotted_points_equal_the_database() {
    TrainingCurvesPlot plot;
    QVERIFY(plot.loadRuns(db_, {first_}));
    QCOMPARE(plot.stagesShown(), (QList<int>{0, 3}));  // Stage 1 logged no loss or lr
    store::RunStore db(db_.toStdString(), store::OpenMode::ReadOnly);
    for (int stage : {0, 3}) {
      const auto loss = fromDatabase(db, first_, stage, "loss");
      QCOMPARE(loss.size(), 10);
      QCOMPARE(plot.plottedPoints(stage, Metric::Loss), loss);
      QCOMPARE(plot.plottedPoints(stage, Metric::LearningRate),
               fromDatabase(db, first_, stage, "lr"));
      QCOMPARE(plot.plottedPoints(stage, Metric::TrainAccuracy),
               fromDatabase(db, first_, stage, "train_acc"));
    }
    // Spot values (the data the database holds, independently of the reader).
    QCOMPARE(plot.plottedPoints(3, Metric::Loss).at(9), QPointF(63.0, 2.5 - 0.03 * 63.0 + 0.3));
    QCOMPARE(plot.plottedPoints(3, Metric::LearningRate).at(0), QPointF(0.0, 1e-3 / 4.0));
    QVERIFY(plot.lossPlot(3)->yAxis->scaleType() == QCPAxis::stLogarithmic);
    QVERIFY(plot.lossPlot(3)->yAxis2->visible());
    QVERIFY(plot.plottedPoints(1, Metric::Loss).isEmpty());
  }

  void compared_runs_overlay() {
    TrainingCurvesPlot plot;
    QVERIFY(plot.loadRuns(db_, {first_, second_}));
    store::RunStore db(db_.toStdString(), store::OpenMode::ReadOnly);
    QCOMPARE(plot.plottedPoints(3, Metric::Loss, 1), fromDatabase(db, second_, 3, "loss"));
    QVERIFY(plot.plottedPoints(3, Metric::Loss, 1) != plot.plottedPoints(3, Metric::Loss, 0));
    QCOMPARE(plot.lrPlot(3)->graphCount(), 2);
  }

  void a_missing_database_is_refused() {
    TrainingCurvesPlot plot;
    QString error;
    QVERIFY(!plot.loadRuns(QStringLiteral(ADALA_TEST_TMP) + "/gui/training_curves/none.sqlite", {1},
                           &error));
    QVERIFY(!error.isEmpty());
  }

  void main_window_loads_opened_and_compared_runs() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openRun(first_));
    TrainingCurvesPlot* curves = window.trainingCurves();
    QCOMPARE(curves->runs().size(), 1);
    QCOMPARE(curves->runs().first().runId, qint64(first_));
    window.compareRuns({first_, second_});
    QCOMPARE(curves->runs().size(), 2);
    QTest::keyClick(&window, Qt::Key_9, Qt::ControlModifier);
    QCOMPARE(window.findChild<QTabWidget*>()->currentWidget(), static_cast<QWidget*>(curves));
  }
};

QTEST_MAIN(TestGuiTrainingCurves)
#include "test_gui_training_curves.moc"
