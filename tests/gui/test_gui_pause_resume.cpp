// Pause and resume as a user sees them in the real window: a paused run reads "paused" in the
// status bar, the run list and its stage's progress line, and the time it sits paused is not
// counted as the stage's training time; a run resumed from the run list (in a new window, as
// after a restart) shows its recorded history in the plots and its recorded config in the
// launcher.
#include <QtTest/QtTest>

#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeView>

#include <cmath>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/run_browser.h"
#include "widgets/launch/stage_launcher.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_pause_resume {

using namespace adala;
using adala::gui::EngineController;
using adala::gui::MainWindow;
using adala::widgets::JobState;
using adala::widgets::JobStatus;
using adala::widgets::StepUpdate;

namespace {

// Seconds between two database times ("2024-05-01T12:00:00.123Z").
double secondsBetween(const std::string& from, const std::string& to) {
  const auto a = QDateTime::fromString(QString::fromStdString(from), Qt::ISODateWithMs);
  const auto b = QDateTime::fromString(QString::fromStdString(to), Qt::ISODateWithMs);
  return a.isValid() && b.isValid() ? a.msecsTo(b) / 1000.0 : std::nan("");
}

// Waits until the controller has reported steps of `stage` (by name).
bool waitForStageSteps(QSignalSpy& steps, const char* stage) {
  for (int tries = 0; tries < 600; ++tries) {
    for (const auto& call : steps)
      for (const auto& m : call.first().value<QVector<StepUpdate>>())
        if (m.stage == QLatin1String(stage)) return true;
    if (!steps.wait(1000) && tries > 120) return false;
  }
  return false;
}

QPushButton* buttonNamed(QWidget* parent, const QString& text) {
  for (auto* b : parent->findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}

}  // namespace

class TestGuiPauseResume : public QObject {
  Q_OBJECT

  QString dir_, db_;

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("pause-resume");
    db_ = dir_ + "/runs.sqlite";
  }

  void a_paused_run_reads_paused_and_its_pause_is_not_training_time() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "pause", 400, 5)));
    auto* launcher = window.launcher();
    QSignalSpy started(&controller, &EngineController::jobStarted);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    QSignalSpy steps(&controller, &EngineController::steps);
    QTest::mouseClick(launcher->startButton(), Qt::LeftButton);
    QVERIFY(started.wait(60000));
    const auto run = started.first().first().value<JobState>();
    QVERIFY(waitForStageSteps(steps, stage_name(1)));

    QTest::mouseClick(launcher->pauseButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(controller.holding(), 60000);  // held between two steps
    QElapsedTimer paused;
    paused.start();
    QVERIFY2(window.statusMessage().contains(QLatin1String("paused")),
             qPrintable(window.statusMessage()));
    QCOMPARE(window.runBrowser()->statusOf(run.runId), JobStatus::Paused);
    int shownPaused = 0;
    for (int s = 1; s < kStageCount; ++s)
      shownPaused += launcher->progressLabel(s)->text().startsWith(QLatin1String("paused at step"));
    QCOMPARE(shownPaused, 1);
    QCOMPARE(launcher->pauseButton()->text(), QString("Resume"));
    // A refresh of the run list (the database still says running) keeps it paused.
    window.runBrowser()->refresh();
    QCOMPARE(window.runBrowser()->statusOf(run.runId), JobStatus::Paused);
    // Held well above the database times' millisecond resolution.
    QTRY_VERIFY_WITH_TIMEOUT(paused.elapsed() >= 800, 60000);
    QVERIFY(controller.holding());
    const double pausedSeconds = paused.elapsed() / 1000.0;
    QTest::mouseClick(launcher->pauseButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(window.runBrowser()->statusOf(run.runId), JobStatus::Running, 60000);
    QVERIFY(window.statusMessage().contains(QLatin1String("running")));

    if (finished.isEmpty()) QVERIFY(finished.wait(300000));
    QCOMPARE(finished.first().first().value<JobState>().status, JobStatus::Done);
    QCOMPARE(window.runBrowser()->statusOf(run.runId), JobStatus::Done);

    // Each stage's training time is at most its wall time; over the stages, the wall time
    // exceeds the training time by at least the time the run was held paused.
    store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
    double wall = 0.0, trained = 0.0;
    for (const auto& stage : s.stages(run.runId)) {
      const double stageWall = secondsBetween(stage.started_at, stage.ended_at);
      QVERIFY2(std::isfinite(stage.compute_seconds) && stage.compute_seconds > 0.0,
               stage.stage.c_str());
      QVERIFY2(stage.compute_seconds <= stageWall + 0.002,
               qPrintable(QString("%1: trained %2 s, wall %3 s")
                              .arg(QString::fromStdString(stage.stage))
                              .arg(stage.compute_seconds)
                              .arg(stageWall)));
      wall += stageWall;
      trained += stage.compute_seconds;
    }
    QVERIFY2(wall - trained >= pausedSeconds - 0.004,
             qPrintable(QString("wall %1 s, trained %2 s, paused %3 s")
                            .arg(wall)
                            .arg(trained)
                            .arg(pausedSeconds)));
  }

  void a_resumed_run_shows_its_history_and_its_recorded_config() {
    qint64 runId = 0;
    int recordedPoints = 0;
    {
      EngineController controller(db_);
      MainWindow window(&controller);
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "resume-me", 400, 5)));
      // A value the default form does not have, to recognise the run's own config later.
      auto* lr = window.launcher()->field(QStringLiteral("stages.attention_alignment.lr"));
      QVERIFY(lr);
      lr->selectAll();
      QTest::keyClicks(lr, QStringLiteral("0.00123"));
      QTest::keyClick(lr, Qt::Key_Tab);
      QSignalSpy started(&controller, &EngineController::jobStarted);
      QSignalSpy finished(&controller, &EngineController::jobFinished);
      QSignalSpy steps(&controller, &EngineController::steps);
      QTest::mouseClick(window.launcher()->startButton(), Qt::LeftButton);
      QVERIFY(started.wait(60000));
      runId = started.first().first().value<JobState>().runId;
      QVERIFY(waitForStageSteps(steps, stage_name(1)));
      QTest::mouseClick(window.launcher()->cancelButton(), Qt::LeftButton);
      if (finished.isEmpty()) QVERIFY(finished.wait(120000));
      QCOMPARE(finished.first().first().value<JobState>().status, JobStatus::Interrupted);
      store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
      recordedPoints = int(s.metrics(runId, stage_name(1), "block_mse").size()) / 2;  // 2 blocks
      QVERIFY2(recordedPoints > 0 && recordedPoints < 400,
               qPrintable(QString::number(recordedPoints)));
    }

    // As after a restart: a new window, the launcher holding another experiment.
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "other", 5, 5)));
    QCOMPARE(window.launcher()->field(QStringLiteral("stages.attention_alignment.lr"))->text(),
             QString("0.001"));
    auto* browser = window.runBrowser();
    browser->refresh();
    browser->selectRun(runId);
    QPushButton* resume = buttonNamed(browser, QStringLiteral("Resume"));
    QVERIFY(resume && resume->isEnabled());
    QSignalSpy started(&controller, &EngineController::jobStarted);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    QTest::mouseClick(resume, Qt::LeftButton);
    // The launcher shows the run's recorded config, not the file it held.
    QCOMPARE(window.launcher()->field(QStringLiteral("stages.attention_alignment.lr"))->text(),
             QString("0.00123"));
    QCOMPARE(window.launcher()->field(QStringLiteral("name"))->text(), QString("resume-me"));
    QVERIFY(window.launcher()->fileLabel()->text().contains(QString("#%1").arg(runId)));
    QVERIFY(started.wait(60000));
    // The Stage-1 curves start from the recorded history, not empty.
    QVERIFY2(window.msePlot()->stage1CurveCount() == 2 &&
                 window.msePlot()->stage1PointCount(0) >= recordedPoints,
             qPrintable(QString("%1 curves, %2 points")
                            .arg(window.msePlot()->stage1CurveCount())
                            .arg(window.msePlot()->stage1PointCount(0))));
    if (finished.isEmpty()) QVERIFY(finished.wait(300000));
    QCOMPARE(finished.first().first().value<JobState>().status, JobStatus::Done);
    // Recorded and live points together: every step once, as in the database.
    store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
    const auto mse = s.metrics(runId, stage_name(1), "block_mse");
    QCOMPARE(int(mse.size()), 2 * 400);
    QTRY_COMPARE_WITH_TIMEOUT(window.msePlot()->stage1PointCount(0), 400, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(window.msePlot()->stage1PointCount(1), 400, 60000);
  }
};

ADALA_TEST_MAIN(TestGuiPauseResume)
}  // namespace test_gui_pause_resume

#include "test_gui_pause_resume.moc"
