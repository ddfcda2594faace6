// RunSession: create or continue a run by its folder, the sink (database first), finishing
// as done / failed / interrupted with the stages left running, --db none, and a micro
// pipeline run through it (summary recorded, cancel then resume on the same row, a crash
// marked failed with its stage).
// Engine headers first: LibTorch's must precede Qt's (Qt's `slots` macro breaks ATen).
#include "engine/data/fashion_mnist.h"
#include "engine/run/run_folder_lock.h"
#include "engine/run/run_session.h"
#include "engine/run/run_summary.h"
#include "engine/store/run_store.h"
#include "engine/train/stage_catalog.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

#include <QtTest/QtTest>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_run_session {

using namespace adala;
using store::OpenMode;
using store::RunStatus;
using store::RunStore;
namespace fs = std::filesystem;

namespace {

std::string fresh(const std::string& name) { return adala_test::fresh_test_dir("run", name); }

RunRecord record_for(const std::string& folder) {
  RunRecord record;
  record.name = "session";
  record.config_json = R"({"depth":2})";
  record.device = "cpu";
  record.folder = folder;
  record.tags = {"nightly"};
  return record;
}

StageEvent stage_started(int index, int64_t total_steps) {
  StageEvent e;
  e.stage = stage_name(index);
  e.kind = StageEvent::Kind::Started;
  e.total_steps = total_steps;
  return e;
}

StepMetrics step_of(int index, int64_t step) {
  StepMetrics m;
  m.stage = stage_name(index);
  m.step = step;
  m.loss = 1.0 / double(step);
  return m;
}

// Reads the database when an event arrives: the session's own sink must have written it.
class ReadsTheDatabase : public EventSink {
 public:
  ReadsTheDatabase(std::string path, int64_t run) : path_(std::move(path)), run_(run) {}
  void on_event(const Event& event) override {
    RunStore reader(path_, OpenMode::ReadOnly);
    if (std::holds_alternative<StageEvent>(event))
      stages_seen.push_back(reader.stages(run_).size());
    if (const auto* m = std::get_if<StepMetrics>(&event))
      last_steps_seen.push_back(reader.last_metric_step(run_, m->stage));
  }
  std::vector<size_t> stages_seen;
  std::vector<int64_t> last_steps_seen;

 private:
  std::string path_;
  int64_t run_;
};

class CancelAt : public EventSink {
 public:
  CancelAt(JobControl& control, int stage, int64_t step)
      : control_(control), stage_(stage), step_(step) {}
  void on_event(const Event& e) override {
    if (const auto* m = std::get_if<StepMetrics>(&e);
        m && stage_index(m->stage) == stage_ && m->step == step_)
      control_.request_cancel();
  }

 private:
  JobControl& control_;
  int stage_;
  int64_t step_;
};

class CrashAt : public EventSink {
 public:
  CrashAt(int stage, int64_t step) : stage_(stage), step_(step) {}
  void on_event(const Event& e) override {
    if (const auto* m = std::get_if<StepMetrics>(&e);
        m && stage_index(m->stage) == stage_ && m->step == step_)
      throw std::runtime_error("simulated crash");
  }

 private:
  int stage_;
  int64_t step_;
};

// Stage 0 alone on fmnist_micro: 6 steps, a checkpoint every 2.
ExperimentConfig teacher_only_config(const std::string& runs_dir) {
  Json doc = parse_json_strict(
      "{\"name\":\"micro\",\"seed\":3,\"device\":\"cpu\",\"model\":{\"preset\":\"fmnist_micro\"},"
      "\"data\":{\"train_limit\":128,\"test_limit\":64},"
      "\"stages\":{\"teacher\":{\"max_steps\":6,\"batch_size\":32,\"checkpoint_every\":2}}}");
  doc["output"] = Json::object();
  doc["output"]["runs_dir"] = Json(runs_dir);
  return parse_experiment_config(doc);
}

PipelineOptions teacher_only_options(const std::string& run_dir) {
  PipelineOptions options;
  options.stages = {0};
  options.run_dir = run_dir;
  return options;
}

bool have_dataset() {
  return fs::exists(default_fashion_mnist_root() + "/train-images-idx3-ubyte.gz");
}

}  // namespace

class TestRunSession : public QObject {
  Q_OBJECT
 private slots:
  void new_run_is_recorded_running_with_its_folder() {
    const std::string dir = fresh("new");
    const std::string db = dir + "/runs.sqlite";
    int64_t id = -1;
    {
      RunSession session(db, record_for(dir + "/run-1"));
      QVERIFY(session.recording());
      QVERIFY(!session.continued());
      QCOMPARE(session.database_path(), db);
      id = session.run_id();
      QVERIFY(id > 0);
      RunStore reader(db, OpenMode::ReadOnly);
      const auto info = reader.find_run(id);
      QVERIFY(info.has_value());
      QCOMPARE(info->status, std::string("running"));
      QCOMPARE(info->name, std::string("session"));
      QCOMPARE(info->config_json, std::string(R"({"depth":2})"));
      QCOMPARE(info->kind, std::string("training"));
      QCOMPARE(info->folder, fs::weakly_canonical(dir + "/run-1").string());
      QCOMPARE(info->tags, std::vector<std::string>{"nightly"});
      QCOMPARE(info->project_version, project_version_string());
      QVERIFY(!info->torch_version.empty());
      session.finish(RunStatus::Done);
      QVERIFY(session.finished());
      QCOMPARE(reader.find_run(id)->status, std::string("done"));
    }
    RunStore reader(db, OpenMode::ReadOnly);
    QCOMPARE(reader.find_run(id)->status, std::string("done"));  // the first finish counts
  }

  // The same folder, however it is spelled, continues the same row; another folder does not.
  void same_folder_continues_the_run() {
    const std::string dir = fresh("continue");
    const std::string db = dir + "/runs.sqlite";
    fs::create_directories(dir + "/real/run-1");
    fs::create_directory_symlink(dir + "/real", dir + "/link");
    int64_t first = -1;
    {
      RunSession session(db, record_for(dir + "/real/run-1"));
      first = session.run_id();
      session.finish(RunStatus::Interrupted);
    }
    for (const std::string& spelling :
         {dir + "/real/run-1/", dir + "/real/./run-1", dir + "/link/run-1"}) {
      RunRecord again = record_for(spelling);
      again.tags = {"resumed"};
      RunSession session(db, again);
      QVERIFY2(session.continued(), spelling.c_str());
      QCOMPARE(session.run_id(), first);
      session.finish(RunStatus::Interrupted);
    }
    {
      RunSession other(db, record_for(dir + "/real/run-2"));
      QVERIFY(!other.continued());
      QVERIFY(other.run_id() > first);
      other.finish(RunStatus::Done);
    }
    RunStore reader(db, OpenMode::ReadOnly);
    QCOMPARE(reader.list_runs().size(), size_t(2));
    QCOMPARE(reader.find_run(first)->tags, (std::vector<std::string>{"nightly", "resumed"}));
  }

  // One live writer per folder: a second session (a second `--resume` of a run still
  // training) is refused naming the owner, before it touches the database; once the first
  // ends, the folder can be continued.
  void second_live_session_on_a_folder_is_refused() {
    const std::string dir = fresh("lock");
    const std::string db = dir + "/runs.sqlite";
    const std::string folder = dir + "/run-1";
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    int64_t id = -1;
    {
      RunSession first(db, record_for(folder));
      id = first.run_id();
      for (const std::string& database : {db, std::string(RunSession::kNoDatabase)}) {
        try {
          RunSession second(database, record_for(folder));
          QFAIL("two live sessions on one folder");
        } catch (const RunFolderBusy& e) {
          QCOMPARE(QString(e.what()),
                   QString::fromStdString("run folder " + folder + " is in use by pid " +
                                          std::to_string(getpid()) + " on host " + host +
                                          " (one writer per run; wait for it to end or stop it "
                                          "first)"));
        }
      }
      RunStore reader(db, OpenMode::ReadOnly);
      QCOMPARE(reader.list_runs().size(), size_t(1));
      QCOMPARE(reader.find_run(id)->status, std::string("running"));
      first.finish(RunStatus::Interrupted);
    }
    RunSession again(db, record_for(folder));
    QVERIFY(again.continued());
    QCOMPARE(again.run_id(), id);
    again.finish(RunStatus::Done);
  }

  // Every front end gets the same ending: the stages still running end with the run.
  void finish_ends_the_stages_left_running() {
    const std::string dir = fresh("finish");
    const std::string db = dir + "/runs.sqlite";
    for (RunStatus status : {RunStatus::Done, RunStatus::Failed, RunStatus::Interrupted}) {
      const std::string name = store::run_status_name(status);
      RunSession session(db, record_for(dir + "/" + name));
      session.sink().on_event(stage_started(0, 10));
      session.sink().on_event(step_of(0, 1));
      StageEvent finished = stage_started(0, 10);
      finished.kind = StageEvent::Kind::Finished;
      session.sink().on_event(finished);
      session.sink().on_event(stage_started(1, 10));  // left running
      session.finish(status);
      RunStore reader(db, OpenMode::ReadOnly);
      QCOMPARE(reader.find_run(session.run_id())->status, name);
      const auto stages = reader.stages(session.run_id());
      QCOMPARE(stages.size(), size_t(2));
      QCOMPARE(stages[0].status, std::string("done"));
      QCOMPARE(stages[1].status, name);
      QVERIFY(!stages[1].ended_at.empty());
    }
  }

  // An exception that leaves the caller's scope before finish(): the run is failed.
  void unfinished_session_marks_the_run_failed() {
    const std::string dir = fresh("unfinished");
    const std::string db = dir + "/runs.sqlite";
    int64_t id = -1;
    try {
      RunSession session(db, record_for(dir + "/run"));
      id = session.run_id();
      session.sink().on_event(stage_started(2, 5));
      throw std::runtime_error("benchmark died");
    } catch (const std::runtime_error&) {
    }
    RunStore reader(db, OpenMode::ReadOnly);
    QCOMPARE(reader.find_run(id)->status, std::string("failed"));
    QCOMPARE(reader.stages(id).at(0).status, std::string("failed"));
  }

  // The database hears of an event before any added sink does.
  void database_comes_first_then_the_added_sinks_in_order() {
    const std::string dir = fresh("order");
    const std::string db = dir + "/runs.sqlite";
    RunSession session(db, record_for(dir + "/run"));
    ReadsTheDatabase reads(db, session.run_id());
    RecordingSink recorded;
    session.add_sink(reads);
    session.add_sink(recorded);
    session.sink().on_event(stage_started(1, 3));
    for (int64_t step = 1; step <= 3; ++step) session.sink().on_event(step_of(1, step));
    QCOMPARE(reads.stages_seen, std::vector<size_t>{1});
    QCOMPARE(reads.last_steps_seen, (std::vector<int64_t>{1, 2, 3}));
    QCOMPARE(recorded.events().size(), size_t(4));
    QCOMPARE(recorded.steps(stage_name(1)).size(), size_t(3));
    session.finish(RunStatus::Done);
  }

  void benchmark_run_has_no_folder() {
    const std::string dir = fresh("benchmark");
    const std::string db = dir + "/runs.sqlite";
    RunRecord record;
    record.name = "bench scaling";
    record.kind = "benchmark";
    RunSession session(db, record);
    QVERIFY(session.store() != nullptr);
    session.finish(RunStatus::Done);
    RunStore reader(db, OpenMode::ReadOnly);
    const auto info = reader.find_run(session.run_id());
    QCOMPARE(info->kind, std::string("benchmark"));
    QCOMPARE(info->folder, std::string());
    QCOMPARE(info->status, std::string("done"));
  }

  void no_database_records_nothing_but_still_fans_out() {
    const std::string dir = fresh("none");
    RunSession session(RunSession::kNoDatabase, record_for(dir + "/run"));
    QVERIFY(!session.recording());
    QCOMPARE(session.run_id(), int64_t(-1));
    QVERIFY(session.store() == nullptr);
    QCOMPARE(session.database_path(), std::string());
    RecordingSink recorded;
    session.add_sink(recorded);
    session.sink().on_event(step_of(0, 1));
    QCOMPARE(recorded.events().size(), size_t(1));
    session.add_artifact("report", dir + "/missing.md");  // nothing recorded, nothing checked
    session.finish(RunStatus::Done);
    QVERIFY(session.finished());
    QVERIFY(!fs::exists(dir + "/runs.sqlite"));
  }

  void unusable_database_throws_at_open() {
    const std::string dir = fresh("unusable");
    {
      std::ofstream junk(dir + "/runs.sqlite");
      junk << std::string(4096, 'x');
    }
    QVERIFY_EXCEPTION_THROWN(RunSession(dir + "/runs.sqlite", record_for(dir + "/run")),
                             store::StoreError);
  }

  void training_record_resolves_the_device() {
    ExperimentConfig config;
    config.name = "cfg";
    config.device = "cpu";
    PipelineOptions options;
    options.run_dir = "/tmp/somewhere";
    const RunRecord record = training_run_record(config, options);
    QCOMPARE(record.name, std::string("cfg"));
    QCOMPARE(record.device, std::string("cpu"));
    QCOMPARE(record.folder, std::string("/tmp/somewhere"));
    QCOMPARE(record.kind, std::string("training"));
    options.device = "tpu";
    QVERIFY_EXCEPTION_THROWN(training_run_record(config, options), std::invalid_argument);
  }

  // The pipeline through the session: interrupted at step 3, continued on the same row to
  // done with summary.md recorded, every step once.
  void pipeline_cancel_then_resume_on_the_same_run() {
    if (!have_dataset()) QSKIP("dataset-fashion-mnist not installed");
    const std::string dir = fresh("pipeline");
    const std::string db = dir + "/runs.sqlite";
    const ExperimentConfig config = teacher_only_config(dir);
    const PipelineOptions options = teacher_only_options(dir + "/run");
    int64_t id = -1;
    {
      RunSession session(db, training_run_record(config, options));
      id = session.run_id();
      JobControl control;
      CancelAt cancel(control, 0, 3);
      session.add_sink(cancel);
      QVERIFY_EXCEPTION_THROWN(session.run_pipeline(config, options, control), JobCancelled);
      QVERIFY(session.finished());
    }
    {
      RunStore reader(db, OpenMode::ReadOnly);
      QCOMPARE(reader.find_run(id)->status, std::string("interrupted"));
      QCOMPARE(reader.stages(id).at(0).status, std::string("interrupted"));
    }
    RunSession resumed(db, training_run_record(config, options));
    QVERIFY(resumed.continued());
    QCOMPARE(resumed.run_id(), id);
    JobControl control;
    const PipelineResult result = resumed.run_pipeline(config, options, control);
    RunStore reader(db, OpenMode::ReadOnly);
    QCOMPARE(reader.find_run(id)->status, std::string("done"));
    QCOMPARE(reader.stages(id).at(0).status, std::string("done"));
    std::vector<int64_t> steps;
    for (const auto& m : reader.metrics(id, stage_name(0), "loss")) steps.push_back(m.step);
    QCOMPARE(steps, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
    const std::string summary = run_summary_path(result.run_dir);
    QVERIFY(fs::exists(summary));
    bool recorded = false;
    for (const auto& a : reader.artifacts(id))
      recorded |= a.kind == "report" && fs::equivalent(a.path, summary);
    QVERIFY(recorded);
  }

  // A failure inside the pipeline is rethrown and leaves the run and its stage failed.
  void pipeline_failure_marks_run_and_stage_failed() {
    if (!have_dataset()) QSKIP("dataset-fashion-mnist not installed");
    const std::string dir = fresh("pipeline-crash");
    const std::string db = dir + "/runs.sqlite";
    const ExperimentConfig config = teacher_only_config(dir);
    const PipelineOptions options = teacher_only_options(dir + "/run");
    RunSession session(db, training_run_record(config, options));
    CrashAt crash(0, 2);
    session.add_sink(crash);
    JobControl control;
    try {
      session.run_pipeline(config, options, control);
      QFAIL("the crash was swallowed");
    } catch (const std::runtime_error& e) {
      QCOMPARE(std::string(e.what()), std::string("simulated crash"));
    }
    RunStore reader(db, OpenMode::ReadOnly);
    QCOMPARE(reader.find_run(session.run_id())->status, std::string("failed"));
    QCOMPARE(reader.stages(session.run_id()).at(0).status, std::string("failed"));
    QVERIFY(!fs::exists(run_summary_path(options.run_dir)));
  }
};

ADALA_TEST_GUILESS_MAIN(TestRunSession)
}  // namespace test_run_session

#include "test_run_session.moc"
