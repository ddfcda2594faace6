// The lead-in every front end runs before training (engine/run/open_training_run.h): bad input
// is refused before a folder or a run row exists; a new run gets its folder and its row with the
// front end's tags; a run folder continues its run; a run that cannot be recorded is a
// RunRecordError carrying its cause, after the folder was made.
// Engine headers first: LibTorch's must precede Qt's (Qt's `slots` macro breaks ATen).
#include "engine/model/vit_config.h"
#include "engine/run/open_training_run.h"
#include "engine/run/run_folder_lock.h"
#include "engine/store/run_store.h"
#include "engine/store/store_error.h"
#include "tests/support/test_dirs.h"
#include "tests/support/blank_idx_folder.h"
#include "tests/support/test_suite.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_open_training_run {

using namespace adala;
using store::OpenMode;
using store::RunStatus;
using store::RunStore;
namespace fs = std::filesystem;

namespace {

std::string fresh(const std::string& name) {
  return adala_test::fresh_test_dir("open-training-run", name);
}

// A Fashion-MNIST-shaped data folder: idx files of four blank 28 x 28 images, labelled 0.
std::string data_root(const std::string& dir) {
  return adala_test::write_blank_idx_folder(dir + "/data");
}

ExperimentConfig micro_config(const std::string& dir) {
  ExperimentConfig c;
  c.name = "lead-in";
  c.device = "cpu";
  c.model = vit_preset("fmnist_micro");
  c.data.root = data_root(dir);
  c.runs_dir = dir + "/runs";
  return c;
}

PipelineOptions teacher_stage() {
  PipelineOptions o;
  o.stages = {0};
  return o;
}

size_t entries(const std::string& folder) {
  if (!fs::exists(folder)) return 0;
  return static_cast<size_t>(std::distance(fs::directory_iterator(folder), {}));
}

}  // namespace

class TestOpenTrainingRun : public QObject {
  Q_OBJECT
 private slots:
  void bad_input_leaves_no_folder_and_no_row() {
    const std::string dir = fresh("bad-input");
    const std::string db = dir + "/runs.sqlite";
    ExperimentConfig config = micro_config(dir);
    PipelineOptions options;
    options.stages.clear();
    try {
      open_training_run(config, options, {db, {}});
      QFAIL("a run of no stage opened");
    } catch (const ConfigError& e) {
      QCOMPARE(QString(e.what()), QString("--stages: no stage selected"));
    }
    config.data.root = dir + "/no-such-data";
    options = teacher_stage();
    try {
      open_training_run(config, options, {db, {}});
      QFAIL("a run of absent data opened");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.field()), QString("data.root"));
    }
    QVERIFY(options.run_dir.empty());
    QCOMPARE(entries(config.runs_dir), size_t(0));
    QVERIFY(!fs::exists(db));
  }

  void a_new_run_gets_its_folder_and_its_row_with_the_tags() {
    const std::string dir = fresh("new");
    const std::string db = dir + "/runs.sqlite";
    const ExperimentConfig config = micro_config(dir);
    PipelineOptions options = teacher_stage();
    auto session = open_training_run(config, options, {db, {"gui", "nightly"}});
    QVERIFY(session);
    QVERIFY(session->recording());
    QVERIFY(!session->continued());
    QVERIFY(!options.run_dir.empty());
    QVERIFY(fs::is_directory(options.run_dir));
    QCOMPARE(fs::path(options.run_dir).parent_path(), fs::path(config.runs_dir));
    {
      RunStore reader(db, OpenMode::ReadOnly);
      const auto run = reader.find_run(session->run_id());
      QVERIFY(run);
      QCOMPARE(run->name, std::string("lead-in"));
      QCOMPARE(run->status, std::string(store::run_status_name(RunStatus::Running)));
      QCOMPARE(run->folder, options.run_dir);
      QCOMPARE(run->tags, (std::vector<std::string>{"gui", "nightly"}));
    }
    session->finish(RunStatus::Interrupted);
    const int64_t id = session->run_id();
    session.reset();

    // Its folder again (a resume): the same row, the folder as given.
    const std::string folder = options.run_dir;
    PipelineOptions resume = teacher_stage();
    resume.run_dir = folder;
    auto again = open_training_run(config, resume, {db, {}});
    QVERIFY(again->continued());
    QCOMPARE(again->run_id(), id);
    QCOMPARE(resume.run_dir, folder);
    again->finish(RunStatus::Done);
  }

  void no_database_still_makes_the_folder() {
    const std::string dir = fresh("no-db");
    const ExperimentConfig config = micro_config(dir);
    PipelineOptions options = teacher_stage();
    auto session = open_training_run(config, options, {RunSession::kNoDatabase, {"x"}});
    QVERIFY(session);
    QVERIFY(!session->recording());
    QVERIFY(fs::is_directory(options.run_dir));
  }

  void an_unusable_database_is_a_run_record_error_with_its_cause() {
    const std::string dir = fresh("bad-db");
    std::ofstream(dir + "/not-a-folder") << "x";
    const std::string db = dir + "/not-a-folder/runs.sqlite";
    const ExperimentConfig config = micro_config(dir);
    PipelineOptions options = teacher_stage();
    try {
      open_training_run(config, options, {db, {}});
      QFAIL("a database under a file opened");
    } catch (const RunRecordError& e) {
      QVERIFY2(QString(e.what()).contains("not-a-folder"), e.what());
      QVERIFY_THROWS_EXCEPTION(std::exception, std::rethrow_if_nested(e));
    }
    QVERIFY(fs::is_directory(options.run_dir));  // made before the run could be recorded
  }

  void a_folder_another_session_writes_is_a_run_record_error() {
    const std::string dir = fresh("busy");
    const std::string db = dir + "/runs.sqlite";
    const ExperimentConfig config = micro_config(dir);
    PipelineOptions options = teacher_stage();
    auto first = open_training_run(config, options, {db, {}});
    PipelineOptions second = teacher_stage();
    second.run_dir = options.run_dir;
    try {
      open_training_run(config, second, {db, {}});
      QFAIL("two live sessions on one folder");
    } catch (const RunRecordError& e) {
      QVERIFY2(QString(e.what()).contains("is in use by pid"), e.what());
      QVERIFY_THROWS_EXCEPTION(RunFolderBusy, std::rethrow_if_nested(e));
    }
    first->finish(RunStatus::Done);
  }
};

ADALA_TEST_GUILESS_MAIN(TestOpenTrainingRun)
}  // namespace test_open_training_run

#include "test_open_training_run.moc"
