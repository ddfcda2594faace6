#pragma once
// One run's life in the run database, the same for every front end (`adala run`, the
// workbench, `adala bench`): open the database (or none), create the run or continue the one
// recorded for its folder, give the pipeline its sink, and end the run as done, failed or
// interrupted, with any stage still running ending with it. No Qt, no torch types.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/store/run_status.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/pipeline.h"

namespace adala {

namespace store {
class RunStore;
class RunStoreSink;
}  // namespace store
class RunFolderLock;

// What a new run row records.
struct RunRecord {
  std::string name;
  std::string config_json = "{}";
  std::string device;
  std::string kind = "training";  // training | benchmark
  std::string folder;             // the run folder; a run already recorded for it continues
  std::vector<std::string> tags;
};

// A training run's record: the config's name and JSON, the resolved device (the options'
// device over the config's), the options' folder. Throws std::invalid_argument for a device
// this build cannot use.
RunRecord training_run_record(const ExperimentConfig& config, const PipelineOptions& options);

// The version string runs record: "<project version> (<git describe>)".
std::string project_version_string();

class RunSession {
 public:
  // The --db value that records nothing.
  static constexpr const char* kNoDatabase = "none";

  // database: a path, "" for the workspace database (RunStore::default_path()), or
  // kNoDatabase. Marks the run running. Throws StoreError when the database cannot be opened
  // or written. A build without the run database records nothing. A record with a folder
  // first takes the folder's lock (run_folder_lock.h): RunFolderBusy, before any database
  // row is touched, when another live session writes that folder.
  RunSession(const std::string& database, const RunRecord& record);
  // A session that was not finished ends its run as failed (an exception left the caller).
  ~RunSession();
  RunSession(const RunSession&) = delete;
  RunSession& operator=(const RunSession&) = delete;

  bool recording() const { return run_id_ >= 0; }
  int64_t run_id() const { return run_id_; }     // -1 when not recording
  bool continued() const { return continued_; }  // an existing run was picked up
  std::string database_path() const;             // "" when not recording
  // For what only some runs write (a benchmark's points); nullptr when not recording.
  store::RunStore* store() { return store_.get(); }

  // Every event of the run: to the database first (a row exists before anyone hears of it),
  // then to each added sink in order. Added sinks are not owned and must outlive the session.
  EventSink& sink() { return fan_out_; }
  void add_sink(EventSink& sink) { fan_out_.add(sink); }

  void add_artifact(const std::string& kind, const std::string& path);
  // Ends the run (done, failed or interrupted; the first call counts). Throws StoreError.
  void finish(store::RunStatus status);
  bool finished() const { return finished_; }

  // Runs the pipeline with this session's sink. Done: writes summary.md into the run folder,
  // records it, finishes done. JobCancelled finishes interrupted and any other exception
  // failed; both are rethrown (a database error while finishing then goes to the sink as an
  // error log, not over the exception).
  PipelineResult run_pipeline(const ExperimentConfig& config, const PipelineOptions& options,
                              JobControl& control);

 private:
  void finish_after_error(store::RunStatus status);

  std::unique_ptr<RunFolderLock> folder_lock_;  // released last
  std::unique_ptr<store::RunStore> store_;
  std::shared_ptr<store::RunStoreSink> store_sink_;
  FanOutSink fan_out_;
  int64_t run_id_ = -1;
  bool continued_ = false;
  bool finished_ = false;
};

}  // namespace adala
