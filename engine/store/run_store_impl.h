#pragma once
// Private to engine/store: the state behind RunStore, shared by its .cpp files
// (run_store_open.cpp, run_store_write.cpp, run_store_read.cpp).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/store/artifact_hasher.h"
#include "engine/store/run_store.h"
#include "engine/store/sqlite_connection.h"

namespace adala::store {

// SQL for "now" in the stored time format.
constexpr const char* kSqlNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

struct PendingMetric {
  int64_t run;
  std::string stage;
  int64_t step;
  std::string key;
  int block;
  double value;
};

struct PendingSnapshot {
  int64_t run;
  AttentionSnapshot snapshot;
};

struct RunStore::Impl {
  Impl(const std::string& path, OpenMode mode);  // run_store_open.cpp

  std::string path;            // as given
  std::string canonical_path;  // identifies the file in the live-run registry
  bool read_only = false;
  std::unique_ptr<sqlite::Connection> db;
  std::vector<PendingMetric> pending_metrics;
  std::vector<PendingSnapshot> pending_snapshots;
  std::set<int64_t> runs_running_here;  // set `running` through this store
  std::chrono::milliseconds flush_interval{250};
  std::chrono::steady_clock::time_point oldest_pending;  // when the buffer became non-empty
  // Artifacts are recorded at once with sha256 '' and get their digest when the hasher is done;
  // only the latest job for a (run, path) may write it.
  ArtifactHasher hasher;
  std::map<std::pair<int64_t, std::string>, uint64_t> latest_artifact_job;

  void require_writable(const std::string& doing) const;
  void require_run(int64_t run);  // InvalidArgument if there is no such run
  // Writes and clears the buffers inside the caller's transaction. The buffers are taken
  // first: rows of a failed write are dropped, never written twice.
  void write_pending();
  // Writes the digests the hasher has finished, inside the caller's transaction.
  void write_artifact_digests();
  // Waits for every queued digest and writes them (own transaction).
  void finish_artifact_digests();
  // True if a `running` run's writer is gone (killed, or a store of this process that
  // was destroyed without ending it).
  bool writer_gone(int64_t run, const std::string& writer_token) const;
  void mark_abandoned_runs_interrupted();
  void interrupt_runs_running_here();  // destructor
  void mark_interrupted(const std::vector<int64_t>& runs);
};

// A run folder as the runs table holds it: absolute, normalised, no trailing separator.
inline std::string normal_folder_path(const std::filesystem::path& folder) {
  std::filesystem::path p = std::filesystem::absolute(folder).lexically_normal();
  if (!p.has_filename() && p != p.root_path()) p = p.parent_path();
  return p.string();
}

// The same with symbolic links resolved (as far as the path exists).
inline std::string resolved_folder_path(const std::filesystem::path& folder) {
  std::error_code ec;
  const std::filesystem::path resolved =
      std::filesystem::weakly_canonical(std::filesystem::absolute(folder), ec);
  return normal_folder_path(ec ? folder : resolved);
}

// Process-wide set of (database, run) that a live RunStore of this process is writing.
void register_live_run(const std::string& canonical_path, int64_t run);
void unregister_live_run(const std::string& canonical_path, int64_t run);
bool is_live_run(const std::string& canonical_path, int64_t run);

}  // namespace adala::store
