#include "app/cli/tracked_run.h"

#include <cstdio>
#include <filesystem>

#include "app/cli/arg_parser.h"
#include "app/cli/interrupt_handler.h"
#include "app/cli/progress_sink.h"
#include "engine/run/open_training_run.h"
#include "engine/run/run_session.h"
#include "engine/run/run_summary.h"
#include "engine/store/run_store.h"

namespace adala::cli {

std::string resolve_run_dir(const std::string& db_path, const std::string& run) {
  if (std::filesystem::exists(run + "/config.json")) return run;
  if (db_path != RunSession::kNoDatabase) {
    store::RunStore store(db_path.empty() ? store::RunStore::default_path() : db_path,
                          store::OpenMode::ReadOnly);
    auto info = store.find_run(run);
    if (!info)
      throw UsageError("--resume " + run + ": no such run folder or run in " + store.path());
    if (info->folder.empty())
      throw UsageError("--resume " + run + ": the run has no recorded folder");
    return info->folder;
  }
  throw UsageError("--resume " + run + ": not a run folder (no config.json)");
}

TrackedRunResult run_tracked(ExperimentConfig config, PipelineOptions options,
                             const TrackedRunOptions& tracking) {
  TrackedRunResult out;
  JobControl control;
  ScopedInterruptHandler interrupts(control);
  std::unique_ptr<RunSession> session =
      open_training_run(config, options, RunTracking{tracking.db_path, tracking.tags});
  if (!session) {
    // Data parallelism: rank 0 records and reports the run; this rank trains its share
    // quietly, in the run folder rank 0 creates (run_pipeline passes its path on).
    NullSink quiet;
    try {
      out.pipeline = run_pipeline(config, options, quiet, control);
    } catch (const JobCancelled&) {
      out.cancelled = true;
    }
    return out;
  }
  ProgressBarSink progress;
  session->add_sink(progress);
  if (tracking.extra_sink) session->add_sink(*tracking.extra_sink);
  out.run_id = session->run_id();
  if (session->recording())
    std::fprintf(stderr, "run %lld recorded in %s\n", (long long)out.run_id,
                 session->database_path().c_str());

  try {
    out.pipeline = session->run_pipeline(config, options, control);
  } catch (const JobCancelled& e) {
    out.cancelled = true;
    out.pipeline.run_dir = options.run_dir;
    std::fprintf(stderr, "\ninterrupted (%s); resume with: adala run --resume %s\n", e.what(),
                 options.run_dir.c_str());
    return out;
  }
  out.summary_path = run_summary_path(out.pipeline.run_dir);
  return out;
}

TrackedRunResult run_tracked_variant(const ExperimentConfig& config, const std::vector<int>& stages,
                                     const std::string& out_dir, const std::string& key,
                                     const std::string& device, TrackedRunOptions tracking,
                                     const std::string& tag, const std::string& what) {
  PipelineOptions options;
  options.stages = stages;
  options.run_dir = out_dir + "/" + key;
  options.device = device;
  tracking.tags.push_back(tag);
  TrackedRunResult result = run_tracked(config, options, tracking);
  if (result.cancelled)
    throw std::runtime_error(what + " interrupted in " + key + "; partial results in " + out_dir);
  return result;
}

}  // namespace adala::cli
