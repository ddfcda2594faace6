#include "app/cli/run_progress.h"

#include <filesystem>

#include "engine/run/run_session.h"
#include "engine/train/run_preflight.h"
#include "engine/store/run_store.h"

namespace adala::cli {

namespace {

int64_t recorded_run_for_folder(const std::string& db_path, const std::string& run_dir) {
  if (db_path == RunSession::kNoDatabase) return -1;
  try {
    store::RunStore store(db_path.empty() ? store::RunStore::default_path() : db_path,
                          store::OpenMode::ReadOnly);
    if (auto run = store.find_run_by_folder(run_dir)) return run->id;
  } catch (const std::exception&) {
  }
  return -1;
}

}  // namespace

int with_progress_errors(ProgressEvents* events, const std::function<int()>& body) {
  if (!events) return body();
  try {
    return body();
  } catch (const std::exception& e) {  // UsageError too
    events->error(e.what());
    throw;
  }
}

std::unique_ptr<JsonlProgressSink> start_run_progress(ProgressEvents& events,
                                                      const ExperimentConfig& config,
                                                      PipelineOptions& options,
                                                      const std::string& db_path) {
  check_run_inputs(config, options);  // bad input leaves no folder behind
  if (options.run_dir.empty()) options.run_dir = make_run_dir(config);
  options.run_dir = std::filesystem::absolute(options.run_dir).lexically_normal().string();
  events.run(config.name, options.run_dir, options.parallel ? options.parallel->world_size() : 1);
  return std::make_unique<JsonlProgressSink>(events, db_path, options.run_dir,
                                             &recorded_run_for_folder);
}

}  // namespace adala::cli
