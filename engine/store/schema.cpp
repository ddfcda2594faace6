#include "engine/store/schema.h"

#include "engine/store/sqlite_connection.h"

namespace adala::store {
namespace {

// Metric values may be NaN (a diverging loss); SQLite stores NaN as NULL, hence
// `value REAL` without NOT NULL, read back as NaN.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE runs (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  name            TEXT NOT NULL,
  config_json     TEXT NOT NULL DEFAULT '{}',
  status          TEXT NOT NULL DEFAULT 'queued'
                  CHECK (status IN ('queued', 'running', 'interrupted', 'failed', 'done')),
  device          TEXT NOT NULL DEFAULT '',
  torch_version   TEXT NOT NULL DEFAULT '',
  project_version TEXT NOT NULL DEFAULT '',
  created_at      TEXT NOT NULL,
  started_at      TEXT,
  ended_at        TEXT
);
CREATE TABLE stages (
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  stage       TEXT NOT NULL,
  idx         INTEGER NOT NULL,
  status      TEXT NOT NULL,
  total_steps INTEGER NOT NULL DEFAULT 0,
  last_step   INTEGER NOT NULL DEFAULT -1,
  started_at  TEXT NOT NULL,
  ended_at    TEXT,
  PRIMARY KEY (run_id, stage)
);
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  stage  TEXT NOT NULL,
  step   INTEGER NOT NULL,
  key    TEXT NOT NULL,
  block  INTEGER,
  value  REAL
);
CREATE UNIQUE INDEX metrics_by_step ON metrics (run_id, stage, step, key, ifnull(block, -1));
CREATE TABLE evaluations (
  run_id     INTEGER NOT NULL REFERENCES runs(id),
  stage      TEXT NOT NULL,
  key        TEXT NOT NULL,
  value      REAL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (run_id, stage, key)
);
CREATE TABLE artifacts (
  id         INTEGER PRIMARY KEY,
  run_id     INTEGER NOT NULL REFERENCES runs(id),
  kind       TEXT NOT NULL,
  path       TEXT NOT NULL,
  sha256     TEXT NOT NULL,
  bytes      INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (run_id, path)
);
)sql";

constexpr const char* kVersion2 = R"sql(
ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN writer TEXT;
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  tag    TEXT NOT NULL,
  PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
CREATE TABLE attention_snapshots (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  stage       TEXT NOT NULL,
  step        INTEGER NOT NULL,
  image       INTEGER NOT NULL,
  block       INTEGER NOT NULL,
  head        INTEGER NOT NULL,
  query       INTEGER NOT NULL,
  softmax_row BLOB NOT NULL,
  linear_row  BLOB NOT NULL
);
CREATE UNIQUE INDEX attention_snapshots_by_step
  ON attention_snapshots (run_id, stage, step, image, block, head, query);
)sql";

// Benchmark runs (`adala bench scaling|attention|peer`): runs.kind tells them from training
// runs; each measured point is one row. Values that were not measured are NULL (NaN).
constexpr const char* kVersion3 = R"sql(
ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'training'
  CHECK (kind IN ('training', 'benchmark'));
CREATE TABLE benchmark_points (
  run_id                INTEGER NOT NULL REFERENCES runs(id),
  idx                   INTEGER NOT NULL,
  benchmark             TEXT NOT NULL,
  preset                TEXT NOT NULL DEFAULT '',
  mode                  TEXT NOT NULL,
  resolution            INTEGER NOT NULL DEFAULT 0,
  tokens                INTEGER NOT NULL DEFAULT 0,
  batch                 INTEGER NOT NULL DEFAULT 1,
  gflops                REAL,
  gflops_attention_only REAL,
  gflops_measured       REAL,
  peak_mb               REAL,
  peak_alloc_mb         REAL,
  ms_per_img            REAL,
  imgs_per_s            REAL,
  ran                   INTEGER NOT NULL DEFAULT 1,
  note                  TEXT NOT NULL DEFAULT '',
  extra_json            TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (run_id, idx)
);
)sql";

// Each run records its folder (resume and the run browser look runs up by it). Runs recorded
// before keep theirs in the `config` artifact (<folder>/config.json): the folder is that
// path up to its last '/' (rtrim drops the trailing file name, every character of which is
// in the path with its slashes removed).
constexpr const char* kVersion4 = R"sql(
ALTER TABLE runs ADD COLUMN folder TEXT;
UPDATE runs SET folder = (
  SELECT CASE WHEN dir = '' THEN '/' ELSE dir END
  FROM (SELECT rtrim(rtrim(a.path, replace(a.path, '/', '')), '/') AS dir
        FROM artifacts a WHERE a.run_id = runs.id AND a.kind = 'config'
        ORDER BY a.id DESC LIMIT 1));
CREATE INDEX runs_by_folder ON runs (folder);
)sql";

// A stage's wall time (started_at to ended_at) includes pauses and the idle time between a
// cancel and the resume; compute_seconds sums the time each session actually trained. NULL for
// stages recorded before (or never ended).
constexpr const char* kVersion5 = R"sql(
ALTER TABLE stages ADD COLUMN compute_seconds REAL;
)sql";

struct Migration {
  int to_version;
  const char* sql;
};
constexpr Migration kMigrations[] = {
    {1, kVersion1}, {2, kVersion2}, {3, kVersion3}, {4, kVersion4}, {5, kVersion5}};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == kSchemaVersion,
              "one migration per schema version");

}  // namespace

std::vector<std::string> tables_of_version(int version) {
  std::vector<std::string> tables;
  if (version >= 1) tables = {"runs", "stages", "metrics", "evaluations", "artifacts"};
  if (version >= 2) {
    tables.push_back("tags");
    tables.push_back("attention_snapshots");
  }
  if (version >= 3) tables.push_back("benchmark_points");
  return tables;
}

void migrate(sqlite::Connection& connection, int from_version) {
  for (const Migration& migration : kMigrations) {
    if (migration.to_version <= from_version) continue;
    try {
      sqlite::Transaction transaction(connection);
      connection.exec(migration.sql);
      connection.exec("PRAGMA user_version = " + std::to_string(migration.to_version));
      transaction.commit();
    } catch (const StoreError& e) {
      throw StoreError(e.kind(), "migrating " + connection.path() + " from schema version " +
                                     std::to_string(migration.to_version - 1) + " to " +
                                     std::to_string(migration.to_version) +
                                     " failed, the file keeps version " +
                                     std::to_string(migration.to_version - 1) + ": " + e.what());
    }
  }
}

}  // namespace adala::store
