// The two job sources (app/gui/job_source.h) deliver the same job into the controller: the same
// experiment run by the engine worker in this process and by `adala run --nproc 1 --progress
// jsonl` as a child process (RunProcess) reaches EngineController as the same sequence of
// started, stage, step, evaluation, artifact, log, finished and idle signals; so does a job
// that fails before it is recorded.
#include <QtTest/QtTest>

#include <QFileInfo>

#include "app/gui/engine_controller.h"
#include "app/gui/run_process.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/test_suite.h"
#include "widgets/runs/run_types.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_job_source {

using adala::gui::EngineController;
using adala::widgets::ArtifactUpdate;
using adala::widgets::EvalUpdate;
using adala::widgets::JobState;
using adala::widgets::JobStatus;
using adala::widgets::LogLine;
using adala::widgets::StageUpdate;
using adala::widgets::StartRequest;
using adala::widgets::StepUpdate;

namespace {

// What the controller delivers of one job, in order. Step batches are cut differently by the
// two sources (by time in this process, by read in the child's), so consecutive steps of a
// stage are one entry, with their count beside it.
class Delivery : public QObject {
 public:
  explicit Delivery(EngineController& controller) {
    connect(&controller, &EngineController::jobStarted, this, [this](const JobState& s) {
      started = s;
      add(QStringLiteral("started %1").arg(jobStatusName(s.status)));
    });
    connect(&controller, &EngineController::stageChanged, this, [this](const StageUpdate& u) {
      add(QStringLiteral("stage %1 %2").arg(u.stage).arg(int(u.kind)));
    });
    connect(&controller, &EngineController::steps, this, [this](const QVector<StepUpdate>& b) {
      for (const StepUpdate& u : b) {
        const QString entry = QStringLiteral("steps %1").arg(u.stage);
        if (sequence.isEmpty() || sequence.last() != entry) add(entry);
        ++stepCount[u.stage];
        lastStep[u.stage] = u.step;
      }
    });
    connect(&controller, &EngineController::evaluation, this, [this](const EvalUpdate& e) {
      add(QStringLiteral("evaluation %1 %2").arg(e.stage, e.key));
    });
    connect(&controller, &EngineController::artifact, this, [this](const ArtifactUpdate& a) {
      add(QStringLiteral("artifact %1 %2 %3").arg(a.stage, a.kind, QFileInfo(a.path).fileName()));
    });
    connect(&controller, &EngineController::log, this,
            [this](const LogLine& l) { add(QStringLiteral("log %1").arg(int(l.level))); });
    connect(&controller, &EngineController::jobFinished, this, [this](const JobState& s) {
      finished = s;
      add(QStringLiteral("finished %1").arg(jobStatusName(s.status)));
    });
    connect(&controller, &EngineController::idle, this, [this] { add(QStringLiteral("idle")); });
  }

  bool over() const { return !sequence.isEmpty() && sequence.last() == QLatin1String("idle"); }

  QStringList sequence;
  QMap<QString, int> stepCount;
  QMap<QString, qint64> lastStep;
  JobState started, finished;

 private:
  void add(const QString& entry) { sequence << entry; }
};

// Waits until the controller has said idle after the job.
bool waitForIdle(EngineController& controller, Delivery& delivery) {
  QSignalSpy idle(&controller, &EngineController::idle);
  while (!delivery.over())
    if (!idle.wait(600000)) return false;
  return true;
}

}  // namespace

class TestGuiJobSource : public QObject {
  Q_OBJECT

  QString dir_;

  // Stages 0 and 1 of a tiny experiment, 3 steps each.
  StartRequest request(const QString& name) const {
    const QString path = gui_test::writeTinyExperiment(dir_, name, 3, 3);
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    StartRequest r;
    r.configJson = file.readAll();
    r.configDir = dir_;
    r.stages = {0, 1};
    return r;
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("job-source");
  }

  void both_sources_deliver_the_same_run() {
    EngineController controller(dir_ + "/runs.sqlite");
    QVERIFY(QFileInfo(controller.runProcess()->program()).isExecutable());

    Delivery inProcess(controller);
    controller.submit(request(QStringLiteral("same")));
    QVERIFY(waitForIdle(controller, inProcess));
    QObject::disconnect(&controller, nullptr, &inProcess, nullptr);

    Delivery child(controller);
    QString error;
    QVERIFY2(controller.runProcess()->start(1000, request(QStringLiteral("same")),
                                            controller.databasePath(), &error),
             qPrintable(error));
    QVERIFY(waitForIdle(controller, child));

    QCOMPARE(inProcess.finished.status, JobStatus::Done);
    QCOMPARE(child.sequence, inProcess.sequence);
    QCOMPARE(child.stepCount, inProcess.stepCount);
    QCOMPARE(child.lastStep, inProcess.lastStep);
    QCOMPARE(inProcess.stepCount.value(QStringLiteral("teacher")), 3);
    QVERIFY(inProcess.sequence.contains(QStringLiteral("started running")));

    // Each job is its own run of the same experiment, in the same runs folder.
    for (const Delivery* d : {&inProcess, &child}) {
      QVERIFY(d->started.runId > 0);
      QCOMPARE(d->finished.runId, d->started.runId);
      QCOMPARE(d->started.name, QString("same"));
      QCOMPARE(QFileInfo(d->started.runDir).absolutePath(), QDir(dir_ + "/runs").absolutePath());
    }
    QVERIFY(child.started.runId != inProcess.started.runId);
    QCOMPARE(child.finished.jobId, qint64(1000));
    QVERIFY(!controller.busy());
  }

  void both_sources_deliver_the_same_failure() {
    EngineController controller(dir_ + "/runs.sqlite");
    StartRequest missing;  // as the run list's Resume does, for a run folder that is gone
    missing.resumeRunDir = dir_ + "/no-such-run";

    Delivery inProcess(controller);
    controller.submit(missing);
    QVERIFY(waitForIdle(controller, inProcess));
    QObject::disconnect(&controller, nullptr, &inProcess, nullptr);

    Delivery child(controller);
    QVERIFY(controller.runProcess()->start(1000, missing, controller.databasePath()));
    QVERIFY(waitForIdle(controller, child));

    QCOMPARE(inProcess.sequence,
             (QStringList{QStringLiteral("log %1").arg(int(LogLine::Level::Error)),
                          QStringLiteral("finished failed"), QStringLiteral("idle")}));
    QCOMPARE(child.sequence, inProcess.sequence);
    QVERIFY(inProcess.finished.message.contains(missing.resumeRunDir));
    QVERIFY(child.finished.message.contains(missing.resumeRunDir));
  }
};

ADALA_TEST_MAIN(TestGuiJobSource)
}  // namespace test_gui_job_source

#include "test_gui_job_source.moc"
