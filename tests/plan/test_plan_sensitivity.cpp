// The planner's sensitivity (engine/plan/plan_sensitivity.h) on a micro model trained a few
// steps (Stages 0 and 1) on a slice of Fashion-MNIST: each single-block drop is the drop one
// measures by running that plan, the teacher plan's drop is 0, each block's MSE is the Stage-1
// loss on the held-out slice; and the held-out slice is the training data's last images.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>

#include "engine/data/fashion_mnist.h"
#include "engine/plan/held_out_data.h"
#include "engine/plan/plan_request.h"
#include "engine/plan/plan_sensitivity.h"
#include "engine/train/pipeline.h"
#include "engine/train/run_model.h"
#include "engine/train/stages.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_plan_sensitivity {

using namespace adala;
using namespace adala::plan;
namespace fs = std::filesystem;
using M = AttentionMode;

namespace {

bool have_dataset() {
  return fs::exists(default_fashion_mnist_root() + "/train-images-idx3-ubyte.gz");
}

ExperimentConfig micro_config(const std::string& runs_dir) {
  Json doc = parse_json_strict(R"({"name": "plan-sensitivity", "seed": 3, "device": "cpu",
    "model": {"preset": "fmnist_micro"},
    "data": {"train_limit": 160, "test_limit": 64, "decode_threads": 0},
    "stages": {
      "teacher": {"max_steps": 30, "batch_size": 32, "lr": 0.003},
      "attention_alignment": {"max_steps": 3, "batch_size": 32},
      "feature_alignment": {"max_steps": 1, "batch_size": 32},
      "fine_tuning": {"max_steps": 1, "batch_size": 32}}})");
  doc["output"] = Json::object();
  doc["output"]["runs_dir"] = Json(runs_dir);
  return parse_experiment_config(doc);
}

}  // namespace

class TestPlanSensitivity : public QObject {
  Q_OBJECT
 private slots:
  void held_out_slice_is_the_training_tail() {
    if (!have_dataset()) QSKIP("Fashion-MNIST is not installed");
    const ExperimentConfig c = micro_config(ADALA_TEST_TMP);
    const StageData train = open_training_data(c);
    QCOMPARE(train.size(), int64_t(160));
    const StageData held = held_out_slice(train, 32);
    QCOMPARE(held.size(), int64_t(32));
    for (int64_t i : {0, 31})
      QVERIFY(torch::equal(held.dataset->get(i).image, train.dataset->get(128 + i).image));
    QVERIFY_THROWS_EXCEPTION(PlanInputError, held_out_slice(train, 160));
    // The planner's runs train on the first 128 only.
    const ExperimentConfig without = config_without_held_out(c, 160, 32);
    QCOMPARE(without.data.train.limit, int64_t(128));
    QCOMPARE(without.data.alignment.limit, int64_t(128));
    QCOMPARE(without.data.eval.split, std::string("test"));
  }

  void single_block_drops_are_the_measured_drops() {
    if (!have_dataset()) QSKIP("Fashion-MNIST is not installed");
    torch::manual_seed(0);
    const std::string dir = std::string(ADALA_TEST_TMP) + "/plan_sensitivity-" +
                            std::to_string(QCoreApplication::applicationPid());
    fs::remove_all(dir);
    const ExperimentConfig c = micro_config(dir);
    PipelineOptions options;
    options.stages = {0, 1};
    options.run_dir = dir + "/run";
    options.device = "cpu";
    NullSink sink;
    JobControl control;
    run_pipeline(c, options, sink, control);

    const c10::Device cpu(c10::kCPU);
    VisionTransformer stage1 =
        load_run_model(c, stage_output_path(options.run_dir, 1), cpu, false, sink);
    VisionTransformer teacher =
        load_run_model(c, stage_output_path(options.run_dir, 0), cpu, false, sink);
    const StageData held = held_out_slice(open_training_data(c), 48);
    const Sensitivity s = measure_sensitivity(stage1, held, cpu);
    QCOMPARE(s.blocks.size(), size_t(2));
    // The teacher plan: the teacher itself, drop 0.
    teacher->set_attention_mode(M::Softmax);
    // top-1: a whole count of correct predictions over the 48 images, one division. Stage 1
    // trains only the linear attention's parameters, so the softmax plan is the teacher's
    // forward: the same count, the same double; the second call is the very same computation.
    ADALA_COMPARE_EXACT(s.teacher_top1, evaluate_top1(teacher, held, cpu));
    ADALA_COMPARE_EXACT(
        plan_held_out_top1(stage1, uniform_attention_plan(2, M::Softmax), held, cpu),
        s.teacher_top1);
    // Each block alone linear, measured afresh on a freshly loaded model.
    VisionTransformer fresh =
        load_run_model(c, stage_output_path(options.run_dir, 1), cpu, false, sink);
    for (int64_t b = 0; b < 2; ++b) {
      AttentionPlan alone = uniform_attention_plan(2, M::Softmax);
      alone.modes[size_t(b)] = M::Linear;
      fresh->set_attention_plan(alone);
      const double top1 = evaluate_top1(fresh, held, cpu);
      // The same plan on the same weights and data (a count over 48), and the drop by the
      // engine's formula on those same doubles.
      ADALA_COMPARE_EXACT(s.blocks[size_t(b)].held_out_top1, top1);
      ADALA_COMPARE_EXACT(s.blocks[size_t(b)].drop_points, 100.0 * (s.teacher_top1 - top1));
    }
    // The MSE: the Stage-1 loss of the whole held-out slice in one batch.
    fresh->set_attention_plan(uniform_attention_plan(2, M::Linear));
    std::vector<at::Tensor> images;
    for (int64_t i = 0; i < held.size(); ++i)
      images.push_back(held.dataset->get(i).image.to(torch::kFloat).div(255.0));
    torch::NoGradGuard no_grad;
    const StepOutput loss = AttentionAlignmentStage::loss(fresh, torch::stack(images));
    for (int64_t b = 0; b < 2; ++b) {
      const double want = loss.per_block_mse[size_t(b)], got = s.blocks[size_t(b)].attention_mse;
      QVERIFY2(std::abs(got - want) <= 1e-4 * std::abs(want) + 1e-9,
               qPrintable(QString("block %1: %2 vs %3").arg(b).arg(got).arg(want)));
      QVERIFY(got > 0);
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestPlanSensitivity)
}  // namespace test_plan_sensitivity

#include "test_plan_sensitivity.moc"
