// RunStore end to end on a real file: runs, stages, metrics, evaluations, artifacts,
// snapshots, tags, deletion, and resume (no duplicate or missing step).
#include <QtTest/QtTest>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <thread>

#include "engine/store/run_store.h"
#include "engine/store/store_benchmark.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_run_store {

using namespace adala::store;  // the store's API is what these tests exercise

namespace {

int64_t new_run(RunStore& store, const std::string& name = "run") {
  return store.create_run(name, R"({"depth":12})", "cpu", "2.1.0", "0.1.0");
}

}  // namespace

class TestRunStore : public QObject {
  Q_OBJECT
 private slots:
  // qputenv / qunsetenv, not setenv: they hold Qt's environment lock, which QtTest's watchdog
  // thread also takes when it reads QTEST_FUNCTION_TIMEOUT at each test function; a bare setenv
  // racing that getenv crashed this suite (SIGSEGV in the watchdog's getenv).
  void default_path_follows_xdg() {
    const bool had_xdg = qEnvironmentVariableIsSet("XDG_DATA_HOME");
    const QByteArray saved_xdg = qgetenv("XDG_DATA_HOME");
    const QByteArray saved_home = qgetenv("HOME");
    qputenv("XDG_DATA_HOME", "/data/x");
    QCOMPARE(RunStore::default_path(), std::string("/data/x/adala/runs.sqlite"));
    qunsetenv("XDG_DATA_HOME");
    qputenv("HOME", "/home/someone");
    QCOMPARE(RunStore::default_path(), std::string("/home/someone/.local/share/adala/runs.sqlite"));
    if (had_xdg) qputenv("XDG_DATA_HOME", saved_xdg);
    qputenv("HOME", saved_home);
  }

  void run_lifecycle_and_status_times() {
    RunStore store(store_test::fresh_dir("lifecycle") + "/runs.sqlite");
    const int64_t run = new_run(store, "vit-s");
    auto info = store.find_run(run);
    QVERIFY(info.has_value());
    QCOMPARE(info->status, std::string("queued"));
    QCOMPARE(info->name, std::string("vit-s"));
    QCOMPARE(info->config_json, std::string(R"({"depth":12})"));
    QCOMPARE(info->torch_version, std::string("2.1.0"));
    QVERIFY(!info->created_at.empty());
    QVERIFY(info->started_at.empty());

    store.set_run_status(run, RunStatus::Running);
    info = store.find_run(run);
    QCOMPARE(info->status, std::string("running"));  // this live store is writing it
    QVERIFY(!info->started_at.empty());
    QVERIFY(info->ended_at.empty());

    store.begin_stage(run, "stage2", 2, 50);
    store.set_run_status(run, RunStatus::Failed);
    info = store.find_run(run);
    QCOMPARE(info->status, std::string("failed"));
    QVERIFY(!info->ended_at.empty());
    QCOMPARE(store.stages(run).at(0).status, std::string("failed"));  // ends with its run

    // Only the five statuses exist (the enum); a stage cannot end as `running`.
    try {
      store.end_stage(run, "stage2", RunStatus::Running);
      QFAIL("a stage ended as running");
    } catch (const StoreError& e) {
      QCOMPARE(e.kind(), StoreErrorKind::InvalidArgument);
      QVERIFY2(std::string(e.what()).find("not \"running\"") != std::string::npos, e.what());
    }
    try {
      store.set_run_status(run + 100, RunStatus::Done);
      QFAIL("status of a missing run");
    } catch (const StoreError& e) {
      QCOMPARE(e.kind(), StoreErrorKind::InvalidArgument);
    }
  }

  // The spelling the database stores, one per status, read back by parse_run_status.
  void run_status_names_round_trip() {
    using adala::store::parse_run_status;
    using adala::store::run_status_name;
    const std::pair<RunStatus, std::string> statuses[] = {{RunStatus::Queued, "queued"},
                                                          {RunStatus::Running, "running"},
                                                          {RunStatus::Done, "done"},
                                                          {RunStatus::Failed, "failed"},
                                                          {RunStatus::Interrupted, "interrupted"}};
    for (const auto& [status, name] : statuses) {
      QCOMPARE(std::string(run_status_name(status)), name);
      QVERIFY(parse_run_status(name) == status);
    }
    QVERIFY(!parse_run_status("paused"));
    QVERIFY(!parse_run_status(""));
    QVERIFY(!parse_run_status("Done"));
    QVERIFY(adala::store::is_final(RunStatus::Interrupted));
    QVERIFY(!adala::store::is_final(RunStatus::Running));
    QVERIFY(!adala::store::is_final(RunStatus::Queued));
  }

  // A run's folder is stored absolute with links resolved, and found again however it is
  // spelled; the newest run of a folder wins; other folders find nothing.
  void run_folder_round_trip_and_lookup() {
    const std::string dir = store_test::fresh_dir("folders");
    RunStore store(dir + "/runs.sqlite");
    store_test::fs::create_directories(dir + "/real/a");
    store_test::fs::create_directory_symlink(dir + "/real", dir + "/link");
    const int64_t a = new_run(store, "a");
    const int64_t b = new_run(store, "b");
    QCOMPARE(store.find_run(a)->folder, std::string());
    QVERIFY(!store.find_run_by_folder(dir + "/real/a"));

    store.set_run_folder(a, dir + "/link/a/");  // a link and a trailing separator
    const std::string canonical = store_test::fs::canonical(dir + "/real/a").string();
    QCOMPARE(store.find_run(a)->folder, canonical);
    for (const std::string& spelling :
         {dir + "/real/a", dir + "/real/a/", dir + "/link/a", dir + "/real/b/../a"}) {
      const auto found = store.find_run_by_folder(spelling);
      QVERIFY2(found.has_value(), spelling.c_str());
      QCOMPARE(found->id, a);
      QCOMPARE(found->name, std::string("a"));
    }
    // Relative to the working directory.
    const auto cwd = store_test::fs::current_path();
    store_test::fs::current_path(dir);
    const auto relative = store.find_run_by_folder("real/a");
    store_test::fs::current_path(cwd);
    QVERIFY(relative.has_value());
    QCOMPARE(relative->id, a);

    QVERIFY(!store.find_run_by_folder(dir + "/real"));
    QVERIFY(!store.find_run_by_folder(dir + "/real/a/sub"));
    QVERIFY(!store.find_run_by_folder(""));
    store.set_run_folder(b, dir + "/real/a");  // a second run in the same folder: the newest
    QCOMPARE(store.find_run_by_folder(dir + "/real/a")->id, b);

    // A reader sees it; writing it needs a writable store, a run and a folder.
    RunStore reader(store.path(), OpenMode::ReadOnly);
    QCOMPARE(reader.find_run_by_folder(dir + "/link/a")->id, b);
    QVERIFY_EXCEPTION_THROWN(reader.set_run_folder(a, dir), StoreError);
    try {
      store.set_run_folder(b + 100, dir);
      QFAIL("folder of a missing run");
    } catch (const StoreError& e) {
      QCOMPARE(e.kind(), StoreErrorKind::InvalidArgument);
    }
    QVERIFY_EXCEPTION_THROWN(store.set_run_folder(a, ""), StoreError);
  }

  void stages_metrics_and_null_blocks() {
    RunStore store(store_test::fresh_dir("metrics") + "/runs.sqlite");
    const int64_t run = new_run(store);
    store.set_run_status(run, RunStatus::Running);
    store.begin_stage(run, "stage2", 2, 10);
    store.begin_stage(run, "stage1", 1, 5);
    for (int step = 0; step < 5; ++step) store.add_metric(run, "stage1", step, "loss", -1, step);
    for (int step = 0; step < 3; ++step) {
      store.add_metric(run, "stage2", step, "loss", -1, 10.0 + step);
      for (int block = 0; block < 2; ++block) {
        store.add_metric(run, "stage2", step, "attn_mse", block, step + block / 10.0);
      }
    }
    store.add_metric(run, "stage2", 3, "loss", -1, std::nan(""));
    QCOMPARE(store.pending_rows(), size_t(5 + 9 + 1));
    store.flush();
    QCOMPARE(store.pending_rows(), size_t(0));

    const auto stages = store.stages(run);
    QCOMPARE(stages.size(), size_t(2));
    QCOMPARE(stages[0].stage, std::string("stage1"));  // by index
    QCOMPARE(stages[0].last_step, int64_t(4));
    QCOMPARE(stages[1].last_step, int64_t(3));
    QCOMPARE(stages[1].total_steps, int64_t(10));

    const auto all = store.metrics(run);
    QCOMPARE(all.size(), size_t(15));
    QCOMPARE(all.front().stage, std::string("stage1"));
    QCOMPARE(all.back().stage, std::string("stage2"));
    QVERIFY(std::isnan(all.back().value));
    const auto mse = store.metrics(run, "stage2", "attn_mse");
    QCOMPARE(mse.size(), size_t(6));
    QCOMPARE(mse[1].block, 1);
    QCOMPARE(store.metrics(run, "stage1", "loss").at(0).block, -1);
    {
      store_test::RawDb raw(store.path());
      QCOMPARE(raw.integer("SELECT count(*) FROM metrics WHERE block IS NULL"), 9LL);
    }

    const auto final_values = store.final_metrics(run);
    QCOMPARE(final_values.size(), size_t(4));  // stage1/loss, stage2/attn_mse[0,1], stage2/loss
    QCOMPARE(final_values[0].step, int64_t(4));
    QCOMPARE(final_values[1].key, std::string("attn_mse"));
    // The doubles written above (step + block / 10.0 at step 2), read back from REAL columns.
    ADALA_COMPARE_EXACT(final_values[1].value, 2.0);
    ADALA_COMPARE_EXACT(final_values[2].value, 2 + 1 / 10.0);

    // Written again at the same (stage, step, key, block): replaced, not duplicated.
    store.add_metric(run, "stage2", 1, "loss", -1, 99.0);
    // Reads flush first; 99.0 written, read back.
    ADALA_COMPARE_EXACT(store.metrics(run, "stage2", "loss").at(1).value, 99.0);
    QCOMPARE(store.metric_count(run), int64_t(15));

    QCOMPARE(store.metrics_after(run, "stage2", 1).size(), size_t(4));
    store.end_stage(run, "stage2", RunStatus::Done);
    QCOMPARE(store.stages(run)[1].status, std::string("done"));
    QVERIFY(!store.stages(run)[1].ended_at.empty());
    QVERIFY_EXCEPTION_THROWN(store.end_stage(run, "stage9", RunStatus::Done), StoreError);
    QVERIFY_EXCEPTION_THROWN(store.end_stage(run, "stage2", RunStatus::Running), StoreError);
  }

  // A stage cancelled and resumed trains in two sessions: its training time is their sum;
  // a session that does not say how long it trained adds nothing.
  void stage_training_time_sums_its_sessions() {
    RunStore store(store_test::fresh_dir("compute-seconds") + "/runs.sqlite");
    const int64_t run = new_run(store);
    store.set_run_status(run, RunStatus::Running);
    store.begin_stage(run, "feature_alignment", 2, 100);
    QVERIFY(std::isnan(store.stages(run)[0].compute_seconds));  // not ended yet
    // 1.5, 2.25 and their sum 3.75 are exact in binary: stored, summed and read back unchanged.
    store.end_stage(run, "feature_alignment", RunStatus::Interrupted, 1.5);
    ADALA_COMPARE_EXACT(store.stages(run)[0].compute_seconds, 1.5);
    store.begin_stage(run, "feature_alignment", 2, 100);
    // Kept while the next session runs.
    ADALA_COMPARE_EXACT(store.stages(run)[0].compute_seconds, 1.5);
    store.end_stage(run, "feature_alignment", RunStatus::Done, 2.25);
    ADALA_COMPARE_EXACT(store.stages(run)[0].compute_seconds, 3.75);
    store.end_stage(run, "feature_alignment", RunStatus::Done);
    ADALA_COMPARE_EXACT(store.stages(run)[0].compute_seconds, 3.75);
    store.end_stage(run, "feature_alignment", RunStatus::Done, std::nan(""));
    ADALA_COMPARE_EXACT(store.stages(run)[0].compute_seconds, 3.75);
    store.begin_stage(run, "fine_tuning", 3, 10);
    store.end_stage(run, "fine_tuning", RunStatus::Failed);
    QVERIFY(std::isnan(store.stages(run)[1].compute_seconds));  // never measured: not 0
  }

  void metric_for_missing_run_is_an_error_naming_the_rows() {
    RunStore store(store_test::fresh_dir("fk") + "/runs.sqlite");
    store.add_metric(42, "stage2", 0, "loss", -1, 1.0);
    try {
      store.flush();
      QFAIL("metric of a missing run was written");
    } catch (const StoreError& e) {
      QCOMPARE(e.kind(), StoreErrorKind::Constraint);
      QVERIFY2(std::string(e.what()).find("1 buffered rows were dropped") != std::string::npos,
               e.what());
    }
    QCOMPARE(store.pending_rows(), size_t(0));
  }

  void buffer_flushes_itself_when_large() {
    RunStore store(store_test::fresh_dir("autoflush") + "/runs.sqlite");
    const int64_t run = new_run(store);
    for (size_t i = 0; i < RunStore::kAutoFlushRows; ++i) {
      store.add_metric(run, "stage2", static_cast<int64_t>(i), "loss", -1, 1.0);
    }
    QCOMPARE(store.pending_rows(), size_t(0));
    RunStore reader(store.path(), OpenMode::ReadOnly);
    QCOMPARE(reader.metric_count(run), int64_t(RunStore::kAutoFlushRows));
  }

  // Waits on the steady clock, never a fixed sleep: a row is due once it is older than the
  // interval, and the interval is read when flush_if_due asks (so an hour never comes due).
  void flush_if_due_waits_for_the_interval() {
    using Clock = std::chrono::steady_clock;
    RunStore store(store_test::fresh_dir("flush-due") + "/runs.sqlite");
    const int64_t run = new_run(store);
    QVERIFY(!store.flush_if_due());  // nothing buffered
    store.set_flush_interval(std::chrono::hours(1));
    store.add_metric(run, "stage2", 0, "loss", -1, 1.0);
    const auto first_added = Clock::now();  // the store's clock for this row started before
    QVERIFY(!store.flush_if_due());
    QCOMPARE(store.pending_rows(), size_t(1));

    const auto interval = std::chrono::milliseconds(20);
    while (Clock::now() - first_added <= interval) std::this_thread::yield();
    QVERIFY(!store.flush_if_due());  // still within the hour
    store.add_metric(run, "stage2", 1, "loss", -1, 1.0);
    store.set_flush_interval(interval);
    QVERIFY(store.flush_if_due());  // the oldest row (not the newest) sets the clock
    QCOMPARE(store.pending_rows(), size_t(0));

    store.set_flush_interval(std::chrono::milliseconds(0));
    store.add_metric(run, "stage2", 2, "loss", -1, 1.0);
    QVERIFY(store.flush_if_due());
    RunStore reader(store.path(), OpenMode::ReadOnly);
    QCOMPARE(reader.metric_count(run), int64_t(3));
  }

  void benchmark_overhead_arithmetic() {
    adala::store::MetricWriteBenchmark bench;
    bench.batch = 15;
    bench.seconds_per_add = 1e-6;
    bench.seconds_per_flush = 200e-6;
    // 10 ms step, commit every step: (15 us + 200 us) / 10 ms.
    QVERIFY(std::abs(bench.overhead(0.010) - 0.0215) < 1e-12);
    // Commit every 250 ms = every 25 steps: (15 us + 8 us) / 10 ms.
    QVERIFY(std::abs(bench.overhead(0.010, 0.25) - 0.0023) < 1e-12);
    // Steps longer than the interval still commit once per step.
    QVERIFY(std::abs(bench.overhead(1.0, 0.25) - 215e-6) < 1e-12);
  }

  void destructor_flushes() {
    const std::string path = store_test::fresh_dir("dtor") + "/runs.sqlite";
    int64_t run = 0;
    {
      RunStore store(path);
      run = new_run(store);
      store.add_metric(run, "stage2", 0, "loss", -1, 1.0);
    }
    RunStore reader(path, OpenMode::ReadOnly);
    QCOMPARE(reader.metric_count(run), int64_t(1));
  }

  void evaluations_artifacts_snapshots_tags_notes() {
    const std::string dir = store_test::fresh_dir("extras");
    RunStore store(dir + "/runs.sqlite");
    const int64_t run = new_run(store);
    store.add_evaluation(run, "stage3", "top1", 0.81);
    store.add_evaluation(run, "stage3", "top1", 0.82);  // replaces
    store.add_evaluation(run, "teacher", "top1", 0.85);
    const auto evaluations = store.evaluations(run);
    QCOMPARE(evaluations.size(), size_t(2));
    ADALA_COMPARE_EXACT(evaluations.at("stage3/top1"), 0.82);  // the double written, read back

    store_test::write_bytes(dir + "/ckpt.bin", "abc");
    store.add_artifact(run, "checkpoint", dir + "/ckpt.bin");
    auto artifacts = store.artifacts(run);
    QCOMPARE(artifacts.size(), size_t(1));
    QCOMPARE(artifacts[0].sha256,
             std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(artifacts[0].bytes, int64_t(3));
    QCOMPARE(artifacts[0].kind, std::string("checkpoint"));
    store_test::write_bytes(dir + "/ckpt.bin", "");  // rewritten in place: same row updated
    store.add_artifact(run, "checkpoint", dir + "/ckpt.bin");
    artifacts = store.artifacts(run);
    QCOMPARE(artifacts.size(), size_t(1));
    QCOMPARE(artifacts[0].bytes, int64_t(0));
    try {
      store.add_artifact(run, "image", dir + "/missing.png");
      QFAIL("artifact of a missing file");
    } catch (const StoreError& e) {
      QVERIFY2(std::string(e.what()).find("missing.png") != std::string::npos, e.what());
    }

    const std::vector<float> softmax = {0.1f, 0.2f, 0.7f}, linear = {0.3f, 0.3f, 0.4f};
    store.add_attention_snapshot(run, "stage2", 100, 3, 11, 2, 0, softmax, linear);
    store.add_attention_snapshot(run, "stage2", 200, 3, 11, 2, 0, linear, softmax);
    const auto snapshots = store.attention_snapshots(run, "stage2", 100);
    QCOMPARE(snapshots.size(), size_t(1));
    // Stored as a BLOB of the raw float32 values: the same bits back.
    ADALA_COMPARE_EXACT(snapshots[0].softmax_row, softmax);
    ADALA_COMPARE_EXACT(snapshots[0].linear_row, linear);
    QCOMPARE(snapshots[0].block, 11);
    QCOMPARE(snapshots[0].image, int64_t(3));
    QCOMPARE(store.attention_snapshots(run).size(), size_t(2));

    store.add_tag(run, "ablation");
    store.add_tag(run, "baseline");
    store.add_tag(run, "ablation");  // once
    store.set_notes(run, "lr too high");
    auto info = store.find_run(run);
    QCOMPARE(info->tags, (std::vector<std::string>{"ablation", "baseline"}));
    QCOMPARE(info->notes, std::string("lr too high"));
    store.remove_tag(run, "ablation");
    QCOMPARE(store.find_run(run)->tags, std::vector<std::string>{"baseline"});
    QVERIFY_EXCEPTION_THROWN(store.add_tag(run + 1, "x"), StoreError);
  }

  void find_run_by_id_or_name() {
    RunStore store(store_test::fresh_dir("find") + "/runs.sqlite");
    const int64_t a = new_run(store, "alpha");
    const int64_t b = new_run(store, "beta");
    new_run(store, "beta");
    QCOMPARE(store.find_run(std::to_string(a))->name, std::string("alpha"));
    QCOMPARE(store.find_run("alpha")->id, a);
    QVERIFY(!store.find_run("gamma").has_value());
    QVERIFY(!store.find_run("999").has_value());
    try {
      store.find_run("beta");
      QFAIL("an ambiguous name was accepted");
    } catch (const StoreError& e) {
      QVERIFY2(std::string(e.what()).find("ids " + std::to_string(b + 1) + ", " +
                                          std::to_string(b)) != std::string::npos,
               e.what());
    }
    const auto runs = store.list_runs();
    QCOMPARE(runs.size(), size_t(3));
    QCOMPARE(runs.front().id, b + 1);  // newest first
  }

  void delete_run_removes_rows_and_unshared_files() {
    const std::string dir = store_test::fresh_dir("delete");
    RunStore store(dir + "/runs.sqlite");
    const int64_t keep = new_run(store, "keep");
    const int64_t drop = new_run(store, "drop");
    store_test::write_bytes(dir + "/own.ckpt", "1");
    store_test::write_bytes(dir + "/shared.ckpt", "2");
    store.add_artifact(drop, "checkpoint", dir + "/own.ckpt");
    store.add_artifact(drop, "checkpoint", dir + "/shared.ckpt");
    store.add_artifact(keep, "checkpoint", dir + "/shared.ckpt");
    store.begin_stage(drop, "stage1", 1, 1);
    store.add_metric(drop, "stage1", 0, "loss", -1, 1.0);
    store.add_metric(keep, "stage1", 0, "loss", -1, 2.0);
    store.add_evaluation(drop, "stage1", "top1", 0.5);
    store.add_tag(drop, "t");
    store.add_attention_snapshot(drop, "stage1", 0, 0, 0, 0, 0, {1.0f}, {1.0f});

    const auto removed = store.delete_run(drop);
    QCOMPARE(removed, std::vector<std::string>{dir + "/own.ckpt"});
    QVERIFY(!store_test::fs::exists(dir + "/own.ckpt"));
    QVERIFY(store_test::fs::exists(dir + "/shared.ckpt"));  // still recorded by `keep`
    QVERIFY(!store.find_run(drop).has_value());
    store_test::RawDb raw(store.path());
    for (const char* table :
         {"metrics", "stages", "evaluations", "artifacts", "tags", "attention_snapshots"}) {
      QCOMPARE(raw.integer(std::string("SELECT count(*) FROM ") + table +
                           " WHERE run_id = " + std::to_string(drop)),
               0LL);
    }
    QCOMPARE(store.metric_count(keep), int64_t(1));
    QVERIFY_EXCEPTION_THROWN(store.delete_run(drop), StoreError);
    // Ids are never reused.
    QVERIFY(new_run(store, "later") > drop);
  }

  void delete_refuses_a_run_being_written() {
    RunStore store(store_test::fresh_dir("delete-live") + "/runs.sqlite");
    const int64_t run = new_run(store);
    store.set_run_status(run, RunStatus::Running);
    QVERIFY_EXCEPTION_THROWN(store.delete_run(run), StoreError);
    QVERIFY(store.find_run(run).has_value());
  }

  // A store destroyed while its run is `running` (an exception unwound the pipeline) marks
  // it interrupted; a second store of the same process does not steal a live run.
  void unfinished_runs_are_interrupted_not_stolen() {
    const std::string path = store_test::fresh_dir("interrupt") + "/runs.sqlite";
    int64_t run = 0;
    {
      RunStore writer(path);
      run = new_run(writer);
      writer.set_run_status(run, RunStatus::Running);
      writer.begin_stage(run, "stage2", 2, 10);
      {
        RunStore second(path);  // e.g. the GUI opening read-write to tag a run
        QCOMPARE(second.find_run(run)->status, std::string("running"));
        RunStore reader(path, OpenMode::ReadOnly);
        QCOMPARE(reader.find_run(run)->status, std::string("running"));
      }
      store_test::RawDb raw(path);
      QCOMPARE(raw.scalar("SELECT status FROM runs WHERE id = " + std::to_string(run)),
               std::string("running"));
    }
    RunStore store(path);
    QCOMPARE(store.find_run(run)->status, std::string("interrupted"));
    QCOMPARE(store.stages(run).at(0).status, std::string("interrupted"));
  }

  // A WAL-mode file (as RunStore leaves it) holding a run whose writer is gone: the
  // read-write open marks it interrupted in a transaction of its own.
  void abandoned_run_in_wal_file_is_interrupted_on_open() {
    const std::string path = store_test::fresh_dir("abandoned") + "/runs.sqlite";
    int64_t run = 0;
    {
      RunStore store(path);
      run = new_run(store);
      store.begin_stage(run, "stage2", 2, 10);
    }
    {
      store_test::RawDb raw(path);
      QCOMPARE(raw.scalar("PRAGMA journal_mode"), std::string("wal"));
      // Written by a process of an earlier boot.
      raw.exec("UPDATE runs SET status = 'running', writer = 'old-boot-id:1:1'");
    }
    {
      RunStore reader(path, OpenMode::ReadOnly);
      QCOMPARE(reader.find_run(run)->status, std::string("interrupted"));  // read as such
    }
    {
      store_test::RawDb raw(path);
      QCOMPARE(raw.scalar("SELECT status FROM runs"), std::string("running"));  // not written
    }
    RunStore store(path);
    store_test::RawDb raw(path);
    QCOMPARE(raw.scalar("SELECT status FROM runs"), std::string("interrupted"));
    QCOMPARE(raw.scalar("SELECT status FROM stages"), std::string("interrupted"));
    QVERIFY(!raw.scalar("SELECT ended_at FROM runs").empty());
  }

  // Another live process is writing the run: opening read-write must not mark it
  // interrupted, nor delete it; once that process is killed, the next open does.
  void run_of_a_live_process_is_left_alone() {
    const std::string path = store_test::fresh_dir("live-writer") + "/runs.sqlite";
    int64_t run = 0;
    {
      RunStore store(path);
      run = new_run(store);
    }
    int ready[2];
    QVERIFY(pipe(ready) == 0);
    const pid_t child = fork();
    QVERIFY(child >= 0);
    if (child == 0) {
      close(ready[0]);
      RunStore store(path);
      store.set_run_status(run, RunStatus::Running);
      store.begin_stage(run, "stage2", 2, 10);
      const char byte = 'r';
      if (write(ready[1], &byte, 1) != 1) _exit(1);
      pause();  // "training"
      _exit(0);
    }
    close(ready[1]);
    char byte = 0;
    QVERIFY(read(ready[0], &byte, 1) == 1);
    close(ready[0]);
    {
      RunStore other(path);
      QCOMPARE(other.find_run(run)->status, std::string("running"));
      QCOMPARE(other.stages(run).at(0).status, std::string("running"));
      QVERIFY_EXCEPTION_THROWN(other.delete_run(run), StoreError);
      RunStore reader(path, OpenMode::ReadOnly);
      QCOMPARE(reader.find_run(run)->status, std::string("running"));
    }
    kill(child, SIGKILL);
    int status = 0;
    QCOMPARE(waitpid(child, &status, 0), child);
    RunStore after(path);
    QCOMPARE(after.find_run(run)->status, std::string("interrupted"));
    QCOMPARE(after.stages(run).at(0).status, std::string("interrupted"));
  }

  // Resume: keep steps up to the last checkpoint, continue after it; every step exactly once.
  void resume_continues_without_duplicates_or_gaps() {
    const std::string path = store_test::fresh_dir("resume") + "/runs.sqlite";
    const std::vector<std::string> keys = {"loss", "lr", "grad_norm"};
    int64_t run = 0;
    {
      RunStore store(path);
      run = new_run(store);
      store.set_run_status(run, RunStatus::Running);
      store.begin_stage(run, "stage1", 1, 20);
      for (int step = 0; step < 20; ++step) store.add_metric(run, "stage1", step, "loss", -1, 1.0);
      store.end_stage(run, "stage1", RunStatus::Done);
      store.begin_stage(run, "stage2", 2, 150);
      for (int step = 0; step < 100; ++step) {
        for (const auto& key : keys) store.add_metric(run, "stage2", step, key, -1, step);
        store.add_metric(run, "stage2", step, "attn_mse", 3, step);
        store.flush();
      }
      // dies here: no end_stage, no status
    }
    RunStore store(path);
    QCOMPARE(store.find_run(run)->status, std::string("interrupted"));
    QCOMPARE(store.last_metric_step(run, "stage2"), int64_t(99));
    const std::string started = store.stages(run)[1].started_at;

    const int64_t checkpoint_step = 59;  // last checkpoint on disk
    store.delete_metrics_after(run, "stage2", checkpoint_step);
    QCOMPARE(store.last_metric_step(run, "stage2"), checkpoint_step);
    QCOMPARE(store.stages(run)[1].last_step, checkpoint_step);
    QCOMPARE(store.last_metric_step(run, "stage1"), int64_t(19));  // other stages untouched
    QCOMPARE(store.last_metric_step(run, "stage9"), int64_t(-1));

    store.set_run_status(run, RunStatus::Running);
    store.begin_stage(run, "stage2", 2, 150);  // idempotent: same row, running again
    QCOMPARE(store.stages(run).size(), size_t(2));
    QCOMPARE(store.stages(run)[1].started_at, started);
    QCOMPARE(store.stages(run)[1].status, std::string("running"));
    for (int64_t step = store.last_metric_step(run, "stage2") + 1; step < 150; ++step) {
      for (const auto& key : keys) store.add_metric(run, "stage2", step, key, -1, step + 1000.0);
      store.add_metric(run, "stage2", step, "attn_mse", 3, step + 1000.0);
      store.flush();
    }
    store.end_stage(run, "stage2", RunStatus::Done);
    store.set_run_status(run, RunStatus::Done);

    const auto loss = store.metrics(run, "stage2", "loss");
    QCOMPARE(loss.size(), size_t(150));
    for (int step = 0; step < 150; ++step) {
      QCOMPARE(loss[step].step, int64_t(step));
      // The doubles written above, read back from a REAL column.
      ADALA_COMPARE_EXACT(loss[step].value, step <= checkpoint_step ? double(step) : step + 1000.0);
    }
    QCOMPARE(store.metrics(run, "stage2").size(), size_t(150 * 4));
    store_test::RawDb raw(path);
    QCOMPARE(raw.integer("SELECT count(*) FROM (SELECT stage, step, key, block, count(*) AS n"
                         " FROM metrics GROUP BY stage, step, key, block HAVING n > 1)"),
             0LL);
  }
};

ADALA_TEST_GUILESS_MAIN(TestRunStore)
}  // namespace test_run_store

#include "test_run_store.moc"
