// Runs launched from the real window: a short run fills the live MSE plot (one curve per
// block) and the run database; Cancel leaves the run `interrupted` and resumable; closing the
// window during a run asks, stops cleanly, and leaves it interrupted too.
#include <QtTest/QtTest>

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

#include <filesystem>
#include <set>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/run_browser.h"
#include "widgets/launch/stage_launcher.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_run {

using namespace adala;
using adala::gui::EngineController;
using adala::gui::MainWindow;
using adala::widgets::JobState;
using adala::widgets::JobStatus;

namespace {

constexpr int kDepth = 2;  // fmnist_micro

store::RunInfo runInfo(const QString& db, qint64 id) {
  store::RunStore s(db.toStdString(), store::OpenMode::ReadOnly);
  auto info = s.find_run(static_cast<int64_t>(id));
  return info ? *info : store::RunInfo{};
}

}  // namespace

class TestGuiRun : public QObject {
  Q_OBJECT

  QString dir_, db_;

  // Waits (if need be) for a jobFinished on the spy and returns the state it reported.
  static JobState waitFinished(QSignalSpy& finished, int timeoutMs) {
    if (finished.isEmpty() && !finished.wait(timeoutMs)) return {};
    return finished.takeFirst().first().value<JobState>();
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("run");
    db_ = dir_ + "/runs.sqlite";
  }

  void short_run_fills_plot_and_database() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "short")));
    auto* launcher = window.launcher();
    QVERIFY(launcher->startButton()->isEnabled());

    QSignalSpy started(&controller, &EngineController::jobStarted);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    QSignalSpy steps(&controller, &EngineController::steps);
    QTest::mouseClick(launcher->startButton(), Qt::LeftButton);
    QVERIFY(started.wait(30000));
    QVERIFY(!launcher->startButton()->isEnabled());  // one run at a time from the form
    QVERIFY(launcher->cancelButton()->isEnabled());
    QVERIFY(finished.wait(180000));
    const auto state = finished.first().first().value<JobState>();
    QCOMPARE(state.status, JobStatus::Done);
    QVERIFY(state.runId > 0);
    QVERIFY(steps.count() > 0);

    // The live plot: one Stage-1 curve per block with a point per step, bars, Stage 2.
    QTRY_COMPARE(window.msePlot()->stage1CurveCount(), kDepth);
    for (int b = 0; b < kDepth; ++b) {
      QTRY_COMPARE(window.msePlot()->stage1PointCount(b), 5);
      QCOMPARE(window.msePlot()->stage1CurveName(b), QString("block %1").arg(b));
    }
    QTRY_COMPARE(window.msePlot()->barCount(), kDepth);
    QTRY_COMPARE(window.msePlot()->stage2PointCount(), 5);
    QCOMPARE(launcher->progressBar(1)->value(), 5);
    QCOMPARE(launcher->progressBar(1)->maximum(), 5);
    QVERIFY(!launcher->startButton()->isDown() && launcher->startButton()->isEnabled());

    // The database: run done, every stage done, per-block MSE rows, weights recorded.
    {
      store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
      auto info = s.find_run(state.runId);
      QVERIFY(info);
      QCOMPARE(QString::fromStdString(info->status), QString("done"));
      QCOMPARE(QString::fromStdString(info->name), QString("short"));
      const auto stages = s.stages(state.runId);
      QCOMPARE(int(stages.size()), 4);
      for (const auto& st : stages) QCOMPARE(QString::fromStdString(st.status), QString("done"));
      const auto mse = s.metrics(state.runId, stage_name(1), "block_mse");
      QCOMPARE(int(mse.size()), 5 * kDepth);
      std::set<int> blocks;
      for (const auto& m : mse) blocks.insert(m.block);
      QCOMPARE(int(blocks.size()), kDepth);
      int weights = 0;
      for (const auto& a : s.artifacts(state.runId)) weights += a.kind == "weights";
      QCOMPARE(weights, 4);
    }
    // The run browser lists it; opening it re-reads the plots from the database.
    window.runBrowser()->refresh();
    QCOMPARE(window.runBrowser()->statusOf(state.runId), JobStatus::Done);
    window.openRun(state.runId);
    QCOMPARE(window.msePlot()->seriesCount(), 1);
    QCOMPARE(window.msePlot()->stage1CurveCount(), kDepth);
    QCOMPARE(window.msePlot()->stage1PointCount(0), 5);
    QCOMPARE(window.msePlot()->stage2PointCount(), 5);
    QCOMPARE(window.runCheckpoints(state.runId).size(), 4);

    // Export what is shown.
    QVERIFY(window.msePlot()->exportCsv(dir_ + "/mse.csv"));
    QVERIFY(window.msePlot()->exportPng(dir_ + "/mse.png"));
    QVERIFY(QImage(dir_ + "/mse.png").width() > 100);
    QFile csv(dir_ + "/mse.csv");
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 1 + 5 * kDepth + 5);
    QVERIFY(window.msePlot()->exportSvg(dir_ + "/mse.svg"));
    QFile svg(dir_ + "/mse.svg");
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
  }

  void cancel_leaves_interrupted_and_resumable() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // A teacher stage long enough to be cancelled part-way.
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "cancel", 3, 400)));
    QSignalSpy steps(&controller, &EngineController::steps);
    QSignalSpy started(&controller, &EngineController::jobStarted);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    QTest::mouseClick(window.launcher()->startButton(), Qt::LeftButton);
    QVERIFY(steps.wait(60000));
    const auto run = started.first().first().value<JobState>();
    QVERIFY(window.launcher()->cancelButton()->isEnabled());
    QSignalSpy cancelClicked(window.launcher(), &widgets::StageLauncher::cancelRequested);
    QTest::mouseClick(window.launcher()->cancelButton(), Qt::LeftButton);
    QCOMPARE(cancelClicked.count(), 1);
    const JobState end = waitFinished(finished, 60000);
    QCOMPARE(end.status, JobStatus::Interrupted);
    QCOMPARE(QString::fromStdString(runInfo(db_, run.runId).status), QString("interrupted"));
    int64_t cancelledAt = 0;
    {
      store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
      const auto stages = s.stages(run.runId);
      QCOMPARE(int(stages.size()), 1);
      QCOMPARE(QString::fromStdString(stages[0].status), QString("interrupted"));
      cancelledAt = stages[0].last_step;
      QVERIFY2(cancelledAt > 0 && cancelledAt < 400, qPrintable(QString::number(cancelledAt)));
    }
    QVERIFY(std::filesystem::exists((run.runDir + "/checkpoints/teacher.pt").toStdString()));
    QVERIFY(window.launcher()->startButton()->isEnabled());

    // Resume from the run browser: the same database row finishes, no step twice.
    auto* browser = window.runBrowser();
    browser->refresh();
    QCOMPARE(browser->statusOf(run.runId), JobStatus::Interrupted);
    browser->selectRun(run.runId);
    QPushButton* resume = nullptr;
    for (auto* b : browser->findChildren<QPushButton*>())
      if (b->text() == "Resume") resume = b;
    QVERIFY(resume && resume->isEnabled());
    QSignalSpy resumed(&controller, &EngineController::jobStarted);
    QTest::mouseClick(resume, Qt::LeftButton);
    QVERIFY(resumed.wait(30000));
    QCOMPARE(resumed.first().first().value<JobState>().runId, run.runId);
    const JobState done = waitFinished(finished, 180000);
    QCOMPARE(done.status, JobStatus::Done);
    store::RunStore s(db_.toStdString(), store::OpenMode::ReadOnly);
    QCOMPARE(QString::fromStdString(s.find_run(run.runId)->status), QString("done"));
    const auto loss = s.metrics(run.runId, stage_name(0), "loss");
    QCOMPARE(int(loss.size()), 400);
    for (int i = 0; i < 400; ++i) QCOMPARE(loss[size_t(i)].step, int64_t(i + 1));

    // Multi-select in the run browser -> Compare overlays both runs' curves.
    browser->refresh();
    QVERIFY(browser->visibleRunCount() >= 2);
    browser->view()->selectAll();
    QPushButton* compare = nullptr;
    for (auto* b : browser->findChildren<QPushButton*>())
      if (b->text() == "Compare") compare = b;
    QVERIFY(compare && compare->isEnabled());
    QTest::mouseClick(compare, Qt::LeftButton);
    const int runs = browser->visibleRunCount();
    QCOMPARE(window.msePlot()->seriesCount(), runs);
    QCOMPARE(window.msePlot()->stage1CurveCount(), runs * kDepth);
    QCOMPARE(window.msePlot()->barCount(), runs * kDepth);
    QVERIFY(window.msePlot()->stage1CurveName(0).contains("block 0"));
    QVERIFY(window.msePlot()->stage1CurveName(0).startsWith("#"));
    // Filtering narrows the list.
    browser->setFilterText("cancel");
    QCOMPARE(browser->visibleRunCount(), 1);
    browser->setFilterText("");
  }

  void closing_during_a_run_asks_then_interrupts() {
    EngineController controller(db_);
    MainWindow window(&controller);
    int asked = 0;
    bool answer = false;
    window.setQuitConfirmation([&] {
      ++asked;
      return answer;
    });
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "close", 3, 400)));
    QSignalSpy steps(&controller, &EngineController::steps);
    QSignalSpy started(&controller, &EngineController::jobStarted);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    window.startRun();
    QVERIFY(steps.wait(60000));
    const auto run = started.first().first().value<JobState>();

    // "No": the window stays and the run goes on.
    QVERIFY(!window.close());
    QCOMPARE(asked, 1);
    QVERIFY(window.isVisible());
    QVERIFY(controller.busy());
    steps.clear();
    QVERIFY(steps.wait(30000));

    // "Yes": the run stops after its step, is checkpointed and marked interrupted; then the
    // window closes by itself.
    answer = true;
    QVERIFY(!window.close());  // not yet: waiting for the engine
    QCOMPARE(asked, 2);
    QVERIFY(window.stopping());
    QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 60000);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().value<JobState>().status, JobStatus::Interrupted);
    QCOMPARE(QString::fromStdString(runInfo(db_, run.runId).status), QString("interrupted"));
    QVERIFY(std::filesystem::exists((run.runDir + "/checkpoints/teacher.pt").toStdString()));
  }

  void pause_holds_the_run_within_a_step() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "pause", 3, 400)));
    QSignalSpy steps(&controller, &EngineController::steps);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    window.startRun();
    QVERIFY(steps.wait(60000));
    QTest::mouseClick(window.launcher()->pauseButton(), Qt::LeftButton);
    QVERIFY(controller.paused());
    QCOMPARE(window.launcher()->pauseButton()->text(), QString("Resume"));
    // The engine parks between two steps; the steps it sent before then arrive, none after.
    QTRY_VERIFY_WITH_TIMEOUT(controller.holding(), 60000);
    QCoreApplication::processEvents();
    steps.clear();
    QCoreApplication::processEvents();
    QVERIFY(controller.holding());  // still parked: the pause holds
    QCOMPARE(steps.count(), 0);
    QTest::mouseClick(window.launcher()->pauseButton(), Qt::LeftButton);
    QVERIFY(!controller.paused());
    QVERIFY(steps.wait(30000));
    window.controller()->cancelAll();
    QCOMPARE(waitFinished(finished, 60000).status, JobStatus::Interrupted);
  }
  // The run tool bar: icons from resources/, Pause and Cancel only while a job runs, and its
  // Pause button holds the run like the launcher's.
  void toolbar_controls_follow_the_run() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* bar = window.findChild<QToolBar*>("runToolBar");
    QVERIFY(bar);
    QList<QAction*> actions;
    for (QAction* a : bar->actions())
      if (!a->isSeparator()) actions << a;
    QVERIFY(actions.size() >= 3);
    QAction *start = actions[0], *pause = actions[1], *cancel = actions[2];
    for (QAction* a : {start, pause, cancel}) {
      QVERIFY2(!a->icon().isNull(), qPrintable(a->text()));
      QVERIFY(!a->icon().pixmap(24, 24).isNull());
      QVERIFY2(a->toolTip().contains(a->shortcut().toString(QKeySequence::NativeText)),
               qPrintable(a->toolTip()));
    }
    QVERIFY(start->isEnabled());
    QVERIFY(!pause->isEnabled());
    QVERIFY(!cancel->isEnabled());

    QVERIFY(window.openExperiment(gui_test::writeTinyExperiment(dir_, "toolbar", 3, 400)));
    QSignalSpy steps(&controller, &EngineController::steps);
    QSignalSpy finished(&controller, &EngineController::jobFinished);
    QTest::mouseClick(bar->widgetForAction(start), Qt::LeftButton);
    QVERIFY(steps.wait(60000));
    QVERIFY(pause->isEnabled());
    QVERIFY(cancel->isEnabled());
    QTest::mouseClick(bar->widgetForAction(pause), Qt::LeftButton);
    QVERIFY(controller.paused());
    QVERIFY(pause->isChecked());
    QTest::mouseClick(bar->widgetForAction(pause), Qt::LeftButton);
    QVERIFY(!controller.paused());
    QVERIFY(!pause->isChecked());
    QTest::mouseClick(bar->widgetForAction(cancel), Qt::LeftButton);
    QCOMPARE(waitFinished(finished, 60000).status, JobStatus::Interrupted);
    QTRY_VERIFY(!cancel->isEnabled());
    QVERIFY(!pause->isEnabled());
  }
};

ADALA_TEST_MAIN(TestGuiRun)
}  // namespace test_gui_run

#include "test_gui_run.moc"
