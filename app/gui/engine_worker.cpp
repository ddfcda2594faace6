// Engine headers first (LibTorch's headers must precede Qt's: Qt's `slots` macro breaks ATen's
// ivalue_inl.h).
#include "engine/json/json.h"
#include "engine/run/open_training_run.h"
#include "engine/run/run_session.h"
#include "engine/train/cancellation.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/pipeline.h"

#include "app/gui/engine_worker.h"

#include <cmath>
#include <filesystem>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include "app/gui/qt_event_sink.h"

namespace adala::gui {

namespace fs = std::filesystem;
using namespace adala::widgets;

namespace {

QString percent(double v) {
  return std::isnan(v) ? QStringLiteral("–") : QString::number(100.0 * v, 'f', 1) + "%";
}

// The experiment and options a request names: a run folder to resume (its recorded config and
// stages), or a document with its stages (its relative paths from request.configDir).
void readRequest(const StartRequest& request, ExperimentConfig& config, PipelineOptions& options) {
  if (!request.resumeRunDir.isEmpty()) {
    options.run_dir = fs::absolute(request.resumeRunDir.toStdString()).string();
    config = load_run_config(options.run_dir);
    options.stages = load_run_stages(options.run_dir);
  } else {
    config =
        parse_experiment_text(request.configJson.toStdString(), request.configDir.toStdString());
    options.stages.assign(request.stages.begin(), request.stages.end());
    if (options.stages.empty()) throw ConfigError("stages", "no stage selected");
    config.runs_dir = fs::absolute(config.runs_dir).string();
  }
  options.device = request.device.toStdString();
}

}  // namespace

void lowerCurrentThreadPriority(int niceness) {
#ifdef __linux__
  // Per-thread nice value; threads this one creates (LibTorch's OpenMP team) inherit it, so
  // the GUI thread always gets a core first and the window stays responsive during a run.
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  if (getpriority(PRIO_PROCESS, tid) < niceness) setpriority(PRIO_PROCESS, tid, niceness);
#else
  (void)niceness;
#endif
}

void EngineWorker::run(qint64 jobId, const StartRequest& request,
                       std::shared_ptr<JobControl> control) {
  lowerCurrentThreadPriority(10);
  JobState state;
  state.jobId = jobId;
  auto finish = [&](JobStatus status, const QString& message) {
    state.status = status;
    state.message = message;
    emit jobFinished(state);
  };
  auto fail = [&](const QString& message) {
    emit log(LogLine{LogLine::Level::Error, message});
    finish(JobStatus::Failed, message);
  };
  if (control->cancel_requested())
    return finish(JobStatus::Cancelled, tr("cancelled before it started"));

  ExperimentConfig config;
  PipelineOptions options;
  QtEventSink qtSink(this);  // outlives the session, which may report while it ends
  std::unique_ptr<RunSession> session;
  try {
    readRequest(request, config, options);
    RunTracking tracking{dbPath_.toStdString(), {}};
    for (const auto& tag : request.tags) tracking.tags.push_back(tag.toStdString());
    session = open_training_run(config, options, tracking);
  } catch (const RunRecordError& e) {
    state.name = QString::fromStdString(config.name);
    state.runDir = QString::fromStdString(options.run_dir);
    return fail(tr("run database %1: %2").arg(dbPath_, QString::fromUtf8(e.what())));
  } catch (const std::exception& e) {
    return fail(QString::fromUtf8(e.what()));
  }
  state.name = QString::fromStdString(config.name);
  state.runDir = QString::fromStdString(options.run_dir);

  session->add_sink(qtSink);
  state.runId = session->run_id();
  state.status = JobStatus::Running;
  emit jobStarted(state);

  try {
    const PipelineResult result = session->run_pipeline(config, options, *control);
    qtSink.flush();
    finish(JobStatus::Done, tr("teacher top-1 %1, student top-1 %2")
                                .arg(percent(result.teacher_top1), percent(result.student_top1)));
  } catch (const JobCancelled& e) {
    qtSink.flush();
    finish(JobStatus::Interrupted,
           tr("%1; resumable from its last checkpoint").arg(QString::fromUtf8(e.what())));
  } catch (const std::exception& e) {
    qtSink.flush();
    fail(QString::fromUtf8(e.what()));
  }
}

}  // namespace adala::gui
