// Everything RunStore writes. Each public call is one transaction, which also carries the
// buffered metrics and snapshots written before it.
#include <sqlite3.h>

#include <cerrno>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <utility>

#include "engine/store/process_identity.h"
#include "engine/store/run_store_impl.h"

namespace adala::store {
namespace fs = std::filesystem;
namespace {

std::string now_sql(const std::string& before, const std::string& after) {
  return before + kSqlNow + after;
}

}  // namespace

void RunStore::Impl::require_writable(const std::string& doing) const {
  if (read_only) {
    throw StoreError(StoreErrorKind::ReadOnly,
                     "run database " + path + " was opened read-only: cannot " + doing);
  }
}

void RunStore::Impl::require_run(int64_t run) {
  auto& exists = db->cached("SELECT 1 FROM runs WHERE id = ?1");
  exists.bind(1, run);
  const bool found = exists.step();
  exists.reset();
  if (!found) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "run database " + path + " has no run " + std::to_string(run));
  }
}

void RunStore::Impl::write_pending() {
  std::vector<PendingMetric> metrics = std::move(pending_metrics);
  std::vector<PendingSnapshot> snapshots = std::move(pending_snapshots);
  pending_metrics.clear();
  pending_snapshots.clear();

  std::map<std::pair<int64_t, std::string>, int64_t> last_step_of_stage;
  auto& insert_metric = db->cached(
      "INSERT INTO metrics (run_id, stage, step, key, block, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
      " ON CONFLICT (run_id, stage, step, key, ifnull(block, -1))"
      " DO UPDATE SET value = excluded.value");
  for (const PendingMetric& m : metrics) {
    insert_metric.bind(1, m.run).bind(2, m.stage).bind(3, m.step).bind(4, m.key).bind(6, m.value);
    if (m.block < 0) {
      insert_metric.bind_null(5);
    } else {
      insert_metric.bind(5, m.block);
    }
    insert_metric.run();
    auto [it, inserted] = last_step_of_stage.emplace(std::make_pair(m.run, m.stage), m.step);
    if (!inserted && m.step > it->second) it->second = m.step;
  }
  auto& advance_stage = db->cached(
      "UPDATE stages SET last_step = max(last_step, ?3) WHERE run_id = ?1 AND stage = ?2");
  for (const auto& [run_stage, step] : last_step_of_stage) {
    advance_stage.bind(1, run_stage.first).bind(2, run_stage.second).bind(3, step).run();
  }

  auto& insert_snapshot = db->cached(
      "INSERT INTO attention_snapshots"
      " (run_id, stage, step, image, block, head, query, softmax_row, linear_row)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
      " ON CONFLICT (run_id, stage, step, image, block, head, query)"
      " DO UPDATE SET softmax_row = excluded.softmax_row, linear_row = excluded.linear_row");
  for (const PendingSnapshot& p : snapshots) {
    const AttentionSnapshot& s = p.snapshot;
    insert_snapshot.bind(1, p.run).bind(2, s.stage).bind(3, s.step).bind(4, s.image);
    insert_snapshot.bind(5, s.block).bind(6, s.head).bind(7, s.query);
    insert_snapshot.bind_floats(8, s.softmax_row).bind_floats(9, s.linear_row).run();
  }
  write_artifact_digests();
}

void RunStore::Impl::write_artifact_digests() {
  for (const ArtifactHasher::Result& r : hasher.take_results()) {
    const auto key = std::make_pair(r.job.run, r.job.path);
    const auto latest = latest_artifact_job.find(key);
    if (latest == latest_artifact_job.end() || latest->second != r.job.ticket) continue;
    latest_artifact_job.erase(latest);
    if (!r.error.empty()) {
      std::cerr << "adala: artifact " << r.job.path << " keeps no sha256: " << r.error << "\n";
      continue;
    }
    db->cached("UPDATE artifacts SET sha256 = ?3, bytes = ?4 WHERE run_id = ?1 AND path = ?2")
        .bind(1, r.job.run)
        .bind(2, r.job.path)
        .bind(3, r.digest.sha256)
        .bind(4, r.digest.bytes)
        .run();
  }
}

void RunStore::Impl::finish_artifact_digests() {
  if (latest_artifact_job.empty()) return;
  hasher.wait_idle();
  sqlite::Transaction transaction(*db);
  write_pending();
  transaction.commit();
}

int64_t RunStore::create_run(const std::string& name, const std::string& config_json,
                             const std::string& device, const std::string& torch_version,
                             const std::string& project_version, const std::string& kind,
                             const std::string& folder) {
  impl_->require_writable("create a run");
  if (kind != "training" && kind != "benchmark") {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "unknown run kind \"" + kind + "\" (expected training or benchmark)");
  }
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->db
      ->cached(now_sql("INSERT INTO runs (name, config_json, status, device, torch_version,"
                       " project_version, kind, created_at)"
                       " VALUES (?1, ?2, 'queued', ?3, ?4, ?5, ?6, ",
                       ")"))
      .bind(1, name)
      .bind(2, config_json.empty() ? std::string("{}") : config_json)
      .bind(3, device)
      .bind(4, torch_version)
      .bind(5, project_version)
      .bind(6, kind)
      .run();
  const int64_t id = impl_->db->last_insert_rowid();
  if (!folder.empty()) {
    impl_->db->cached("UPDATE runs SET folder = ?2 WHERE id = ?1")
        .bind(1, id)
        .bind(2, resolved_folder_path(folder))
        .run();
  }
  transaction.commit();
  return id;
}

void RunStore::set_run_status(int64_t run, RunStatus status) {
  impl_->require_writable("set the status of run " + std::to_string(run));
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  auto& db = *impl_->db;
  if (status == RunStatus::Running) {
    db.cached(now_sql("UPDATE runs SET status = ?3, writer = ?2, ended_at = NULL,"
                      " started_at = ifnull(started_at, ",
                      ") WHERE id = ?1"))
        .bind(1, run)
        .bind(2, current_process_token())
        .bind(3, run_status_name(status))
        .run();
  } else if (status == RunStatus::Queued) {
    db.cached("UPDATE runs SET status = ?2, writer = NULL, ended_at = NULL WHERE id = ?1")
        .bind(1, run)
        .bind(2, run_status_name(status))
        .run();
  } else {
    db.cached(now_sql("UPDATE runs SET status = ?2, writer = NULL, ended_at = ", " WHERE id = ?1"))
        .bind(1, run)
        .bind(2, run_status_name(status))
        .run();
    // A run that ends takes its unfinished stages with it.
    db.cached(now_sql("UPDATE stages SET status = ?2, ended_at = ",
                      " WHERE run_id = ?1 AND status = ?3"))
        .bind(1, run)
        .bind(2, run_status_name(status))
        .bind(3, run_status_name(RunStatus::Running))
        .run();
  }
  transaction.commit();
  if (status == RunStatus::Running) {
    impl_->runs_running_here.insert(run);
    register_live_run(impl_->canonical_path, run);
  } else {
    impl_->runs_running_here.erase(run);
    unregister_live_run(impl_->canonical_path, run);
  }
}

void RunStore::set_run_folder(int64_t run, const std::string& folder) {
  impl_->require_writable("set the folder of run " + std::to_string(run));
  if (folder.empty())
    throw StoreError(StoreErrorKind::InvalidArgument, "a run folder cannot be empty");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  impl_->db->cached("UPDATE runs SET folder = ?2 WHERE id = ?1")
      .bind(1, run)
      .bind(2, resolved_folder_path(folder))
      .run();
  transaction.commit();
}

void RunStore::begin_stage(int64_t run, const std::string& stage, int index, int64_t total_steps) {
  impl_->require_writable("begin stage " + stage);
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  impl_->db
      ->cached(now_sql("INSERT INTO stages (run_id, stage, idx, status, total_steps, started_at)"
                       " VALUES (?1, ?2, ?3, 'running', ?4, ",
                       ") ON CONFLICT (run_id, stage) DO UPDATE SET idx = excluded.idx,"
                       " status = 'running', total_steps = excluded.total_steps, ended_at = NULL"))
      .bind(1, run)
      .bind(2, stage)
      .bind(3, index)
      .bind(4, total_steps)
      .run();
  transaction.commit();
}

void RunStore::end_stage(int64_t run, const std::string& stage, RunStatus status,
                         double compute_seconds) {
  impl_->require_writable("end stage " + stage);
  if (!is_final(status)) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     std::string("a stage ends as done, failed or interrupted, not \"") +
                         run_status_name(status) + "\"");
  }
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  auto& update = impl_->db->cached(
      now_sql("UPDATE stages SET status = ?3, compute_seconds = CASE WHEN ?4 IS NULL"
              " THEN compute_seconds ELSE ifnull(compute_seconds, 0) + ?4 END, ended_at = ",
              " WHERE run_id = ?1 AND stage = ?2"));
  update.bind(1, run).bind(2, stage).bind(3, run_status_name(status));
  if (compute_seconds >= 0.0 && std::isfinite(compute_seconds))
    update.bind(4, compute_seconds);
  else
    update.bind_null(4);
  update.run();
  if (impl_->db->changes() == 0) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "stage " + stage + " of run " + std::to_string(run) + " was never begun");
  }
  transaction.commit();
}

void RunStore::add_metric(int64_t run, const std::string& stage, int64_t step,
                          const std::string& key, int block, double value) {
  impl_->require_writable("add a metric");
  if (pending_rows() == 0) impl_->oldest_pending = std::chrono::steady_clock::now();
  impl_->pending_metrics.push_back({run, stage, step, key, block < 0 ? -1 : block, value});
  if (pending_rows() >= kAutoFlushRows) flush();
}

void RunStore::add_attention_snapshot(int64_t run, const std::string& stage, int64_t step,
                                      int64_t image, int block, int head, int64_t query,
                                      const std::vector<float>& softmax_row,
                                      const std::vector<float>& linear_row) {
  impl_->require_writable("add an attention snapshot");
  if (pending_rows() == 0) impl_->oldest_pending = std::chrono::steady_clock::now();
  impl_->pending_snapshots.push_back(
      {run, AttentionSnapshot{stage, step, image, block, head, query, softmax_row, linear_row}});
  if (pending_rows() >= kAutoFlushRows) flush();
}

size_t RunStore::pending_rows() const {
  return impl_->pending_metrics.size() + impl_->pending_snapshots.size();
}

void RunStore::flush() {
  if (pending_rows() == 0 && !impl_->hasher.has_results()) return;
  const size_t rows = pending_rows();
  // Copies, so that rows a busy database refused can be put back (nothing is added meanwhile).
  std::vector<PendingMetric> metrics = impl_->pending_metrics;
  std::vector<PendingSnapshot> snapshots = impl_->pending_snapshots;
  try {
    sqlite::Transaction transaction(*impl_->db);
    impl_->write_pending();
    transaction.commit();
  } catch (const StoreError& e) {
    if (e.kind() == StoreErrorKind::Busy) {
      impl_->pending_metrics = std::move(metrics);
      impl_->pending_snapshots = std::move(snapshots);
      throw StoreError(
          e.kind(), std::to_string(rows) + " buffered rows are kept for the next try: " + e.what());
    }
    throw StoreError(e.kind(), std::to_string(rows) + " buffered rows were dropped: " + e.what());
  }
}

void RunStore::set_busy_timeout(std::chrono::milliseconds timeout) {
  sqlite3_busy_timeout(impl_->db->handle(), static_cast<int>(timeout.count()));
}

bool RunStore::flush_if_due() {
  if (pending_rows() == 0) return false;
  if (std::chrono::steady_clock::now() - impl_->oldest_pending < impl_->flush_interval &&
      pending_rows() < kAutoFlushRows) {
    return false;
  }
  flush();
  return true;
}

void RunStore::set_flush_interval(std::chrono::milliseconds interval) {
  impl_->flush_interval = interval;
}

void RunStore::add_evaluation(int64_t run, const std::string& stage, const std::string& key,
                              double value) {
  impl_->require_writable("add an evaluation");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  impl_->db
      ->cached(now_sql("INSERT INTO evaluations (run_id, stage, key, value, created_at)"
                       " VALUES (?1, ?2, ?3, ?4, ",
                       ") ON CONFLICT (run_id, stage, key) DO UPDATE SET value = excluded.value,"
                       " created_at = excluded.created_at"))
      .bind(1, run)
      .bind(2, stage)
      .bind(3, key)
      .bind(4, value)
      .run();
  transaction.commit();
}

void RunStore::add_artifact(int64_t run, const std::string& kind, const std::string& path) {
  impl_->require_writable("add an artifact");
  const fs::path file = fs::absolute(path).lexically_normal();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "artifact " + path + " is not a regular file" +
                         (ec ? " (" + ec.message() + ")" : std::string()));
  }
  // Refused now if unreadable; hashed on the hasher's thread.
  if (std::FILE* readable = std::fopen(file.c_str(), "rb")) {
    std::fclose(readable);
  } else {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "cannot read " + file.string() + " for its sha256: " + std::strerror(errno));
  }
  const auto bytes = static_cast<int64_t>(fs::file_size(file));
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  impl_->db
      ->cached(now_sql("INSERT INTO artifacts (run_id, kind, path, sha256, bytes, created_at)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ",
                       ") ON CONFLICT (run_id, path) DO UPDATE SET kind = excluded.kind,"
                       " sha256 = excluded.sha256, bytes = excluded.bytes,"
                       " created_at = excluded.created_at"))
      .bind(1, run)
      .bind(2, kind)
      .bind(3, file.string())
      .bind(4, std::string())
      .bind(5, bytes)
      .run();
  transaction.commit();
  impl_->latest_artifact_job[{run, file.string()}] = impl_->hasher.submit(run, file.string());
}

void RunStore::delete_metrics_after(int64_t run, const std::string& stage, int64_t step) {
  impl_->require_writable("delete metrics");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  auto& db = *impl_->db;
  db.cached("DELETE FROM metrics WHERE run_id = ?1 AND stage = ?2 AND step > ?3")
      .bind(1, run)
      .bind(2, stage)
      .bind(3, step)
      .run();
  db.cached("DELETE FROM attention_snapshots WHERE run_id = ?1 AND stage = ?2 AND step > ?3")
      .bind(1, run)
      .bind(2, stage)
      .bind(3, step)
      .run();
  db.cached(
        "UPDATE stages SET last_step = (SELECT ifnull(max(step), -1) FROM metrics"
        " WHERE run_id = ?1 AND stage = ?2) WHERE run_id = ?1 AND stage = ?2")
      .bind(1, run)
      .bind(2, stage)
      .run();
  transaction.commit();
}

void RunStore::add_tag(int64_t run, const std::string& tag) {
  impl_->require_writable("tag a run");
  if (tag.empty()) throw StoreError(StoreErrorKind::InvalidArgument, "a tag cannot be empty");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  impl_->db->cached("INSERT OR IGNORE INTO tags (run_id, tag) VALUES (?1, ?2)")
      .bind(1, run)
      .bind(2, tag)
      .run();
  transaction.commit();
}

void RunStore::remove_tag(int64_t run, const std::string& tag) {
  impl_->require_writable("untag a run");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->db->cached("DELETE FROM tags WHERE run_id = ?1 AND tag = ?2")
      .bind(1, run)
      .bind(2, tag)
      .run();
  transaction.commit();
}

void RunStore::set_notes(int64_t run, const std::string& notes) {
  impl_->require_writable("set notes");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  impl_->db->cached("UPDATE runs SET notes = ?2 WHERE id = ?1").bind(1, run).bind(2, notes).run();
  transaction.commit();
}

void RunStore::rename_run(int64_t run, const std::string& name) {
  impl_->require_writable("rename run " + std::to_string(run));
  const auto refuse = [&](const std::string& why) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "cannot rename run " + std::to_string(run) + " to \"" + name + "\": " + why);
  };
  if (name.empty()) refuse("the name is empty");
  if (name.size() > 200) refuse("the name is longer than 200 bytes");
  if (name.find_first_not_of("0123456789") == std::string::npos)
    refuse("a name of digits only would read as a run id");
  if (name.find('/') != std::string::npos) refuse("the name contains '/'");
  for (const char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      refuse("the name contains a control character");
  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  impl_->require_run(run);
  impl_->db->cached("UPDATE runs SET name = ?2 WHERE id = ?1").bind(1, run).bind(2, name).run();
  transaction.commit();
}

std::vector<std::string> RunStore::delete_run(int64_t run) {
  impl_->require_writable("delete run " + std::to_string(run));
  const auto info = find_run(run);
  if (!info) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "run database " + impl_->path + " has no run " + std::to_string(run));
  }
  if (info->status == run_status_name(RunStatus::Running)) {
    throw StoreError(StoreErrorKind::InvalidArgument,
                     "run " + std::to_string(run) + " (" + info->name +
                         ") is still being written by a live process; stop it first");
  }
  std::vector<std::string> files;
  for (const ArtifactInfo& artifact : artifacts(run)) files.push_back(artifact.path);

  sqlite::Transaction transaction(*impl_->db);
  impl_->write_pending();
  for (const char* table : {"metrics", "attention_snapshots", "benchmark_points", "evaluations",
                            "artifacts", "tags", "stages"}) {
    impl_->db->cached(std::string("DELETE FROM ") + table + " WHERE run_id = ?1")
        .bind(1, run)
        .run();
  }
  impl_->db->cached("DELETE FROM runs WHERE id = ?1").bind(1, run).run();
  transaction.commit();

  std::vector<std::string> removed;
  for (const std::string& file : files) {
    auto& shared = impl_->db->cached("SELECT 1 FROM artifacts WHERE path = ?1 LIMIT 1");
    shared.bind(1, file);
    const bool still_used = shared.step();
    shared.reset();
    std::error_code ec;
    if (!still_used && fs::remove(file, ec)) removed.push_back(file);
  }
  return removed;
}

}  // namespace adala::store
