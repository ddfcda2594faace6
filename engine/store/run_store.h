#pragma once
// The run database: every run, stage, metric, evaluation, artifact and attention snapshot
// of the workbench in one SQLite file (sqlite3 C API; no Qt, no LibTorch).
//
// Concurrency: one writer (OpenMode::ReadWrite) and any number of readers
// (OpenMode::ReadOnly, e.g. the GUI) at the same time, in any processes; WAL mode, so
// readers never block the writer and see every committed transaction. A RunStore object is
// not thread-safe: use one per thread, and open a new one in a fork()ed child.
//
// Crash safety: metrics are buffered and written by flush() in one transaction; stage and
// status changes write the buffer and the change in one transaction. A process killed at
// any moment leaves a consistent file holding everything flushed before (WAL,
// synchronous=NORMAL: durable against process death; on power loss the last transactions
// may roll back, never half-applied). A run left `running` by a writer that no longer
// exists is marked `interrupted` (with its running stages) by the next read-write open;
// a run another live process is writing is left alone.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/run_status.h"
#include "engine/store/run_types.h"
#include "engine/store/store_error.h"

namespace adala::store {

enum class OpenMode { ReadWrite, ReadOnly };

class RunStore {
 public:
  // $XDG_DATA_HOME/adala/runs.sqlite, else ~/.local/share/adala/runs.sqlite.
  static std::string default_path();

  // ReadWrite: creates missing directories and the file, migrates to kSchemaVersion, WAL,
  // marks runs whose writer is gone as interrupted. ReadOnly: never creates or modifies
  // the file (SQLITE_OPEN_READONLY); needs an existing, current-schema database.
  // Throws StoreError, leaving the file untouched, for: a non-SQLite or damaged file, a
  // newer schema, a directory that cannot hold the file.
  explicit RunStore(const std::string& path, OpenMode mode = OpenMode::ReadWrite);
  ~RunStore();  // flushes buffered metrics (errors are printed, not thrown)
  RunStore(RunStore&&) noexcept;
  RunStore& operator=(RunStore&&) noexcept;
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  const std::string& path() const;
  bool read_only() const;
  int schema_version();
  std::string integrity_check();  // "ok", or SQLite's findings

  // Opens an existing file read-write once when its schema is older than kSchemaVersion, so
  // that read-only opens work afterwards. Returns whether it was upgraded; false for a
  // missing or current file. Throws StoreError as the constructor does.
  static bool upgrade_schema(const std::string& path);

  // --- writing (ReadWrite only; a ReadOnly store throws StoreErrorKind::ReadOnly) --------
  // A new run in status `queued`; returns its id (ids are never reused). kind: training |
  // benchmark. A folder is recorded in the same transaction (see set_run_folder), so a run is
  // never found without the folder it was created for.
  int64_t create_run(const std::string& name, const std::string& config_json,
                     const std::string& device, const std::string& torch_version,
                     const std::string& project_version, const std::string& kind = "training",
                     const std::string& folder = "");
  // `Running` records this process as the writer and sets started_at the first time; a final
  // status (done, failed, interrupted) sets ended_at and ends the stages still running with it.
  void set_run_status(int64_t run, RunStatus status);
  // The run's folder on disk (where its config.json, checkpoints and weights live); stored
  // absolute, symbolic links resolved.
  void set_run_folder(int64_t run, const std::string& folder);
  // Starts (or, on resume, restarts) a stage: status running, started_at kept if it exists.
  void begin_stage(int64_t run, const std::string& stage, int index, int64_t total_steps);
  // status: done | failed | interrupted (InvalidArgument otherwise). compute_seconds (>= 0):
  // the time this session trained, added to the stage's compute_seconds; < 0: not known.
  void end_stage(int64_t run, const std::string& stage, RunStatus status,
                 double compute_seconds = -1.0);

  // Buffered; flush() writes the buffer in ONE transaction (also done by the stage and
  // status calls and the destructor; automatically past kAutoFlushRows). A metric written
  // again at the same (run, stage, step, key, block) replaces the old value.
  void add_metric(int64_t run, const std::string& stage, int64_t step, const std::string& key,
                  int block, double value);
  void add_attention_snapshot(int64_t run, const std::string& stage, int64_t step, int64_t image,
                              int block, int head, int64_t query,
                              const std::vector<float>& softmax_row,
                              const std::vector<float>& linear_row);
  void flush();
  // For the training loop, once per step: flushes when the oldest buffered row has waited
  // flush_interval (default 250 ms). One commit costs ~0.1-0.2 ms, so committing every
  // step of a fast step is measurable; rows lost to a crash before they are flushed lie
  // past the last checkpoint, which resume drops anyway. Returns whether it flushed.
  bool flush_if_due();
  void set_flush_interval(std::chrono::milliseconds interval);  // 0: flush_if_due == flush
  // How long a write waits for another writer's lock before StoreErrorKind::Busy (default
  // kDefaultBusyTimeout). A flush() that fails with Busy keeps its rows buffered for the next
  // try; any other failure drops them.
  void set_busy_timeout(std::chrono::milliseconds timeout);
  static constexpr std::chrono::milliseconds kDefaultBusyTimeout{5000};
  size_t pending_rows() const;
  static constexpr size_t kAutoFlushRows = 8192;

  void add_evaluation(int64_t run, const std::string& stage, const std::string& key, double value);
  // Records a file on disk with its sha256 and size (path stored absolute; re-adding the
  // same path updates it). Throws InvalidArgument if the file is not a readable file. The
  // sha256 is computed on a worker thread (a checkpoint never stalls a training step): the row
  // reads sha256 '' until a later write, artifacts() or closing the store stores it.
  void add_artifact(int64_t run, const std::string& kind, const std::string& path);

  // Resume: drops the stage's metrics and snapshots with step > `step` (the last
  // checkpoint), so the resumed stage continues with no duplicates and no gaps.
  void delete_metrics_after(int64_t run, const std::string& stage, int64_t step);

  // Appends the points to a benchmark run (one transaction), numbered after those it has.
  // Throws InvalidArgument for a run that is not a benchmark run.
  void add_benchmark_points(int64_t run, const std::vector<BenchmarkPoint>& points);

  void add_tag(int64_t run, const std::string& tag);
  void remove_tag(int64_t run, const std::string& tag);
  void set_notes(int64_t run, const std::string& notes);
  // The run's display name (its folder keeps its name). InvalidArgument for an empty name, one
  // of digits only (it would read as a run id), with '/' or a control character, or over 200
  // bytes.
  void rename_run(int64_t run, const std::string& name);

  // Deletes the run's rows (one transaction), then its artifact files, except files another
  // run also records. Refuses a run that a live process is writing. Returns the files
  // removed from disk.
  std::vector<std::string> delete_run(int64_t run);

  // --- reading --------------------------------------------------------------------------
  // Newest first. A `running` run whose writer is gone reads as `interrupted` even through
  // a ReadOnly store.
  std::vector<RunInfo> list_runs();
  std::optional<RunInfo> find_run(int64_t id);
  // A decimal id, else a name; a name shared by several runs throws InvalidArgument
  // listing their ids.
  std::optional<RunInfo> find_run(const std::string& id_or_name);
  // The newest run recorded for that folder (compared absolute, as given and with symbolic
  // links resolved), or nullopt.
  std::optional<RunInfo> find_run_by_folder(const std::string& folder);
  std::vector<StageInfo> stages(int64_t run);                       // by stage index
  int64_t last_metric_step(int64_t run, const std::string& stage);  // -1 if none
  // Ordered by stage index, step, key, block; "" = any stage / key.
  std::vector<MetricRow> metrics(int64_t run, const std::string& stage = "",
                                 const std::string& key = "");
  // Rows with step > after_step, for a reader polling a live run.
  std::vector<MetricRow> metrics_after(int64_t run, const std::string& stage, int64_t after_step);
  // The value at the highest step of every (stage, key, block).
  std::vector<MetricRow> final_metrics(int64_t run);
  std::map<std::string, double> evaluations(int64_t run);  // "stage/key" -> value
  std::vector<ArtifactInfo> artifacts(int64_t run);
  std::vector<AttentionSnapshot> attention_snapshots(int64_t run, const std::string& stage = "",
                                                     int64_t step = -1);
  int64_t metric_count(int64_t run);
  std::vector<BenchmarkPoint> benchmark_points(int64_t run);  // in the order they were added

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace adala::store
