#include "engine/run/run_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include "engine/runtime/device.h"
#include "engine/runtime/build_info.h"
#include "engine/run/run_folder_lock.h"
#include "engine/run/run_summary.h"
#include "engine/train/data_parallel.h"
#include "engine/store/run_store.h"
#include "engine/store/run_store_sink.h"

namespace adala {

using store::RunStatus;

RunRecord training_run_record(const ExperimentConfig& config, const PipelineOptions& options) {
  RunRecord record;
  record.name = config.name;
  record.config_json = config.source.dump();
  record.device = resolve_device(options.device, config.device).str();
  record.folder = options.run_dir;
  return record;
}

std::string project_version_string() {
  return std::string(kProjectVersion) + " (" + kGitVersion + ")";
}

namespace {

// How long creating a run, and recording its end (its files are all written by then), wait
// for another process's write lock before giving up.
constexpr std::chrono::milliseconds kOpenPatience{60000};
constexpr std::chrono::minutes kFinishPatience{10};
constexpr std::chrono::milliseconds kMaxBusyWait{8000};

}  // namespace

RunSession::RunSession(const std::string& database, const RunRecord& record) {
  if (!record.folder.empty()) folder_lock_ = std::make_unique<RunFolderLock>(record.folder);
  if (database == kNoDatabase) return;
  store_ = std::make_unique<store::RunStore>(database.empty() ? store::RunStore::default_path()
                                                              : database);
  // Creating the run may wait for another writer's lock longer than one step's write may.
  store_->set_busy_timeout(kOpenPatience);
  if (!record.folder.empty()) {
    if (auto recorded = store_->find_run_by_folder(record.folder)) run_id_ = recorded->id;
  }
  continued_ = run_id_ >= 0;
  if (!continued_) {
    run_id_ =
        store_->create_run(record.name, record.config_json, record.device, torch_version_string(),
                           project_version_string(), record.kind, record.folder);
  }
  for (const auto& tag : record.tags) store_->add_tag(run_id_, tag);
  store_->set_run_status(run_id_, RunStatus::Running);
  store_->set_busy_timeout(store::RunStore::kDefaultBusyTimeout);
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
  if (store_sink_) store_sink_->on_event(ArtifactEvent{"", kind, path});
}

void RunSession::finish(RunStatus status) {
  if (finished_) return;
  if (store_) {
    const auto give_up = std::chrono::steady_clock::now() + kFinishPatience;
    if (!store_sink_->drain(kFinishPatience)) {
      throw store::StoreError(store::StoreErrorKind::Busy,
                              fmt::format("run database {} stayed locked by another writer for {} "
                                          "minutes; {} records of run {} were not written",
                                          store_->path(), kFinishPatience.count(),
                                          store_sink_->held_events(), run_id_));
    }
    // The store ends the stages still running with the run, in the same transaction.
    for (auto wait = std::chrono::milliseconds(250);; wait = std::min(2 * wait, kMaxBusyWait)) {
      try {
        store_->set_run_status(run_id_, status);
        break;
      } catch (const store::StoreError& e) {
        if (e.kind() != store::StoreErrorKind::Busy ||
            std::chrono::steady_clock::now() + wait > give_up) {
          throw;
        }
        std::this_thread::sleep_for(wait);
      }
    }
  }
  finished_ = true;
}

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
  } catch (const DataParallelError&) {
    // Another rank went away: resumable from the last checkpoint, like a cancelled run.
    finish_after_error(RunStatus::Interrupted);
    throw;
  } catch (...) {
    finish_after_error(RunStatus::Failed);
    throw;
  }
}

}  // namespace adala
