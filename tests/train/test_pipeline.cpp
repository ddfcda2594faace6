// The whole pipeline on a micro model and a slice of Fashion-MNIST, recorded in a real run
// database: stage outputs, resume after cancel with gap-free metrics, stage selection.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>
#include <set>

#include "engine/model/load_weights.h"
#include "engine/data/fashion_mnist.h"
#include "engine/store/run_store.h"
#include "engine/store/run_store_sink.h"
#include "engine/train/pipeline.h"
#include "engine/train/stages.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_pipeline {

using namespace adala;
namespace fs = std::filesystem;

namespace {

ExperimentConfig micro_config(const std::string& runs_dir) {
  Json doc = parse_json_strict(
      "{\"name\":\"micro\",\"seed\":3,\"device\":\"cpu\",\"model\":{\"preset\":\"fmnist_micro\"},"
      "\"data\":{\"train_limit\":256,\"test_limit\":128},"
      "\"stages\":{\"teacher\":{\"max_steps\":12,\"batch_size\":32,\"checkpoint_every\":4},"
      "\"attention_alignment\":{\"max_steps\":8,\"batch_size\":32,\"checkpoint_every\":4},"
      "\"feature_alignment\":{\"max_steps\":8,\"batch_size\":32,\"checkpoint_every\":4},"
      "\"fine_tuning\":{\"max_steps\":8,\"batch_size\":32,\"checkpoint_every\":4}}}");
  doc["output"] = Json::object();
  doc["output"]["runs_dir"] = Json(runs_dir);
  return parse_experiment_config(doc);
}

std::string fresh(const std::string& name) { return adala_test::fresh_test_dir("pipeline", name); }

class CancelAt : public EventSink {
 public:
  CancelAt(EventSink& inner, JobControl& c, std::string stage, int64_t step)
      : inner_(inner), control_(c), stage_(std::move(stage)), step_(step) {}
  void on_event(const Event& e) override {
    inner_.on_event(e);
    if (const auto* m = std::get_if<StepMetrics>(&e); m && m->stage == stage_ && m->step == step_)
      control_.request_cancel();
  }

 private:
  EventSink& inner_;
  JobControl& control_;
  std::string stage_;
  int64_t step_;
};

// Simulates a crash (no checkpoint) right after the given step was reported.
class CrashAt : public EventSink {
 public:
  CrashAt(EventSink& inner, std::string stage, int64_t step)
      : inner_(inner), stage_(std::move(stage)), step_(step) {}
  void on_event(const Event& e) override {
    inner_.on_event(e);
    if (const auto* m = std::get_if<StepMetrics>(&e); m && m->stage == stage_ && m->step == step_)
      throw std::runtime_error("simulated crash");
  }

 private:
  EventSink& inner_;
  std::string stage_;
  int64_t step_;
};

bool have_dataset() {
  return fs::exists(default_fashion_mnist_root() + "/train-images-idx3-ubyte.gz");
}

}  // namespace

class TestPipeline : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    if (!have_dataset()) QSKIP("dataset-fashion-mnist not installed");
  }

  void full_run_writes_every_stage() {
    const std::string dir = fresh("pipeline_full");
    ExperimentConfig c = micro_config(dir);
    RecordingSink sink;
    JobControl control;
    PipelineOptions o;
    o.run_dir = dir + "/run";
    PipelineResult r = run_pipeline(c, o, sink, control);
    for (int s = 0; s < 4; ++s) QVERIFY(fs::exists(stage_output_path(r.run_dir, s)));
    QVERIFY(r.teacher_top1 >= 0.0 && r.teacher_top1 <= 1.0);
    QVERIFY(r.student_top1 >= 0.0 && r.student_top1 <= 1.0);
    QCOMPARE(sink.steps(stage_name(0)).size(), size_t(12));
    QCOMPARE(sink.steps(stage_name(1)).front().per_block_mse.size(), size_t(2));
    // The student file is a linear-attention model; the teacher file a softmax one.
    auto student = load_model(stage_output_path(r.run_dir, 3), torch::kCPU);
    QVERIFY(student->attention_modes()[0] == AttentionMode::Linear);
    auto teacher = load_model(stage_output_path(r.run_dir, 0), torch::kCPU);
    QVERIFY(teacher->attention_modes()[0] == AttentionMode::Softmax);
    // The reported teacher accuracy is reproducible from the saved file.
    auto test = load_fashion_mnist(default_fashion_mnist_root(), "test", 128);
    // The same weights (read back from the file) and images (the loader decodes them as
    // load_fashion_mnist does, bit for bit) in one batch: the same count of correct over 128.
    ADALA_COMPARE_EXACT(evaluate_top1(teacher, test, torch::kCPU), r.teacher_top1);
    QCOMPARE(load_run_stages(r.run_dir), (std::vector<int>{0, 1, 2, 3}));
  }

  void resume_after_crash_continues_metrics_without_gaps() {
    const std::string dir = fresh("pipeline_resume");
    ExperimentConfig c = micro_config(dir);
    store::RunStore db(dir + "/runs.sqlite");
    const int64_t run = db.create_run("micro", c.source.dump(), "cpu", "test", "test");
    db.set_run_status(run, store::RunStatus::Running);
    store::RunStoreSink db_sink(db, run);
    PipelineOptions o;
    o.run_dir = dir + "/run";
    {
      // A crash after step 6 of Stage 2: the last checkpoint is at step 4, the database
      // already holds metrics for steps 5 and 6.
      JobControl control;
      CrashAt crash(db_sink, stage_name(2), 6);
      QVERIFY_EXCEPTION_THROWN(run_pipeline(c, o, crash, control), std::runtime_error);
    }
    QCOMPARE(db.last_metric_step(run, stage_name(2)), int64_t(6));
    QVERIFY(fs::exists(stage_output_path(o.run_dir, 1)));
    QVERIFY(!fs::exists(stage_output_path(o.run_dir, 2)));
    RecordingSink resumed;
    FanOutSink both;
    both.add(db_sink);
    both.add(resumed);
    JobControl control;
    run_pipeline(c, o, both, control);
    db.set_run_status(run, store::RunStatus::Done);
    // Completed stages are not trained again; Stage 2 resumes from its step-4 checkpoint.
    QVERIFY(resumed.steps(stage_name(0)).empty());
    QVERIFY(resumed.steps(stage_name(1)).empty());
    QCOMPARE(resumed.steps(stage_name(2)).front().step, int64_t(5));
    std::vector<int64_t> steps;
    for (const auto& m : db.metrics(run, stage_name(2), "loss")) steps.push_back(m.step);
    QCOMPARE(steps, (std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
    // Per-block MSE rows: one per block and step.
    QCOMPARE(db.metrics(run, stage_name(1), "block_mse").size(), size_t(8 * 2));
    auto evals = db.evaluations(run);
    QVERIFY(evals.count(std::string(stage_name(0)) + "/top1"));
    QVERIFY(evals.count(std::string(stage_name(3)) + "/top1"));
  }

  void cancel_checkpoints_where_it_stops() {
    const std::string dir = fresh("pipeline_cancel");
    ExperimentConfig c = micro_config(dir);
    PipelineOptions o;
    o.run_dir = dir + "/run";
    RecordingSink first;
    {
      JobControl control;
      CancelAt cancel(first, control, stage_name(3), 3);
      QVERIFY_EXCEPTION_THROWN(run_pipeline(c, o, cancel, control), JobCancelled);
    }
    RecordingSink resumed;
    JobControl control;
    run_pipeline(c, o, resumed, control);
    QCOMPARE(resumed.steps(stage_name(3)).front().step, int64_t(4));
    QCOMPARE(resumed.steps(stage_name(3)).size(), size_t(5));
  }

  void stage_selection_picks_the_student_start() {
    const std::string dir = fresh("pipeline_select");
    ExperimentConfig c = micro_config(dir);
    NullSink sink;
    JobControl control;
    PipelineOptions teacher_only;
    teacher_only.stages = {0};
    teacher_only.run_dir = dir + "/teacher";
    run_pipeline(c, teacher_only, sink, control);
    // Naive swap: Stage 3 alone starts from the teacher with copied linear weights.
    ExperimentConfig s = c;
    s.teacher_weights = stage_output_path(dir + "/teacher", 0);
    PipelineOptions naive;
    naive.stages = {3};
    naive.run_dir = dir + "/naive";
    RecordingSink naive_sink;
    PipelineResult r = run_pipeline(s, naive, naive_sink, control);
    QVERIFY(!fs::exists(stage_output_path(naive.run_dir, 1)));
    QVERIFY(!fs::exists(stage_output_path(naive.run_dir, 2)));
    QVERIFY(fs::exists(stage_output_path(naive.run_dir, 3)));
    QVERIFY(naive_sink.steps(stage_name(0)).empty());
    QVERIFY(!std::isnan(r.student_top1));
    // A stage switched off in the config ("enabled": false) is skipped by a default run
    // (Stage 2 only: the paper's "no attention alignment" row), and the log says so.
    ExperimentConfig no_stage1 = s;
    no_stage1.attention_alignment.enabled = false;
    PipelineOptions all;
    all.run_dir = dir + "/no-stage1";
    RecordingSink no_stage1_sink;
    run_pipeline(no_stage1, all, no_stage1_sink, control);
    QVERIFY(!fs::exists(stage_output_path(all.run_dir, 1)));
    QVERIFY(fs::exists(stage_output_path(all.run_dir, 2)));
    QVERIFY(no_stage1_sink.steps(stage_name(1)).empty());
    QCOMPARE(no_stage1_sink.steps(stage_name(2)).size(), size_t(8));
    QCOMPARE(load_run_stages(all.run_dir), (std::vector<int>{0, 2, 3}));
    // Without a teacher nothing can start, and the error says which field to set.
    PipelineOptions none;
    none.stages = {1};
    none.run_dir = dir + "/none";
    try {
      run_pipeline(c, none, sink, control);
      QFAIL("no error");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.field()), QString("teacher.weights"));
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestPipeline)
}  // namespace test_pipeline

#include "test_pipeline.moc"
