// Engine headers (no LibTorch among these) before Qt's.
#include "engine/runtime/device.h"
#include "engine/json/json.h"
#include "engine/model/vit_config.h"
#include "engine/train/cancellation.h"
#include "engine/train/data_paths.h"
#include "engine/train/config/experiment_config.h"
#include "engine/store/run_store.h"

#include "app/gui/engine_controller.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QMetaObject>
#include <QTimer>

#include "app/gui/engine_worker.h"
#include "app/gui/feature_worker.h"
#include "app/gui/inspection_worker.h"
#include "app/gui/job_source.h"
#include "app/gui/run_process.h"

namespace adala::gui {

using namespace adala::widgets;

void registerMetaTypes() {
  qRegisterMetaType<StepUpdate>();
  qRegisterMetaType<QVector<StepUpdate>>();
  qRegisterMetaType<StageUpdate>();
  qRegisterMetaType<EvalUpdate>();
  qRegisterMetaType<ArtifactUpdate>();
  qRegisterMetaType<LogLine>();
  qRegisterMetaType<JobState>();
  qRegisterMetaType<StartRequest>();
  qRegisterMetaType<ProbeRequest>();
  qRegisterMetaType<InspectorImage>();
  qRegisterMetaType<AttentionOverview>();
  qRegisterMetaType<AttentionRows>();
  qRegisterMetaType<FeatureRequest>();
  qRegisterMetaType<FeatureMaps>();
  qRegisterMetaType<ResolutionSweepData>();
}

EngineController::EngineController(const QString& dbPath, QObject* parent)
    : QObject(parent), dbPath_(dbPath) {
  registerMetaTypes();
  // The views read through read-only connections, which cannot migrate: a database from an
  // older version is upgraded once here (errors surface where the views read it).
  try {
    store::RunStore::upgrade_schema(dbPath_.toStdString());
  } catch (const std::exception&) {
  }
  engine_ = new EngineWorker(dbPath_);
  engine_->moveToThread(&engineThread_);
  connect(&engineThread_, &QThread::finished, engine_, &QObject::deleteLater);
  inspection_ = new InspectionWorker;
  inspection_->moveToThread(&inspectionThread_);
  connect(&inspectionThread_, &QThread::finished, inspection_, &QObject::deleteLater);
  features_ = new FeatureWorker(dbPath_);
  features_->moveToThread(&featureThread_);
  connect(&featureThread_, &QThread::finished, features_, &QObject::deleteLater);
  connect(features_, &FeatureWorker::mapsReady, this, &EngineController::featureMapsReady);
  connect(features_, &FeatureWorker::mapsFailed, this, &EngineController::featureMapsFailed);
  connect(features_, &FeatureWorker::sweepProgress, this, &EngineController::sweepProgress);
  connect(features_, &FeatureWorker::sweepReady, this, [this](const ResolutionSweepData& d) {
    sweepRunning_ = false;
    emit sweepReady(d);
  });
  connect(features_, &FeatureWorker::sweepFailed, this, [this](const QString& m) {
    sweepRunning_ = false;
    emit sweepFailed(m);
  });

  // Worker signals arrive queued (the workers live on other threads).
  follow(engine_);
  connect(inspection_, &InspectionWorker::progress, this, &EngineController::probeProgress);
  connect(inspection_, &InspectionWorker::ready, this, &EngineController::probeReady);
  connect(inspection_, &InspectionWorker::failed, this, &EngineController::probeFailed);
  connect(inspection_, &InspectionWorker::rowsReady, this, &EngineController::rowsReady);
  connect(inspection_, &InspectionWorker::overviewReady, this, &EngineController::overviewReady);

  process_ = new RunProcess(this);
  follow(process_);

  engineThread_.setObjectName(QStringLiteral("adala-engine"));
  inspectionThread_.setObjectName(QStringLiteral("adala-inspection"));
  engineThread_.start();
  inspectionThread_.start(QThread::LowPriority);
  featureThread_.setObjectName(QStringLiteral("adala-features"));
  featureThread_.start(QThread::LowPriority);
}

EngineController::~EngineController() {
  shutdown();
  inspection_->latestLoad = ~quint64(0);  // stops a forward pass at its next progress check
  features_->latestMaps = ~quint64(0);
  features_->cancelSweep = true;
  engineThread_.quit();
  inspectionThread_.quit();
  featureThread_.quit();
  engineThread_.wait();
  inspectionThread_.wait();
  featureThread_.wait();
}

bool EngineController::processRunning() const { return process_ && process_->running(); }

qint64 EngineController::submit(const StartRequest& request) {
  const qint64 id = ++nextJob_;
  if (request.processes > 1 || processRunning() || !waiting_.isEmpty()) {
    JobState state;
    state.jobId = id;
    state.status = JobStatus::Queued;
    state.runDir = request.resumeRunDir;
    state.processes = std::max(1, request.processes);
    waiting_.append({id, request});
    emit jobQueued(state);
    startWaiting();
    return id;
  }
  submitToEngine(id, request);
  return id;
}

void EngineController::startWaiting() {
  while (!waiting_.isEmpty() && !processRunning()) {
    const auto [id, request] = waiting_.front();
    if (request.processes > 1) {
      if (!jobs_.empty()) return;  // after the in-process jobs before it
      waiting_.removeFirst();
      QString error;
      if (process_->start(id, request, dbPath_, &error)) return;
      JobState state;
      state.jobId = id;
      state.status = JobStatus::Failed;
      state.message = error;
      state.processes = request.processes;
      emit log(LogLine{LogLine::Level::Error, error});
      emit jobFinished(state);
      continue;
    }
    waiting_.removeFirst();
    submitToEngine(id, request);
  }
  emitIdleWhenDone();
}

void EngineController::emitIdleWhenDone() {
  if (!busy()) emit idle();
}

void EngineController::submitToEngine(qint64 id, const StartRequest& request) {
  auto control = std::make_shared<JobControl>();
  jobs_[id] = control;
  JobState state;
  state.jobId = id;
  state.status = JobStatus::Queued;
  state.runDir = request.resumeRunDir;
  emit jobQueued(state);
  EngineWorker* worker = engine_;
  QMetaObject::invokeMethod(
      engine_, [worker, id, request, control] { worker->run(id, request, control); },
      Qt::QueuedConnection);
}

int EngineController::queuedJobs() const {
  return static_cast<int>(jobs_.size()) - (current_ != 0 && jobs_.count(current_) ? 1 : 0) +
         static_cast<int>(waiting_.size());
}

void EngineController::setPaused(bool paused) {
  if (paused_ == paused) return;
  if (paused && processRunning()) {
    emit log(LogLine{LogLine::Level::Warning,
                     tr("A run on several processes cannot be paused; cancel it instead (it "
                        "checkpoints) and resume it from the run list.")});
    return;
  }
  paused_ = paused;
  if (auto it = jobs_.find(current_); it != jobs_.end()) it->second->set_paused(paused);
  emit pausedChanged(paused);
}

bool EngineController::holding() const {
  const auto it = jobs_.find(current_);
  return it != jobs_.end() && it->second->holding();
}

void EngineController::cancelCurrent() {
  if (processRunning()) {
    process_->cancel();
    emit log(LogLine{LogLine::Level::Warning, tr("Cancelling after the current step…")});
    return;
  }
  if (auto it = jobs_.find(current_); it != jobs_.end()) {
    it->second->request_cancel();
    emit log(LogLine{LogLine::Level::Warning, tr("Cancelling after the current step…")});
  }
}

void EngineController::cancelAll() {
  const bool any = busy();
  const auto waiting = waiting_;
  waiting_.clear();
  for (const auto& [id, request] : waiting) {
    JobState state;
    state.jobId = id;
    state.status = JobStatus::Cancelled;
    state.message = tr("cancelled before it started");
    state.processes = request.processes;
    emit jobFinished(state);
  }
  for (auto& [id, control] : jobs_) control->request_cancel();
  if (processRunning()) process_->cancel();
  if (any) emit log(LogLine{LogLine::Level::Warning, tr("Cancelling every job…")});
  if (!waiting.isEmpty()) emitIdleWhenDone();
}

bool EngineController::shutdown(int timeoutMs) {
  cancelAll();
  if (!busy()) return true;
  // Let the worker finish its step, checkpoint and report; keep delivering its signals.
  QEventLoop loop;
  connect(this, &EngineController::idle, &loop, &QEventLoop::quit);
  QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
  if (busy()) loop.exec();
  return !busy();
}

void EngineController::follow(JobSource* source) {
  connect(source, &JobSource::jobStarted, this, &EngineController::onJobStarted);
  connect(source, &JobSource::jobFinished, this, &EngineController::onJobFinished);
  connect(source, &JobSource::steps, this, &EngineController::steps);
  connect(source, &JobSource::stageChanged, this, &EngineController::stageChanged);
  connect(source, &JobSource::evaluation, this, &EngineController::evaluation);
  connect(source, &JobSource::artifact, this, &EngineController::artifact);
  connect(source, &JobSource::log, this, &EngineController::log);
}

void EngineController::onJobStarted(const JobState& state) {
  current_ = state.jobId;
  // An in-process job starts held when the controller is paused; a run process cannot pause.
  if (auto it = jobs_.find(current_); it != jobs_.end()) it->second->set_paused(paused_);
  emit jobStarted(state);
}

void EngineController::onJobFinished(const JobState& state) {
  const bool inProcess = jobs_.erase(state.jobId) > 0;
  if (current_ == state.jobId) current_ = 0;
  if (inProcess && jobs_.empty() && paused_) {
    paused_ = false;
    emit pausedChanged(false);
  }
  emit jobFinished(state);
  // What waits behind a run process, or for the engine to be idle, starts now.
  if (jobs_.empty()) startWaiting();
}

void EngineController::requestProbe(const ProbeRequest& request) {
  const quint64 generation = ++probeGeneration_;
  inspection_->latestLoad = generation;
  InspectionWorker* worker = inspection_;
  QMetaObject::invokeMethod(
      inspection_, [worker, generation, request] { worker->load(generation, request); },
      Qt::QueuedConnection);
}

void EngineController::cancelProbe() {
  inspection_->latestLoad = ++probeGeneration_;
  emit probeFailed(tr("Cancelled."));
}

void EngineController::requestRows(quint64 requestId, int block, int head, int query) {
  inspection_->latestRows = requestId;
  InspectionWorker* worker = inspection_;
  QMetaObject::invokeMethod(
      inspection_,
      [worker, requestId, block, head, query] { worker->rows(requestId, block, head, query); },
      Qt::QueuedConnection);
}

void EngineController::requestOverview(quint64 requestId, int query, bool grid, bool rollout) {
  inspection_->latestOverview = requestId;
  InspectionWorker* worker = inspection_;
  QMetaObject::invokeMethod(
      inspection_,
      [worker, requestId, query, grid, rollout] {
        worker->overview(requestId, query, grid, rollout);
      },
      Qt::QueuedConnection);
}

void EngineController::requestFeatureMaps(const FeatureRequest& request) {
  const quint64 generation = ++featureGeneration_;
  features_->latestMaps = generation;
  FeatureWorker* worker = features_;
  QMetaObject::invokeMethod(
      features_, [worker, generation, request] { worker->maps(generation, request); },
      Qt::QueuedConnection);
}

void EngineController::requestResolutionSweep(qint64 runId, const QString& runDir,
                                              const QString& scales, int limit) {
  if (sweepRunning_) {
    emit sweepFailed(tr("A resolution sweep is already running."));
    return;
  }
  sweepRunning_ = true;
  FeatureWorker* worker = features_;
  QMetaObject::invokeMethod(
      features_,
      [worker, runId, runDir, scales, limit] { worker->sweep(runId, runDir, scales, limit); },
      Qt::QueuedConnection);
}

void EngineController::cancelResolutionSweep() { features_->cancelSweep = true; }

FieldProblem EngineController::validateConfig(const QByteArray& json, const QList<int>& stages,
                                              const QString& baseDir) {
  try {
    const ExperimentConfig c = parse_experiment_text(json.toStdString(), baseDir.toStdString());
    check_data_paths(c);  // a folder or list file that is not there, named by its field
    if (c.device.rfind("cuda", 0) == 0 && !cuda_available())
      return {QStringLiteral("device"),
              tr("no CUDA GPU here (this build's LibTorch is for CPUs, or no GPU is visible): "
                 "choose auto or cpu")};
    // What run_pipeline would refuse before training anything.
    if (!stages.contains(0) && c.teacher_weights.empty() && !stages.isEmpty())
      return {QStringLiteral("teacher.weights"),
              tr("no teacher: select stage 0 or give pretrained teacher weights")};
    return {};
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    const std::string prefix = e.field() + ": ";
    return {QString::fromStdString(e.field()),
            QString::fromStdString(what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what)};
  } catch (const std::exception& e) {
    return {QString(), tr("not valid JSON: %1").arg(QString::fromUtf8(e.what()))};
  }
}

QStringList EngineController::presetNames() {
  QStringList names;
  for (const auto& n : vit_preset_names()) names << QString::fromStdString(n);
  return names;
}

QHash<QString, int> EngineController::presetDepths() {
  QHash<QString, int> depths;
  for (const auto& n : vit_preset_names())
    depths.insert(QString::fromStdString(n), static_cast<int>(vit_preset(n).depth));
  return depths;
}

}  // namespace adala::gui
