#pragma once
// The GUI's handle on the engine. Two worker objects live on their own QThreads:
//   * the engine worker runs jobs (training runs) one after another, in submission order;
//     its events become Qt value types (widgets/runs/run_types.h) delivered by queued signals,
//     step metrics in batches of at most ~50 ms so a fast run cannot flood the GUI thread;
//     a run on several processes (RunProcess) reports through the same JobSource signals
//     (app/gui/job_source.h), which this controller follows the same way;
//   * the inspection worker answers attention-inspector requests (load a checkpoint + image,
//     then rows on demand), so inspecting stays interactive while a run trains.
// Pause / resume / cancel go straight to the job's JobControl (atomics), which the training
// loop polls once per step. No torch type crosses this header.
#include <QList>
#include <QHash>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QThread>

#include <memory>
#include <map>

#include "widgets/inspect/feature_view.h"
#include "widgets/runs/run_types.h"
#include "widgets/launch/stage_launcher.h"

namespace adala {
class JobControl;
}

namespace adala::gui {

class EngineWorker;
class FeatureWorker;
class InspectionWorker;
class JobSource;
class RunProcess;

class EngineController : public QObject {
  Q_OBJECT
 public:
  // dbPath: the run database every GUI run is recorded in (created on first use).
  explicit EngineController(const QString& dbPath, QObject* parent = nullptr);
  ~EngineController() override;  // cancels every job, waits for both threads

  QString databasePath() const { return dbPath_; }

  // Queues a run (or a resume); returns its job id. Jobs run one at a time, in order. A request
  // for more than one process runs as `adala run --nproc N` (RunProcess), reported through
  // the same signals; it cannot be paused.
  qint64 submit(const adala::widgets::StartRequest& request);
  bool busy() const { return !jobs_.empty() || processRunning() || !waiting_.isEmpty(); }
  // A multi-process run is running (pause is not available).
  bool processRunning() const;
  RunProcess* runProcess() const { return process_; }
  qint64 currentJob() const { return current_; }
  int queuedJobs() const;
  bool paused() const { return paused_; }
  void setPaused(bool paused);
  // The current job has reached the pause: it waits between two steps with none in flight.
  bool holding() const;
  void cancelCurrent();
  void cancelAll();
  // Cancels everything and blocks until the engine thread is idle (at most timeoutMs).
  bool shutdown(int timeoutMs = 60000);

  // Attention inspection: the newest request wins, older ones are dropped unanswered.
  void requestProbe(const adala::widgets::ProbeRequest& request);
  void cancelProbe();
  void requestRows(quint64 requestId, int block, int head, int query);
  void requestOverview(quint64 requestId, int query, bool grid, bool rollout);

  // The Features tab (its own thread): the newest map request wins; one sweep at a time.
  void requestFeatureMaps(const adala::widgets::FeatureRequest& request);
  void requestResolutionSweep(qint64 runId, const QString& runDir, const QString& scales,
                              int limit);
  void cancelResolutionSweep();
  bool sweepRunning() const { return sweepRunning_; }

  // The engine's own validation of an experiment document for these stages.
  static adala::widgets::FieldProblem validateConfig(const QByteArray& json,
                                                     const QList<int>& stages,
                                                     const QString& baseDir = QString());
  static QStringList presetNames();
  // Blocks per preset (model depth), for the launcher's attention plan field.
  static QHash<QString, int> presetDepths();

 signals:
  void jobQueued(const adala::widgets::JobState& state);
  void jobStarted(const adala::widgets::JobState& state);
  void jobFinished(const adala::widgets::JobState& state);
  void idle();
  void steps(const QVector<adala::widgets::StepUpdate>& steps);
  void stageChanged(const adala::widgets::StageUpdate& update);
  void evaluation(const adala::widgets::EvalUpdate& update);
  void artifact(const adala::widgets::ArtifactUpdate& update);
  void log(const adala::widgets::LogLine& line);
  void pausedChanged(bool paused);

  void probeProgress(double fraction);
  void probeReady(const adala::widgets::InspectorImage& image);
  void probeFailed(const QString& message);
  void rowsReady(const adala::widgets::AttentionRows& rows);
  void overviewReady(const adala::widgets::AttentionOverview& overview);

  void featureMapsReady(const adala::widgets::FeatureMaps& maps);
  void featureMapsFailed(const QString& message);
  void sweepProgress(double fraction);
  void sweepReady(const adala::widgets::ResolutionSweepData& sweep);
  void sweepFailed(const QString& message);

 private:
  // The one wiring of a job source (the engine worker, the run process) to this controller.
  void follow(JobSource* source);
  void onJobStarted(const adala::widgets::JobState& state);
  void onJobFinished(const adala::widgets::JobState& state);
  void submitToEngine(qint64 id, const adala::widgets::StartRequest& request);
  void startWaiting();  // what waits behind a multi-process run, or for one, when it can
  void emitIdleWhenDone();

  QString dbPath_;
  QThread engineThread_, inspectionThread_, featureThread_;
  EngineWorker* engine_ = nullptr;
  InspectionWorker* inspection_ = nullptr;
  FeatureWorker* features_ = nullptr;
  quint64 featureGeneration_ = 0;
  bool sweepRunning_ = false;
  std::map<qint64, std::shared_ptr<adala::JobControl>> jobs_;  // queued + running
  RunProcess* process_ = nullptr;
  // Jobs that wait for a multi-process run to end, or for the engine to be idle to start one.
  QList<QPair<qint64, adala::widgets::StartRequest>> waiting_;
  qint64 nextJob_ = 0;
  qint64 current_ = 0;
  bool paused_ = false;
  quint64 probeGeneration_ = 0;
};

// Registers the widgets' value types for queued signals (idempotent).
void registerMetaTypes();

}  // namespace adala::gui
