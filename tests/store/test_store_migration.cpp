// Schema migrations: from an empty file, from a hand-built version-1 database (the previous
// schema, as files in the wild have it), and a failing step leaves the file untouched.
#include <QtTest/QtTest>

#include <cmath>

#include "engine/store/run_store.h"
#include "engine/store/schema.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_store_migration {

using adala::store::OpenMode;
using adala::store::RunStore;
using adala::store::StoreError;
using store_test::RawDb;

namespace {

constexpr const char* kOldRunConfig = "{\"stage2\":{\"lr\":0.001}}";

// Schema version 1 written out by hand: what a database created before version 2 holds.
constexpr const char* kVersion1Fixture = R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
  config_json TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'running', 'interrupted', 'failed', 'done')),
  device TEXT NOT NULL DEFAULT '', torch_version TEXT NOT NULL DEFAULT '',
  project_version TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL,
  started_at TEXT, ended_at TEXT);
CREATE TABLE stages (
  run_id INTEGER NOT NULL REFERENCES runs(id), stage TEXT NOT NULL, idx INTEGER NOT NULL,
  status TEXT NOT NULL, total_steps INTEGER NOT NULL DEFAULT 0,
  last_step INTEGER NOT NULL DEFAULT -1, started_at TEXT NOT NULL, ended_at TEXT,
  PRIMARY KEY (run_id, stage));
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id), stage TEXT NOT NULL, step INTEGER NOT NULL,
  key TEXT NOT NULL, block INTEGER, value REAL);
CREATE UNIQUE INDEX metrics_by_step ON metrics (run_id, stage, step, key, ifnull(block, -1));
CREATE TABLE evaluations (
  run_id INTEGER NOT NULL REFERENCES runs(id), stage TEXT NOT NULL, key TEXT NOT NULL,
  value REAL, created_at TEXT NOT NULL, PRIMARY KEY (run_id, stage, key));
CREATE TABLE artifacts (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), kind TEXT NOT NULL,
  path TEXT NOT NULL, sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, created_at TEXT NOT NULL,
  UNIQUE (run_id, path));
INSERT INTO runs (name, config_json, status, device, torch_version, project_version, created_at,
                  started_at)
  VALUES ('old-run', '{"stage2":{"lr":0.001}}', 'running', 'cuda:0', '2.1.0', '0.0.9',
          '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:01.000Z');
INSERT INTO runs (name, status, created_at, ended_at)
  VALUES ('finished', 'done', '2024-01-02T00:00:00.000Z', '2024-01-02T01:00:00.000Z');
INSERT INTO stages VALUES (1, 'stage1', 1, 'done', 10, 9, '2024-01-01T00:00:02.000Z', NULL);
INSERT INTO stages VALUES (1, 'stage2', 2, 'running', 100, 4, '2024-01-01T00:01:00.000Z', NULL);
INSERT INTO metrics VALUES (1, 'stage1', 9, 'loss', NULL, 0.5);
INSERT INTO metrics VALUES (1, 'stage2', 3, 'loss', NULL, 0.25);
INSERT INTO metrics VALUES (1, 'stage2', 4, 'loss', NULL, 0.125);
INSERT INTO metrics VALUES (1, 'stage2', 4, 'attn_mse', 0, 0.01);
INSERT INTO metrics VALUES (1, 'stage2', 4, 'attn_mse', 11, 0.02);
INSERT INTO evaluations VALUES (1, 'stage1', 'top1', 0.75, '2024-01-01T00:00:30.000Z');
INSERT INTO artifacts (run_id, kind, path, sha256, bytes, created_at)
  VALUES (1, 'checkpoint', '/tmp/old.ckpt', 'ab', 2, '2024-01-01T00:00:31.000Z');
PRAGMA user_version = 1;
)sql";

// What version 2 added, by hand: a database created by a version-2 build holds this on top
// of version 1 (with a tag, a note and a snapshot of its own).
constexpr const char* kVersion2Additions = R"sql(
ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN writer TEXT;
CREATE TABLE tags (run_id INTEGER NOT NULL REFERENCES runs(id), tag TEXT NOT NULL,
                   PRIMARY KEY (run_id, tag)) WITHOUT ROWID;
CREATE TABLE attention_snapshots (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), stage TEXT NOT NULL,
  step INTEGER NOT NULL, image INTEGER NOT NULL, block INTEGER NOT NULL, head INTEGER NOT NULL,
  query INTEGER NOT NULL, softmax_row BLOB NOT NULL, linear_row BLOB NOT NULL);
CREATE UNIQUE INDEX attention_snapshots_by_step
  ON attention_snapshots (run_id, stage, step, image, block, head, query);
UPDATE runs SET notes = 'v2 note', status = 'done', ended_at = '2024-01-01T02:00:00.000Z'
  WHERE id = 1;
UPDATE stages SET status = 'done' WHERE run_id = 1;
INSERT INTO tags VALUES (2, 'kept');
INSERT INTO attention_snapshots (run_id, stage, step, image, block, head, query, softmax_row,
                                 linear_row)
  VALUES (1, 'stage2', 4, 0, 0, 0, 0, x'0000003f0000003f', x'cdcccc3e9a99193f');
PRAGMA user_version = 2;
)sql";

// What version 3 added, by hand, with the run folders only the `config` artifacts know:
// run 2 ran in /data/runs/finished-1 (config.json and weights there), run 3 in the root
// folder, run 4 is a benchmark (no folder), run 1 recorded no config.
constexpr const char* kVersion3Additions = R"sql(
ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'training'
  CHECK (kind IN ('training', 'benchmark'));
CREATE TABLE benchmark_points (
  run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, benchmark TEXT NOT NULL,
  preset TEXT NOT NULL DEFAULT '', mode TEXT NOT NULL, resolution INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0, batch INTEGER NOT NULL DEFAULT 1, gflops REAL,
  gflops_attention_only REAL, gflops_measured REAL, peak_mb REAL, peak_alloc_mb REAL,
  ms_per_img REAL, imgs_per_s REAL, ran INTEGER NOT NULL DEFAULT 1,
  note TEXT NOT NULL DEFAULT '', extra_json TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (run_id, idx));
INSERT INTO runs (name, status, created_at) VALUES ('root-run', 'done', '2024-01-03T00:00:00.000Z');
INSERT INTO runs (name, status, created_at, kind)
  VALUES ('bench', 'done', '2024-01-04T00:00:00.000Z', 'benchmark');
INSERT INTO artifacts (run_id, kind, path, sha256, bytes, created_at) VALUES
  (2, 'weights', '/data/runs/finished-1/teacher.safetensors', 'cd', 4, '2024-01-02T00:30:00.000Z'),
  (2, 'config', '/data/runs/finished-1/config.json', 'ef', 8, '2024-01-02T00:00:01.000Z'),
  (3, 'config', '/config.json', '01', 2, '2024-01-03T00:00:01.000Z'),
  (4, 'scaling_csv', '/data/bench/scaling.csv', '23', 9, '2024-01-04T00:00:01.000Z');
PRAGMA user_version = 3;
)sql";

void write_version1_database(const std::string& path, const std::string& extra_sql = "") {
  RawDb raw(path);
  raw.exec(kVersion1Fixture);
  if (!extra_sql.empty()) raw.exec(extra_sql);
}

void write_version2_database(const std::string& path) {
  write_version1_database(path);
  RawDb raw(path);
  raw.exec(kVersion2Additions);
}

void write_version3_database(const std::string& path) {
  write_version2_database(path);
  RawDb raw(path);
  raw.exec(kVersion3Additions);
}

bool has_table(RawDb& raw, const std::string& table) {
  return raw.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" +
                     table + "'") == 1;
}

}  // namespace

class TestStoreMigration : public QObject {
  Q_OBJECT
 private slots:
  void empty_file_gets_the_whole_schema() {
    const std::string dir = store_test::fresh_dir("migrate-empty");
    const std::string path = dir + "/runs.sqlite";
    store_test::write_bytes(path, "");  // a 0-byte file is an empty SQLite database
    {
      RunStore store(path);
      QCOMPARE(store.schema_version(), adala::store::kSchemaVersion);
      QVERIFY(store.list_runs().empty());
    }
    RawDb raw(path);
    QCOMPARE(raw.integer("PRAGMA user_version"), (long long)adala::store::kSchemaVersion);
    for (const auto& table : adala::store::tables_of_version(adala::store::kSchemaVersion)) {
      QVERIFY2(has_table(raw, table), table.c_str());
    }
    QCOMPARE(raw.scalar("PRAGMA journal_mode"), std::string("wal"));
  }

  void missing_file_and_directories_are_created() {
    const std::string dir = store_test::fresh_dir("migrate-create");
    const std::string path = dir + "/a/b/c/runs.sqlite";
    {
      RunStore store(path);
      QCOMPARE(store.schema_version(), adala::store::kSchemaVersion);
    }
    QVERIFY(store_test::fs::exists(path));
    // Reopening an up-to-date file migrates nothing and keeps what was written.
    int64_t id = 0;
    {
      RunStore store(path);
      id = store.create_run("r", "{}", "cpu", "", "");
    }
    RunStore again(path);
    QCOMPARE(again.schema_version(), adala::store::kSchemaVersion);
    QVERIFY(again.find_run(id).has_value());
  }

  // (Not "..._data": QtTest takes a slot named *_data for a data function and never runs it.)
  void version1_is_upgraded_keeping_its_rows() {
    const std::string dir = store_test::fresh_dir("migrate-v1");
    const std::string path = dir + "/runs.sqlite";
    write_version1_database(path);
    {
      RawDb raw(path);
      QCOMPARE(raw.integer("PRAGMA user_version"), 1LL);
      QVERIFY(!has_table(raw, "tags"));
    }

    RunStore store(path);
    QCOMPARE(store.schema_version(), adala::store::kSchemaVersion);
    const auto runs = store.list_runs();
    QCOMPARE(runs.size(), size_t(2));
    const auto old_run = store.find_run("old-run");
    QVERIFY(old_run.has_value());
    QCOMPARE(old_run->id, int64_t(1));
    QCOMPARE(old_run->config_json, std::string(kOldRunConfig));
    QCOMPARE(old_run->device, std::string("cuda:0"));
    QCOMPARE(old_run->started_at, std::string("2024-01-01T00:00:01.000Z"));
    // Left `running` by a version-1 writer, which recorded no writer token: interrupted.
    QCOMPARE(old_run->status, std::string("interrupted"));
    QVERIFY(!old_run->ended_at.empty());
    QCOMPARE(store.find_run("finished")->status, std::string("done"));

    const auto stages = store.stages(1);
    QCOMPARE(stages.size(), size_t(2));
    QCOMPARE(stages[0].status, std::string("done"));
    QCOMPARE(stages[1].status, std::string("interrupted"));
    QCOMPARE(stages[1].last_step, int64_t(4));
    // Version 5: old stages have no recorded training time (NaN, not 0).
    QVERIFY(std::isnan(stages[0].compute_seconds) && std::isnan(stages[1].compute_seconds));

    const auto metrics = store.metrics(1);
    QCOMPARE(metrics.size(), size_t(5));
    QCOMPARE(metrics[0].stage, std::string("stage1"));
    QCOMPARE(metrics[0].block, -1);  // NULL block
    QCOMPARE(store.metrics(1, "stage2", "attn_mse").back().block, 11);
    QCOMPARE(store.last_metric_step(1, "stage2"), int64_t(4));
    // The version-1 file's REAL 0.75, exactly representable, read back.
    ADALA_COMPARE_EXACT(store.evaluations(1).at("stage1/top1"), 0.75);
    QCOMPARE(store.artifacts(1).at(0).path, std::string("/tmp/old.ckpt"));

    // Version-2 features work on the upgraded file.
    store.add_tag(1, "baseline");
    store.set_notes(1, "from v1");
    store.add_attention_snapshot(1, "stage2", 4, 0, 0, 0, 0, {0.5f, 0.5f}, {0.4f, 0.6f});
    store.flush();
    QCOMPARE(store.find_run(1)->tags, std::vector<std::string>{"baseline"});
    QCOMPARE(store.find_run(1)->notes, std::string("from v1"));
    QCOMPARE(store.attention_snapshots(1).size(), size_t(1));

    RawDb raw(path);
    QCOMPARE(raw.integer("PRAGMA user_version"), (long long)adala::store::kSchemaVersion);
    QVERIFY(has_table(raw, "attention_snapshots"));
    QCOMPARE(raw.scalar("SELECT status FROM runs WHERE id = 1"), std::string("interrupted"));
    QCOMPARE(raw.scalar("PRAGMA journal_mode"), std::string("wal"));
  }

  // Version 2 -> 3 adds runs.kind (old runs are training runs) and benchmark_points; every
  // version-2 row stays, and a benchmark run can be written next to the old ones.
  void version2_is_upgraded_keeping_its_rows() {
    const std::string dir = store_test::fresh_dir("migrate-v2");
    const std::string path = dir + "/runs.sqlite";
    write_version2_database(path);
    {
      RawDb raw(path);
      QCOMPARE(raw.integer("PRAGMA user_version"), 2LL);
      QVERIFY(!has_table(raw, "benchmark_points"));
    }
    {
      RunStore store(path);
      QCOMPARE(store.schema_version(), adala::store::kSchemaVersion);
      const auto runs = store.list_runs();
      QCOMPARE(runs.size(), size_t(2));
      for (const auto& run : runs) QCOMPARE(run.kind, std::string("training"));
      const auto old_run = store.find_run("old-run");
      QVERIFY(old_run.has_value());
      QCOMPARE(old_run->status, std::string("done"));
      QCOMPARE(old_run->notes, std::string("v2 note"));
      QCOMPARE(old_run->config_json, std::string(kOldRunConfig));
      QCOMPARE(store.find_run("finished")->tags, std::vector<std::string>{"kept"});
      QCOMPARE(store.metrics(1).size(), size_t(5));
      const auto snapshots = store.attention_snapshots(1);
      QCOMPARE(snapshots.size(), size_t(1));
      // The version-2 BLOBs hold exactly these float32 bit patterns (x'0000003f...').
      ADALA_COMPARE_EXACT(snapshots[0].softmax_row, (std::vector<float>{0.5f, 0.5f}));
      ADALA_COMPARE_EXACT(snapshots[0].linear_row, (std::vector<float>{0.4f, 0.6f}));
      QVERIFY(store.benchmark_points(1).empty());

      const int64_t bench = store.create_run("bench", "{}", "cpu", "", "", "benchmark");
      adala::store::BenchmarkPoint point;
      point.benchmark = "scaling";
      point.mode = "linear";
      point.resolution = 224;
      point.ms_per_img = 12.5;
      store.add_benchmark_points(bench, {point});
      QCOMPARE(store.find_run(bench)->kind, std::string("benchmark"));
      ADALA_COMPARE_EXACT(store.benchmark_points(bench).at(0).ms_per_img, 12.5);  // read back
    }
    RawDb raw(path);
    QCOMPARE(raw.integer("PRAGMA user_version"), (long long)adala::store::kSchemaVersion);
    QVERIFY(has_table(raw, "benchmark_points"));
    QCOMPARE(raw.scalar("SELECT kind FROM runs WHERE id = 1"), std::string("training"));
    QCOMPARE(raw.integer("SELECT count(*) FROM benchmark_points"), 1LL);
  }

  // Version 3 -> 4 adds runs.folder, filled from each run's config artifact; the folder
  // lookup is a query on it.
  void version3_gets_run_folders_from_config_artifacts() {
    const std::string dir = store_test::fresh_dir("migrate-v3");
    const std::string path = dir + "/runs.sqlite";
    write_version3_database(path);
    {
      RawDb raw(path);
      QCOMPARE(raw.integer("PRAGMA user_version"), 3LL);
      QCOMPARE(raw.integer("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'folder'"),
               0LL);
    }
    {
      RunStore store(path);
      QCOMPARE(store.schema_version(), adala::store::kSchemaVersion);
      QCOMPARE(store.list_runs().size(), size_t(4));
      QCOMPARE(store.find_run(1)->folder, std::string());  // no config artifact
      QCOMPARE(store.find_run(2)->folder, std::string("/data/runs/finished-1"));
      QCOMPARE(store.find_run(3)->folder, std::string("/"));
      QCOMPARE(store.find_run(4)->folder, std::string());
      QCOMPARE(store.find_run(4)->kind, std::string("benchmark"));
      QCOMPARE(store.find_run_by_folder("/data/runs/finished-1")->id, int64_t(2));
      QCOMPARE(store.find_run_by_folder("/data/runs/finished-1/")->id, int64_t(2));
      QCOMPARE(store.find_run_by_folder("/data/runs/../runs/finished-1")->id, int64_t(2));
      QVERIFY(!store.find_run_by_folder("/data/runs"));
      QVERIFY(!store.find_run_by_folder("/data/runs/finished-1/config.json"));
      // Everything version 3 held is still there.
      QCOMPARE(store.find_run("old-run")->notes, std::string("v2 note"));
      QCOMPARE(store.artifacts(2).size(), size_t(2));
      QCOMPARE(store.metrics(1).size(), size_t(5));
    }
    RawDb raw(path);
    QCOMPARE(raw.integer("PRAGMA user_version"), (long long)adala::store::kSchemaVersion);
    QCOMPARE(raw.integer(
                 "SELECT count(*) FROM pragma_table_info('stages') WHERE name = 'compute_seconds'"),
             1LL);
    QCOMPARE(raw.scalar("SELECT folder FROM runs WHERE id = 2"),
             std::string("/data/runs/finished-1"));
    QCOMPARE(raw.integer("SELECT count(*) FROM runs WHERE folder IS NULL"), 2LL);
    QCOMPARE(
        raw.integer(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'runs_by_folder'"),
        1LL);
  }

  // A read-only reader of a version-2 file gets it upgraded through upgrade_schema() once;
  // a current file is left alone.
  void upgrade_schema_migrates_once() {
    const std::string dir = store_test::fresh_dir("migrate-upgrade");
    const std::string path = dir + "/runs.sqlite";
    QVERIFY(!RunStore::upgrade_schema(path));  // no file: nothing to do, nothing created
    QVERIFY(!store_test::fs::exists(path));
    write_version2_database(path);
    QVERIFY(RunStore::upgrade_schema(path));
    QVERIFY(!RunStore::upgrade_schema(path));
    RunStore reader(path, OpenMode::ReadOnly);
    QCOMPARE(reader.schema_version(), adala::store::kSchemaVersion);
    QCOMPARE(reader.list_runs().size(), size_t(2));
  }

  // A step that fails rolls back: the file keeps version 1 and every byte.
  void failed_migration_leaves_the_file_untouched() {
    const std::string dir = store_test::fresh_dir("migrate-fail");
    const std::string path = dir + "/runs.sqlite";
    write_version1_database(path, "CREATE TABLE tags (x INTEGER);");  // clashes with v2
    const std::string before = store_test::file_sha256(path);
    try {
      RunStore store(path);
      QFAIL("migration over a clashing table did not fail");
    } catch (const StoreError& e) {
      const std::string message = e.what();
      QVERIFY2(message.find("from schema version 1 to 2") != std::string::npos, e.what());
      QVERIFY2(message.find("keeps version 1") != std::string::npos, e.what());
      QVERIFY2(message.find(path) != std::string::npos, e.what());
    }
    QCOMPARE(store_test::file_sha256(path), before);
    RawDb raw(path);
    QCOMPARE(raw.integer("PRAGMA user_version"), 1LL);
  }

  // A read-only store cannot migrate, and says how to get the file upgraded.
  void read_only_open_of_version1_asks_for_an_upgrade() {
    const std::string dir = store_test::fresh_dir("migrate-ro");
    const std::string path = dir + "/runs.sqlite";
    write_version1_database(path);
    const std::string before = store_test::file_sha256(path);
    try {
      RunStore store(path, OpenMode::ReadOnly);
      QFAIL("read-only open of a version-1 file did not fail");
    } catch (const StoreError& e) {
      QCOMPARE(e.kind(), adala::store::StoreErrorKind::OlderSchema);
      QVERIFY2(std::string(e.what()).find("read-write") != std::string::npos, e.what());
    }
    QCOMPARE(store_test::file_sha256(path), before);
  }
};

ADALA_TEST_GUILESS_MAIN(TestStoreMigration)
}  // namespace test_store_migration

#include "test_store_migration.moc"
