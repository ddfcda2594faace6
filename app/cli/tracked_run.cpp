#include "app/cli/tracked_run.h"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/cli/arg_parser.h"
#include "app/cli/progress_sink.h"
#include "app/cli/run_summary.h"
#include "engine/core/device.h"
#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#include "engine/store/run_store_sink.h"
#endif

namespace adala::cli {

namespace {

JobControl* g_control = nullptr;

extern "C" void on_interrupt(int) {
  if (g_control) g_control->request_cancel();
}

class ScopedInterruptHandler {
 public:
  explicit ScopedInterruptHandler(JobControl& control) {
    g_control = &control;
    previous_int_ = std::signal(SIGINT, on_interrupt);
    previous_term_ = std::signal(SIGTERM, on_interrupt);
  }
  ~ScopedInterruptHandler() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
    g_control = nullptr;
  }

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

class TeeSink : public EventSink {
 public:
  void add(EventSink* s) {
    if (s) sinks_.push_back(s);
  }
  void on_event(const Event& e) override {
    for (auto* s : sinks_) s->on_event(e);
  }

 private:
  std::vector<EventSink*> sinks_;
};

std::string write_summary(const ExperimentConfig& config, const PipelineResult& result) {
  const std::string path = result.run_dir + "/summary.md";
  std::ofstream(path) << run_summary_markdown(config, result);
  return path;
}

#ifdef ADALA_HAVE_STORE
// The run whose recorded config.json lives in run_dir, or -1.
int64_t find_run_by_folder(store::RunStore& db, const std::string& run_dir) {
  std::error_code ec;
  for (const auto& run : db.list_runs())
    for (const auto& a : db.artifacts(run.id))
      if (a.kind == "config" &&
          std::filesystem::equivalent(std::filesystem::path(a.path).parent_path(), run_dir, ec))
        return run.id;
  return -1;
}
#endif

}  // namespace

std::string resolve_run_dir(const std::string& db_path, const std::string& run) {
  if (std::filesystem::exists(run + "/config.json")) return run;
#ifdef ADALA_HAVE_STORE
  if (db_path != "none") {
    store::RunStore store(db_path.empty() ? store::RunStore::default_path() : db_path, store::OpenMode::ReadOnly);
    auto info = store.find_run(run);
    if (!info) throw UsageError("--resume " + run + ": no such run folder or run in " + store.path());
    for (const auto& a : store.artifacts(info->id))
      if (a.kind == "config") return std::filesystem::path(a.path).parent_path().string();
    throw UsageError("--resume " + run + ": the run has no recorded folder");
  }
#endif
  throw UsageError("--resume " + run + ": not a run folder (no config.json)");
}

TrackedRunResult run_tracked(ExperimentConfig config, PipelineOptions options,
                             const TrackedRunOptions& tracking) {
  TrackedRunResult out;
  JobControl control;
  ProgressBarSink progress;
  TeeSink tee;
  tee.add(&progress);
  tee.add(tracking.extra_sink);
  ScopedInterruptHandler interrupts(control);
  if (options.run_dir.empty()) options.run_dir = make_run_dir(config);

#ifdef ADALA_HAVE_STORE
  std::unique_ptr<store::RunStore> db;
  std::unique_ptr<store::RunStoreSink> db_sink;
  if (tracking.db_path != "none") {
    db = std::make_unique<store::RunStore>(tracking.db_path.empty() ? store::RunStore::default_path() : tracking.db_path);
    // Resuming a recorded run continues its row; anything else is a new run.
    out.run_id = find_run_by_folder(*db, options.run_dir);
    if (out.run_id < 0) {
      const std::string device = options.device.empty() ? config.device : options.device;
      out.run_id = db->create_run(config.name, config.source.dump(), resolve_device(device).str(),
                                  torch_version_string(), std::string(ADALA_VERSION) + " (" + ADALA_GIT_VERSION + ")");
    }
    for (const auto& tag : tracking.tags) db->add_tag(out.run_id, tag);
    db->set_run_status(out.run_id, "running");
    db_sink = std::make_unique<store::RunStoreSink>(*db, out.run_id);
    tee.add(db_sink.get());
    std::fprintf(stderr, "run %lld recorded in %s\n", (long long)out.run_id, db->path().c_str());
  }
#endif

  try {
    out.pipeline = run_pipeline(config, options, tee, control);
  } catch (const JobCancelled& e) {
    out.cancelled = true;
    out.pipeline.run_dir = options.run_dir;
#ifdef ADALA_HAVE_STORE
    if (db) db->set_run_status(out.run_id, "interrupted");
#endif
    std::fprintf(stderr, "\ninterrupted (%s); resume with: adala run --resume %s\n", e.what(),
                 options.run_dir.c_str());
    return out;
  } catch (...) {
#ifdef ADALA_HAVE_STORE
    if (db) db->set_run_status(out.run_id, "failed");
#endif
    throw;
  }
  out.summary_path = write_summary(config, out.pipeline);
#ifdef ADALA_HAVE_STORE
  if (db) {
    db->add_artifact(out.run_id, "report", out.summary_path);
    db->set_run_status(out.run_id, "done");
  }
#endif
  return out;
}

}  // namespace adala::cli
