// The "Loss & lr" tab against a run database written through RunStore's API (the keys the
// engine logs: loss, lr, train_acc per stage): every stage that logged a curve gets a row, and
// the points plotted for the Stage-3 (and Stage-0) loss, learning rate and training accuracy
// are exactly the database's rows; per-block rows (block_mse) are not a stage's loss; opening
// or comparing runs in the main window loads them. A live run's steps (the controller's step
// signals) are drawn as they arrive, before their stage ends; the smoothing slider plots the
// EMA that series_smoothing computes; the x axis switches to wall time.
#include <QtTest/QtTest>

#include <QTabWidget>

#include <cmath>

#include <qcustomplot.h>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/runs/run_types.h"
#include "widgets/common/series_smoothing.h"
#include "widgets/runs/training_curves_plot.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_training_curves {

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

  // The smoothing slider: the loss and training accuracy plotted are the EMA of the database's
  // values (series_smoothing's, and checked by hand for the first points); the lr stays raw.
  void smoothing_plots_the_ema() {
    TrainingCurvesPlot plot;
    QVERIFY(plot.loadRuns(db_, {first_}));
    store::RunStore db(db_.toStdString(), store::OpenMode::ReadOnly);
    const auto loss = fromDatabase(db, first_, 3, "loss");
    plot.smoothingSlider()->setValue(60);
    // 60 / 100.0, correctly rounded: the double nearest 0.6, as the literal is.
    ADALA_COMPARE_EXACT(plot.smoothing(), 0.6);
    const auto smoothed = plot.plottedPoints(3, Metric::Loss);
    QCOMPARE(smoothed.size(), loss.size());
    QVector<double> raw;
    for (const auto& p : loss) raw << p.y();
    const QVector<double> ema = emaSmooth(raw, 0.6);
    // The plot smooths the same doubles read from the database with the same emaSmooth() and
    // weight, at the same steps (whole numbers): the same bits.
    for (int i = 0; i < loss.size(); ++i) {
      ADALA_COMPARE_EXACT(smoothed[i].x(), loss[i].x());
      ADALA_COMPARE_EXACT(smoothed[i].y(), ema[i]);
    }
    ADALA_COMPARE_EXACT(smoothed[0].y(), loss[0].y());  // the EMA starts at the first value
    QVERIFY(std::abs(smoothed[1].y() - (0.6 * loss[0].y() + 0.4 * loss[1].y())) < 1e-12);
    QVERIFY(std::abs(smoothed[2].y() - (0.6 * smoothed[1].y() + 0.4 * loss[2].y())) < 1e-12);
    // Smoothing moved the point, by more than the 1e-12 the checks above allow.
    QVERIFY(std::abs(smoothed[5].y() - loss[5].y()) > 1e-12);
    QCOMPARE(plot.plottedPoints(3, Metric::LearningRate), fromDatabase(db, first_, 3, "lr"));
    plot.setSmoothing(0);
    QCOMPARE(plot.plottedPoints(3, Metric::Loss), loss);
  }

  // The live run through the main window: its history when it starts, then every logged step
  // the controller reports, drawn before the stage ends (no stage event comes in between);
  // a step of a new stage adds its row; the x axis by wall time.
  void live_steps_are_drawn_before_the_stage_ends() {
    const QString dbPath =
        gui_test::freshDir(QStringLiteral("training_curves_live")) + QStringLiteral("/runs.sqlite");
    int64_t run = 0;
    const std::string stage1 = stage_name(1);
    {
      store::RunStore db(dbPath.toStdString());
      run = db.create_run("live", "{}", "cpu", "", "");
      db.begin_stage(run, stage1, 1, 100);
      for (int64_t step : {0, 5}) {
        db.add_metric(run, stage1, step, "loss", -1, 1.0 / double(step + 1));
        db.add_metric(run, stage1, step, "lr", -1, 1e-3);
        db.add_metric(run, stage1, step, "wall_time", -1, 1000.0 + double(step));
      }
      db.flush();
    }
    EngineController controller(dbPath);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    TrainingCurvesPlot* curves = window.trainingCurves();
    JobState state;
    state.jobId = 1;
    state.runId = run;
    state.name = QStringLiteral("live");
    state.status = widgets::JobStatus::Running;
    emit controller.jobStarted(state);
    QCOMPARE(curves->runs().size(), 1);
    QCOMPARE(curves->plottedPoints(1, Metric::Loss),
             (QVector<QPointF>{{0, 1.0}, {5, 1.0 / 6.0}}));  // the recorded history

    const auto stepOf = [&](const std::string& stage, qint64 step, double loss) {
      StepUpdate u;
      u.stage = QString::fromStdString(stage);
      u.step = step;
      u.totalSteps = 100;
      u.loss = loss;
      u.lr = 5e-4;
      u.extra[QStringLiteral("wall_time")] = 1000.0 + double(step);
      return u;
    };
    emit controller.steps({stepOf(stage1, 10, 0.25), stepOf(stage1, 15, 0.125)});
    QTRY_COMPARE_WITH_TIMEOUT(curves->plottedPoints(1, Metric::Loss).size(), 4, 10000);
    QCOMPARE(curves->plottedPoints(1, Metric::Loss).at(3), QPointF(15, 0.125));
    QCOMPARE(curves->plottedPoints(1, Metric::LearningRate).at(2), QPointF(10, 5e-4));
    QVERIFY(curves->lossPlot(1)->xAxis->range().contains(15));
    QVERIFY(curves->lossPlot(1)->yAxis->range().contains(0.125));
    // A step logged again (a resumed run repeats its last one) is not drawn twice.
    emit controller.steps({stepOf(stage1, 15, 0.125)});
    emit controller.steps({stepOf(stage1, 20, 0.0625)});
    QTRY_COMPARE_WITH_TIMEOUT(curves->plottedPoints(1, Metric::Loss).size(), 5, 10000);

    // Stage 2's first step: its row appears.
    const std::string stage2 = stage_name(2);
    emit controller.steps({stepOf(stage2, 0, 0.5)});
    QTRY_COMPARE_WITH_TIMEOUT(curves->stagesShown(), (QList<int>{1, 2}), 10000);
    QCOMPARE(curves->plottedPoints(2, Metric::Loss), (QVector<QPointF>{{0, 0.5}}));

    // By wall time: seconds since the run's first logged step (1000 s at Stage 1 step 0).
    curves->xAxisBox()->setCurrentIndex(1);
    QCOMPARE(curves->xAxis(), CurveXAxis::WallTime);
    QCOMPARE(curves->plottedPoints(1, Metric::Loss).at(4), QPointF(20, 0.0625));
    QCOMPARE(curves->plottedPoints(2, Metric::Loss).at(0), QPointF(0, 0.5));
    QVERIFY(curves->lossPlot(1)->xAxis->label().contains(QLatin1String("wall time")));
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

ADALA_TEST_MAIN(TestGuiTrainingCurves)
}  // namespace test_gui_training_curves

#include "test_gui_training_curves.moc"
