// Engine headers first (LibTorch's headers must precede Qt's; see TOOLCHAIN.md).
#include "app/cli/run_summary.h"
#include "engine/core/device.h"
#include "engine/core/json.h"
#include "engine/train/cancellation.h"
#include "engine/train/experiment_config.h"
#include "engine/train/pipeline.h"
#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#include "engine/store/run_store_sink.h"
#endif

#include "app/gui/engine_worker.h"

#include <cmath>
#include <filesystem>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <fstream>
#include <optional>

#include "app/gui/qt_event_sink.h"

namespace adala::gui {

namespace fs = std::filesystem;
using namespace adala::widgets;

namespace {

// Forwards to several sinks (the database first, so a row exists before the GUI hears of it).
class TeeSink : public EventSink {
 public:
  void add(EventSink* s) { sinks_.push_back(s); }
  void on_event(const Event& e) override {
    for (auto* s : sinks_) s->on_event(e);
  }

 private:
  std::vector<EventSink*> sinks_;
};

#ifdef ADALA_HAVE_STORE
// The run whose recorded config.json lives in run_dir (the CLI's convention), or -1.
int64_t find_run_by_folder(store::RunStore& db, const std::string& run_dir) {
  std::error_code ec;
  for (const auto& run : db.list_runs())
    for (const auto& a : db.artifacts(run.id))
      if (a.kind == "config" && fs::equivalent(fs::path(a.path).parent_path(), run_dir, ec)) return run.id;
  return -1;
}
#endif

QString percent(double v) { return std::isnan(v) ? QStringLiteral("–") : QString::number(100.0 * v, 'f', 1) + "%"; }

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

void EngineWorker::run(qint64 jobId, const StartRequest& request, std::shared_ptr<JobControl> control) {
  lowerCurrentThreadPriority(10);
  JobState state;
  state.jobId = jobId;
  auto finish = [&](const QString& status, const QString& message) {
    state.status = status;
    state.message = message;
    emit jobFinished(state);
  };
  if (control->cancel_requested()) return finish(QStringLiteral("cancelled"), tr("cancelled before it started"));

  ExperimentConfig config;
  PipelineOptions options;
  try {
    if (!request.resumeRunDir.isEmpty()) {
      options.run_dir = fs::absolute(request.resumeRunDir.toStdString()).string();
      config = load_run_config(options.run_dir);
      options.stages = load_run_stages(options.run_dir);
    } else {
      config = parse_experiment_config(Json::parse(request.configJson.toStdString()));
      options.stages.assign(request.stages.begin(), request.stages.end());
      if (options.stages.empty()) throw ConfigError("stages", "no stage selected");
      config.runs_dir = fs::absolute(config.runs_dir).string();
      options.run_dir = make_run_dir(config);
    }
    options.device = request.device.toStdString();
  } catch (const std::exception& e) {
    emit log(LogLine{LogLine::Level::Error, QString::fromUtf8(e.what())});
    return finish(QStringLiteral("failed"), QString::fromUtf8(e.what()));
  }
  state.name = QString::fromStdString(config.name);
  state.runDir = QString::fromStdString(options.run_dir);

  TeeSink tee;
  QtEventSink qtSink(this);
#ifdef ADALA_HAVE_STORE
  std::optional<store::RunStore> db;
  std::optional<store::RunStoreSink> dbSink;
  try {
    db.emplace(dbPath_.toStdString(), store::OpenMode::ReadWrite);
    int64_t id = request.resumeRunDir.isEmpty() ? -1 : find_run_by_folder(*db, options.run_dir);
    if (id < 0) {
      const std::string device = options.device.empty() ? config.device : options.device;
      id = db->create_run(config.name, config.source.dump(), resolve_device(device).str(), torch_version_string(),
                          std::string(ADALA_VERSION) + " (" + ADALA_GIT_VERSION + ")");
    }
    for (const auto& tag : request.tags) db->add_tag(id, tag.toStdString());
    db->set_run_status(id, "running");
    state.runId = id;
    dbSink.emplace(*db, id);
    tee.add(&*dbSink);
  } catch (const std::exception& e) {
    const QString message = tr("run database %1: %2").arg(dbPath_, QString::fromUtf8(e.what()));
    emit log(LogLine{LogLine::Level::Error, message});
    return finish(QStringLiteral("failed"), message);
  }
#endif
  tee.add(&qtSink);
  state.status = QStringLiteral("running");
  emit jobStarted(state);

  auto mark = [&](const char* status) {
#ifdef ADALA_HAVE_STORE
    try {
      // A stage left running by an exception ends with the run.
      if (std::string(status) != "done")
        for (const auto& s : db->stages(state.runId))
          if (s.status == "running") db->end_stage(state.runId, s.stage, std::string(status) == "failed" ? "failed" : "interrupted");
      db->set_run_status(state.runId, status);
    } catch (const std::exception& e) {
      emit log(LogLine{LogLine::Level::Error, tr("run database: %1").arg(QString::fromUtf8(e.what()))});
    }
#else
    (void)status;
#endif
  };

  try {
    const PipelineResult result = run_pipeline(config, options, tee, *control);
    qtSink.flush();
    const std::string summary_path = result.run_dir + "/summary.md";
    std::ofstream(summary_path) << cli::run_summary_markdown(config, result);
#ifdef ADALA_HAVE_STORE
    db->add_artifact(state.runId, "report", summary_path);
#endif
    mark("done");
    finish(QStringLiteral("done"),
           tr("teacher top-1 %1, student top-1 %2").arg(percent(result.teacher_top1), percent(result.student_top1)));
  } catch (const JobCancelled& e) {
    qtSink.flush();
    mark("interrupted");
    finish(QStringLiteral("interrupted"), tr("%1; resumable from its last checkpoint").arg(QString::fromUtf8(e.what())));
  } catch (const std::exception& e) {
    qtSink.flush();
    emit log(LogLine{LogLine::Level::Error, QString::fromUtf8(e.what())});
    mark("failed");
    finish(QStringLiteral("failed"), QString::fromUtf8(e.what()));
  }
}

}  // namespace adala::gui
