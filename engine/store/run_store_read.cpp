// Everything RunStore reads. Each query is its own read transaction, so a reader sees every
// transaction the writer committed before the query began.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "engine/store/run_store_impl.h"

namespace adala::store {
namespace {

constexpr const char* kRunColumns =
    "id, name, config_json, status, device, torch_version, project_version, created_at,"
    " started_at, ended_at, notes, writer, kind, folder";

// Stages in pipeline order, then metrics of stages that were never begun, by name.
constexpr const char* kStageOrder =
    "ifnull((SELECT idx FROM stages s WHERE s.run_id = m.run_id"
    " AND s.stage = m.stage), 2147483647), m.stage";

MetricRow metric_from(const sqlite::Statement& row) {
  MetricRow metric;
  metric.stage = row.text_at(0);
  metric.step = row.int64_at(1);
  metric.key = row.text_at(2);
  metric.block = row.null_at(3) ? -1 : static_cast<int>(row.int64_at(3));
  metric.value = row.double_at(4);
  return metric;
}

std::vector<MetricRow> collect_metrics(sqlite::Statement& query) {
  std::vector<MetricRow> rows;
  while (query.step()) rows.push_back(metric_from(query));
  query.reset();
  return rows;
}

bool all_digits(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

std::vector<RunInfo> RunStore::list_runs() {
  flush();  // a writer reads its own buffered rows
  std::map<int64_t, std::vector<std::string>> tags;
  {
    auto& query = impl_->db->cached("SELECT run_id, tag FROM tags ORDER BY run_id, tag");
    while (query.step()) tags[query.int64_at(0)].push_back(query.text_at(1));
    query.reset();
  }
  std::vector<RunInfo> runs;
  auto& query =
      impl_->db->cached(std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY id DESC");
  while (query.step()) {
    RunInfo run;
    run.id = query.int64_at(0);
    run.name = query.text_at(1);
    run.config_json = query.text_at(2);
    run.status = query.text_at(3);
    run.device = query.text_at(4);
    run.torch_version = query.text_at(5);
    run.project_version = query.text_at(6);
    run.created_at = query.text_at(7);
    run.started_at = query.text_at(8);
    run.ended_at = query.text_at(9);
    run.notes = query.text_at(10);
    run.kind = query.text_at(12);
    run.folder = query.text_at(13);
    if (run.status == run_status_name(RunStatus::Running) &&
        impl_->writer_gone(run.id, query.text_at(11))) {
      run.status = run_status_name(RunStatus::Interrupted);  // the next read-write open records it
    }
    if (auto it = tags.find(run.id); it != tags.end()) run.tags = it->second;
    runs.push_back(std::move(run));
  }
  query.reset();
  return runs;
}

std::optional<RunInfo> RunStore::find_run(int64_t id) {
  // Runs are few (hundreds); one listing keeps a single code path for status and tags.
  for (RunInfo& run : list_runs()) {
    if (run.id == id) return std::move(run);
  }
  return std::nullopt;
}

std::optional<RunInfo> RunStore::find_run(const std::string& id_or_name) {
  int64_t id = 0;
  const char* end = id_or_name.data() + id_or_name.size();
  // Digits past int64 are no id (from_chars says so instead of throwing like stoll).
  if (all_digits(id_or_name) && std::from_chars(id_or_name.data(), end, id).ec == std::errc()) {
    if (auto by_id = find_run(id)) return by_id;
  }
  std::vector<RunInfo> named;
  for (RunInfo& run : list_runs()) {
    if (run.name == id_or_name) named.push_back(std::move(run));
  }
  if (named.empty()) return std::nullopt;
  if (named.size() > 1) {
    std::string ids;
    for (const RunInfo& run : named) ids += (ids.empty() ? "" : ", ") + std::to_string(run.id);
    throw StoreError(StoreErrorKind::InvalidArgument,
                     std::to_string(named.size()) + " runs are named \"" + id_or_name + "\" (ids " +
                         ids + "); give the id instead");
  }
  return std::move(named.front());
}

std::optional<RunInfo> RunStore::find_run_by_folder(const std::string& folder) {
  if (folder.empty()) return std::nullopt;
  auto& query =
      impl_->db->cached("SELECT id FROM runs WHERE folder IN (?1, ?2) ORDER BY id DESC LIMIT 1");
  query.bind(1, normal_folder_path(folder)).bind(2, resolved_folder_path(folder));
  const bool found = query.step();
  const int64_t id = found ? query.int64_at(0) : -1;
  query.reset();
  return found ? find_run(id) : std::nullopt;
}

std::vector<StageInfo> RunStore::stages(int64_t run) {
  std::vector<StageInfo> result;
  auto& query = impl_->db->cached(
      "SELECT run_id, stage, idx, status, total_steps, last_step, started_at, ended_at,"
      " compute_seconds FROM stages WHERE run_id = ?1 ORDER BY idx, stage");
  query.bind(1, run);
  while (query.step()) {
    StageInfo stage;
    stage.run_id = query.int64_at(0);
    stage.stage = query.text_at(1);
    stage.index = static_cast<int>(query.int64_at(2));
    stage.status = query.text_at(3);
    stage.total_steps = query.int64_at(4);
    stage.last_step = query.int64_at(5);
    stage.started_at = query.text_at(6);
    stage.ended_at = query.text_at(7);
    stage.compute_seconds = query.double_at(8);
    result.push_back(std::move(stage));
  }
  query.reset();
  return result;
}

int64_t RunStore::last_metric_step(int64_t run, const std::string& stage) {
  flush();  // a writer reads its own buffered rows
  auto& query = impl_->db->cached(
      "SELECT ifnull(max(step), -1) FROM metrics WHERE run_id = ?1 AND stage = ?2");
  query.bind(1, run).bind(2, stage);
  query.step();
  const int64_t step = query.int64_at(0);
  query.reset();
  return step;
}

std::vector<MetricRow> RunStore::metrics(int64_t run, const std::string& stage,
                                         const std::string& key) {
  flush();  // a writer reads its own buffered rows
  std::string sql =
      "SELECT m.stage, m.step, m.key, m.block, m.value FROM metrics m WHERE m.run_id = ?1";
  if (!stage.empty()) sql += " AND m.stage = ?2";
  if (!key.empty()) sql += " AND m.key = ?3";
  sql += std::string(" ORDER BY ") + kStageOrder + ", m.step, m.key, ifnull(m.block, -1)";
  auto& query = impl_->db->cached(sql);
  query.bind(1, run);
  if (!stage.empty()) query.bind(2, stage);
  if (!key.empty()) query.bind(3, key);
  return collect_metrics(query);
}

std::vector<MetricRow> RunStore::metrics_after(int64_t run, const std::string& stage,
                                               int64_t after_step) {
  flush();  // a writer reads its own buffered rows
  auto& query = impl_->db->cached(
      "SELECT m.stage, m.step, m.key, m.block, m.value FROM metrics m"
      " WHERE m.run_id = ?1 AND m.stage = ?2 AND m.step > ?3"
      " ORDER BY m.step, m.key, ifnull(m.block, -1)");
  query.bind(1, run).bind(2, stage).bind(3, after_step);
  return collect_metrics(query);
}

std::vector<MetricRow> RunStore::final_metrics(int64_t run) {
  flush();  // a writer reads its own buffered rows
  // SQLite takes the bare columns of a max() aggregate from the row holding the maximum.
  auto& query = impl_->db->cached(
      std::string("SELECT m.stage, max(m.step), m.key, m.block, m.value FROM metrics m"
                  " WHERE m.run_id = ?1 GROUP BY m.stage, m.key, ifnull(m.block, -1)"
                  " ORDER BY ") +
      kStageOrder + ", m.key, ifnull(m.block, -1)");
  query.bind(1, run);
  return collect_metrics(query);
}

int64_t RunStore::metric_count(int64_t run) {
  flush();  // a writer reads its own buffered rows
  auto& query = impl_->db->cached("SELECT count(*) FROM metrics WHERE run_id = ?1");
  query.bind(1, run);
  query.step();
  const int64_t count = query.int64_at(0);
  query.reset();
  return count;
}

std::map<std::string, double> RunStore::evaluations(int64_t run) {
  std::map<std::string, double> result;
  auto& query = impl_->db->cached("SELECT stage, key, value FROM evaluations WHERE run_id = ?1");
  query.bind(1, run);
  while (query.step()) result[query.text_at(0) + "/" + query.text_at(1)] = query.double_at(2);
  query.reset();
  return result;
}

std::vector<ArtifactInfo> RunStore::artifacts(int64_t run) {
  if (!impl_->read_only) impl_->finish_artifact_digests();
  std::vector<ArtifactInfo> result;
  auto& query = impl_->db->cached(
      "SELECT id, run_id, kind, path, sha256, bytes, created_at FROM artifacts"
      " WHERE run_id = ?1 ORDER BY id");
  query.bind(1, run);
  while (query.step()) {
    ArtifactInfo artifact;
    artifact.id = query.int64_at(0);
    artifact.run_id = query.int64_at(1);
    artifact.kind = query.text_at(2);
    artifact.path = query.text_at(3);
    artifact.sha256 = query.text_at(4);
    artifact.bytes = query.int64_at(5);
    artifact.created_at = query.text_at(6);
    result.push_back(std::move(artifact));
  }
  query.reset();
  return result;
}

std::vector<AttentionSnapshot> RunStore::attention_snapshots(int64_t run, const std::string& stage,
                                                             int64_t step) {
  flush();  // a writer reads its own buffered rows
  std::string sql =
      "SELECT stage, step, image, block, head, query, softmax_row, linear_row"
      " FROM attention_snapshots WHERE run_id = ?1";
  if (!stage.empty()) sql += " AND stage = ?2";
  if (step >= 0) sql += " AND step = ?3";
  sql += " ORDER BY stage, step, image, block, head, query";
  auto& query = impl_->db->cached(sql);
  query.bind(1, run);
  if (!stage.empty()) query.bind(2, stage);
  if (step >= 0) query.bind(3, step);
  std::vector<AttentionSnapshot> result;
  while (query.step()) {
    AttentionSnapshot s;
    s.stage = query.text_at(0);
    s.step = query.int64_at(1);
    s.image = query.int64_at(2);
    s.block = static_cast<int>(query.int64_at(3));
    s.head = static_cast<int>(query.int64_at(4));
    s.query = query.int64_at(5);
    s.softmax_row = query.floats_at(6);
    s.linear_row = query.floats_at(7);
    result.push_back(std::move(s));
  }
  query.reset();
  return result;
}

}  // namespace adala::store
