// A data-parallel run from the real window: Processes 2 in the launcher starts
// `adala run --nproc 2 --progress jsonl`, whose events drive the same live plots, status and
// run list as an in-process job: the plotted points are the rank-averaged metrics the database
// holds for the run, which is tagged with its world. Pause is disabled (with the reason) while
// it runs; Cancel interrupts it (resumable); a command that fails shows its own message.
#include <QtTest/QtTest>

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QThread>
#include <qcustomplot.h>

#include <algorithm>
#include <filesystem>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/run_process.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/run_browser.h"
#include "widgets/launch/stage_launcher.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_nproc {

using namespace adala;
using adala::gui::EngineController;
using adala::gui::MainWindow;
using adala::widgets::JobState;
using adala::widgets::JobStatus;

namespace {

constexpr int kDepth = 2;  // fmnist_micro
constexpr int kSteps = 5;

// The (step, value) points a QCustomPlot graph draws.
QVector<QPointF> points(QCPGraph* graph) {
  QVector<QPointF> out;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
    out.push_back(QPointF(it->key, it->value));
  return out;
}

// The database's rows of one stage, key and block as (step, value), by step.
QVector<QPointF> rows(const QString& db, qint64 run, int stage, const char* key, int block) {
  store::RunStore s(db.toStdString(), store::OpenMode::ReadOnly);
  QVector<QPointF> out;
  for (const auto& m : s.metrics(run, stage_name(stage), key))
    if (m.block == block) out.push_back(QPointF(double(m.step), m.value));
  std::sort(out.begin(), out.end(),
            [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
  return out;
}

}  // namespace

class TestGuiNproc : public QObject {
  Q_OBJECT

  QString dir_, db_;

  static JobState waitFinished(QSignalSpy& finished, int timeoutMs) {
    for (int waited = 0; finished.isEmpty() && waited < timeoutMs; waited += 1000)
      finished.wait(1000);
    return finished.isEmpty() ? JobState{} : finished.takeFirst().first().value<JobState>();
  }

  // Types `n` into the launcher's Processes box, as a person would.
  static void typeProcesses(widgets::StageLauncher* launcher, int n) {
    QSpinBox* box = launcher->processesBox();
    box->setFocus();
    QTest::mouseClick(box, Qt::LeftButton);
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, QString::number(n));
    QTest::keyClick(box, Qt::Key_Tab);
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("nproc");
    db_ = dir_ + "/runs.sqlite";
  }

  void processes_field_is_bounded_by_the_cores() {
    EngineController controller(db_);
    MainWindow window(&controller);
    auto* box = window.launcher()->processesBox();
    QCOMPARE(box->minimum(), 1);
    QCOMPARE(box->maximum(), std::max(1, QThread::idealThreadCount()));
    QCOMPARE(box->value(), 1);
    QVERIFY(box->toolTip().contains("adala run --nproc"));
  }

  void two_processes_plot_the_averaged_metrics_of_the_database() {
    if (QThread::idealThreadCount() < 2) QSKIP("one core: the Processes field stops at 1");
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "dp2", kSteps)));
    auto* launcher = window.launcher();
    typeProcesses(launcher, 2);
    QCOMPARE(launcher->processesBox()->value(), 2);

    QSignalSpy started(&controller, &EngineController::jobStarted);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    QSignalSpy steps(&controller, &EngineController::steps);
    QTest::mouseClick(launcher->startButton(), Qt::LeftButton);
    for (int waited = 0; started.isEmpty() && finished.isEmpty() && waited < 120; ++waited)
      started.wait(1000);
    QVERIFY2(!started.isEmpty(),
             qPrintable(finished.isEmpty() ? QString("no start")
                                           : finished.first().first().value<JobState>().message));
    const auto run = started.first().first().value<JobState>();
    QCOMPARE(run.processes, 2);
    QVERIFY(run.runId > 0);
    QCOMPARE(QFileInfo(run.runDir).dir().absolutePath(), QDir(dir_ + "/runs").absolutePath());
    QVERIFY(controller.processRunning());
    QCOMPARE(controller.runProcess()->arguments().mid(2, 6),
             QStringList({"--stages", "0,1,2,3", "--nproc", "2", "--db", db_}));
    // While it runs: no pause (with the reason), Cancel available, the form locked.
    QVERIFY(!launcher->startButton()->isEnabled());
    QVERIFY(!launcher->pauseButton()->isEnabled());
    QVERIFY(launcher->pauseButton()->toolTip().contains("cannot be paused"));
    QVERIFY(launcher->cancelButton()->isEnabled());
    QVERIFY(!launcher->processesBox()->isEnabled());

    const JobState end = waitFinished(finished, 300000);
    QVERIFY2(end.status == JobStatus::Done,
             qPrintable(widgets::jobStatusName(end.status) + ": " + end.message));
    QCOMPARE(end.runId, run.runId);
    QVERIFY(steps.count() > 0);
    QVERIFY(!controller.busy());
    QVERIFY(launcher->startButton()->isEnabled());
    QVERIFY(launcher->processesBox()->isEnabled());
    QCOMPARE(launcher->progressBar(1)->value(), kSteps);

    // The database: rank 0's run, done, tagged with its world.
    {
      store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
      auto info = s.find_run(run.runId);
      QVERIFY(info);
      QCOMPARE(QString::fromStdString(info->status), QString("done"));
      QCOMPARE(QString::fromStdString(info->name), QString("dp2"));
      QVERIFY2(
          std::count(info->tags.begin(), info->tags.end(), "data-parallel: 2 processes, gloo") == 1,
          qPrintable(QString::number(info->tags.size())));
      QCOMPARE(int(s.list_runs().size()), 1);  // ranks other than 0 record nothing
    }

    // The live plots hold exactly the database's rank-averaged values.
    auto* plot = window.msePlot();
    QTRY_COMPARE_WITH_TIMEOUT(plot->stage2PointCount(), kSteps, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(plot->stage1CurveCount(), kDepth, 10000);
    const QVector<QPointF> loss = rows(db_, run.runId, 2, "loss", -1);
    QCOMPARE(loss.size(), kSteps);
    QCOMPARE(points(plot->stage2Plot()->graph(0)), loss);
    for (int b = 0; b < kDepth; ++b) {
      QTRY_COMPARE_WITH_TIMEOUT(plot->stage1PointCount(b), kSteps, 10000);
      const QVector<QPointF> mse = rows(db_, run.runId, 1, "block_mse", b);
      QCOMPARE(mse.size(), kSteps);
      QCOMPARE(points(plot->stage1Plot()->graph(b)), mse);
    }
    // The run list and the status bar follow it.
    window.runBrowser()->refresh();
    QCOMPARE(window.runBrowser()->statusOf(run.runId), JobStatus::Done);
    QStringList status;
    for (auto* label : window.statusBar()->findChildren<QLabel*>()) status << label->text();
    QVERIFY2(status.join('\n').contains(QString("Run %1: done").arg(run.runId)),
             qPrintable(status.join('\n')));
  }

  void cancel_interrupts_every_process() {
    if (QThread::idealThreadCount() < 2) QSKIP("one core: the Processes field stops at 1");
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "dp2cancel", 3, 2000)));
    auto* launcher = window.launcher();
    typeProcesses(launcher, 2);
    QSignalSpy started(&controller, &EngineController::jobStarted);
    QSignalSpy steps(&controller, &EngineController::steps);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    QTest::mouseClick(launcher->startButton(), Qt::LeftButton);
    for (int waited = 0; steps.isEmpty() && finished.isEmpty() && waited < 120; ++waited)
      steps.wait(1000);
    QVERIFY(!steps.isEmpty());
    const auto run = started.first().first().value<JobState>();
    QTest::mouseClick(launcher->cancelButton(), Qt::LeftButton);
    const JobState end = waitFinished(finished, 120000);
    QVERIFY2(end.status == JobStatus::Interrupted,
             qPrintable(widgets::jobStatusName(end.status) + ": " + end.message));
    store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
    QCOMPARE(QString::fromStdString(s.find_run(run.runId)->status), QString("interrupted"));
    const auto stages = s.stages(run.runId);
    QCOMPARE(int(stages.size()), 1);
    QVERIFY(stages[0].last_step > 0 && stages[0].last_step < 2000);
    QVERIFY(std::filesystem::exists((run.runDir + "/checkpoints/teacher.pt").toStdString()));
    QVERIFY(launcher->startButton()->isEnabled());
  }

  void failing_command_shows_its_own_message() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    // As the run list's Resume does, for a run folder that is gone.
    widgets::StartRequest request;
    request.resumeRunDir = dir_ + "/no-such-run";
    request.processes = 2;
    controller.submit(request);
    const JobState end = waitFinished(finished, 60000);
    QCOMPARE(end.status, JobStatus::Failed);
    // `adala run`'s own words, from its error event.
    const QString expected =
        QString("--resume %1: no such run folder or run in").arg(request.resumeRunDir);
    QVERIFY2(end.message.contains(expected), qPrintable(end.message));
    QVERIFY2(window.launcher()->log()->toPlainText().contains(expected),
             qPrintable(window.launcher()->log()->toPlainText()));
    QVERIFY(!controller.busy());
  }
};

ADALA_TEST_MAIN(TestGuiNproc)
}  // namespace test_gui_nproc

#include "test_gui_nproc.moc"
