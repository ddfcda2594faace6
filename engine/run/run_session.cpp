#include "engine/run/run_session.h"

#include <cstdio>
#include <exception>

#include "engine/core/device.h"
#include "engine/core/build_info.h"
#include "engine/run/run_folder_lock.h"
#include "engine/run/run_summary.h"
#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#include "engine/store/run_store_sink.h"
#endif

namespace adala {

using store::RunStatus;

RunRecord training_run_record(const ExperimentConfig& config, const PipelineOptions& options) {
  RunRecord record;
  record.name = config.name;
  record.config_json = config.source.dump();
  record.device = resolve_device(options.device.empty() ? config.device : options.device).str();
  record.folder = options.run_dir;
  return record;
}

std::string project_version_string() {
  return std::string(kProjectVersion) + " (" + kGitVersion + ")";
}

#ifdef ADALA_HAVE_STORE

RunSession::RunSession(const std::string& database, const RunRecord& record) {
  if (!record.folder.empty()) folder_lock_ = std::make_unique<RunFolderLock>(record.folder);
  if (database == kNoDatabase) return;
  store_ = std::make_unique<store::RunStore>(database.empty() ? store::RunStore::default_path()
                                                              : database);
  if (!record.folder.empty()) {
    if (auto recorded = store_->find_run_by_folder(record.folder)) run_id_ = recorded->id;
  }
  continued_ = run_id_ >= 0;
  if (!continued_) {
    run_id_ = store_->create_run(record.name, record.config_json, record.device,
                                 torch_version_string(), project_version_string(), record.kind);
    if (!record.folder.empty()) store_->set_run_folder(run_id_, record.folder);
  }
  for (const auto& tag : record.tags) store_->add_tag(run_id_, tag);
  store_->set_run_status(run_id_, RunStatus::Running);
  store_sink_ = std::make_shared<store::RunStoreSink>(*store_, run_id_);
  fan_out_.add(store_sink_);
}

RunSession::~RunSession() {
  if (!store_ || finished_) return;
  try {
    finish(RunStatus::Failed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "run %lld: could not mark it failed: %s\n",
                 static_cast<long long>(run_id_), e.what());
  }
}

std::string RunSession::database_path() const { return store_ ? store_->path() : std::string(); }

void RunSession::add_artifact(const std::string& kind, const std::string& path) {
  if (store_) store_->add_artifact(run_id_, kind, path);
}

void RunSession::finish(RunStatus status) {
  if (finished_) return;
  // The store ends the stages still running with the run, in the same transaction.
  if (store_) store_->set_run_status(run_id_, status);
  finished_ = true;
}

#else  // a build without the run database records nothing

RunSession::RunSession(const std::string&, const RunRecord& record) {
  if (!record.folder.empty()) folder_lock_ = std::make_unique<RunFolderLock>(record.folder);
}
RunSession::~RunSession() = default;
std::string RunSession::database_path() const { return {}; }
void RunSession::add_artifact(const std::string&, const std::string&) {}
void RunSession::finish(RunStatus) { finished_ = true; }

#endif

void RunSession::finish_after_error(RunStatus status) {
  try {
    finish(status);
  } catch (const std::exception& e) {
    fan_out_.on_event(LogEvent{LogEvent::Level::Error, std::string("run database: ") + e.what()});
  }
}

PipelineResult RunSession::run_pipeline(const ExperimentConfig& config,
                                        const PipelineOptions& options, JobControl& control) {
  try {
    PipelineResult result = adala::run_pipeline(config, options, fan_out_, control);
    add_artifact("report", write_run_summary(config, result));
    finish(RunStatus::Done);
    return result;
  } catch (const JobCancelled&) {
    finish_after_error(RunStatus::Interrupted);
    throw;
  } catch (...) {
    finish_after_error(RunStatus::Failed);
    throw;
  }
}

}  // namespace adala
