// The stages under a per-block attention plan (engine/model/attention_plan.h): Stage 1 trains
// and reports only the blocks the plan linearises (the others' weights bit-identical, their MSE
// absent from the events and the run database); the whole pipeline on a micro model and a slice
// of Fashion-MNIST writes the plan into every stage's output and the student reloads with its
// top-1.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <set>

#include "engine/data/fashion_mnist.h"
#include "engine/io/safetensors.h"
#include "engine/model/load_weights.h"
#include "engine/store/run_store.h"
#include "engine/store/run_store_sink.h"
#include "engine/train/pipeline.h"
#include "engine/train/stages.h"
#include "tests/support/micro_config.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_hybrid_stages {

using namespace adala;
using M = AttentionMode;
namespace fs = std::filesystem;

namespace {

std::map<std::string, torch::Tensor> snapshot(VisionTransformer& m) {
  std::map<std::string, torch::Tensor> out;
  for (const auto& p : m->named_parameters()) out[p.key()] = p.value().detach().clone();
  return out;
}

int64_t block_of(const std::string& name) {
  return name.rfind("blocks.", 0) == 0 ? std::stoll(name.substr(7)) : -1;
}

bool is_linear_path(const std::string& name) {
  return name.find(".attn.linear.") != std::string::npos;
}

bool have_dataset() {
  return fs::exists(default_fashion_mnist_root() + "/train-images-idx3-ubyte.gz");
}

}  // namespace

class TestHybridStages : public QObject {
  Q_OBJECT
 private slots:
  void stage1_trains_and_reports_only_the_linearised_blocks() {
    ExperimentConfig c = adala_test::micro_experiment_config(10);
    c.model.depth = 3;
    c.attention.modes = {M::Linear, M::Softmax, M::WindowLinear};
    c.attention.window = 3;
    torch::manual_seed(5);
    VisionTransformer teacher(c.model);
    {
      // A linear path away from the softmax one, so that every aligned block has a loss.
      torch::NoGradGuard no_grad;
      for (int64_t b = 0; b < teacher->depth(); ++b) {
        auto& w = teacher->block(b)->attn->linear->qkv->weight;
        w.add_(torch::randn_like(w) * 0.2);
      }
    }
    // Block 2's window path and its gamma exist once the plan shapes the linear paths, as
    // Stage 1 does first.
    teacher->set_linear_paths(student_attention_plan(c));
    const auto start = snapshot(teacher);
    const std::string dir = adala_test::fresh_test_dir("hybrid_stages", "stage1");
    store::RunStore db(dir + "/runs.sqlite");
    const int64_t run = db.create_run("hybrid", "{}", "cpu", "test", "test");
    store::RunStoreSink db_sink(db, run);
    RecordingSink recorded;
    FanOutSink sink;
    sink.add(recorded);
    sink.add(db_sink);
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    AttentionAlignmentStage(ctx).run(teacher, torch::rand({16, 1, 28, 28}));
    int changed = 0;
    for (const auto& p : teacher->named_parameters()) {
      const std::string& name = p.key();
      const bool same = torch::equal(p.value(), start.at(name));
      const bool aligned = block_of(name) == 0 || block_of(name) == 2;
      if (is_linear_path(name) && aligned) {
        changed += !same;
      } else {
        QVERIFY2(same, name.c_str());  // the teacher, and block 1's linear path
      }
    }
    QVERIFY(changed > 0);
    QVERIFY(!torch::equal(teacher->block(2)->attn->linear->window_mixing->log_gamma,
                          start.at("blocks.2.attn.linear.window_mixing.log_gamma")));
    // The model still runs as the teacher; block 2's linear path has its window.
    QVERIFY(teacher->attention_modes() == std::vector<M>(3, M::Softmax));
    QCOMPARE(teacher->block(2)->attn->linear->window(), int64_t(3));
    QVERIFY(!teacher->block(1)->attn->linear->window_mixing);

    // Events: block 1 has no MSE (NaN), the loss is the mean over blocks 0 and 2.
    const auto steps = recorded.steps(stage_name(1));
    QCOMPARE(steps.size(), size_t(10));
    for (const auto& m : steps) {
      QCOMPARE(m.per_block_mse.size(), size_t(3));
      QVERIFY(std::isnan(m.per_block_mse[1]));
      QVERIFY(m.per_block_mse[0] > 0 && m.per_block_mse[2] > 0);
      const double mean = (m.per_block_mse[0] + m.per_block_mse[2]) / 2;
      QVERIFY2(std::abs(m.loss - mean) <= 1e-6 * mean,
               qPrintable(QString("loss %1, mean %2").arg(m.loss).arg(mean)));
    }
    // The run database has block_mse rows for blocks 0 and 2 only.
    db.flush();
    std::set<int> blocks;
    for (const auto& row : db.metrics(run, stage_name(1), "block_mse")) blocks.insert(row.block);
    QCOMPARE(blocks, (std::set<int>{0, 2}));
  }

  void lolcats_stage1_trains_window_linear_blocks() {
    // lolcats' default plan: every block window+linear (k = 3) with the Hedgehog map; Stage 1
    // learns the projections, the feature maps and gamma of every block.
    ExperimentConfig c = adala_test::micro_experiment_config(4);
    c.method = LinearisationMethod::Lolcats;
    c.model.feature_map = "hedgehog";
    torch::manual_seed(4);
    VisionTransformer teacher(c.model);
    RecordingSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    AttentionAlignmentStage(ctx).run(teacher, torch::rand({16, 1, 28, 28}));
    for (int64_t b = 0; b < teacher->depth(); ++b) {
      auto& linear = teacher->block(b)->attn->linear;
      QCOMPARE(linear->window(), int64_t(3));
      QVERIFY(!torch::equal(linear->window_mixing->log_gamma, torch::zeros({2})));
    }
    for (const auto& m : sink.steps(stage_name(1)))
      for (double mse : m.per_block_mse) QVERIFY(std::isfinite(mse) && mse > 0);
  }

  void stage1_loss_without_a_plan_is_every_block() {
    // The default (every block aligned) is the loss it always was: the mean of all blocks.
    torch::manual_seed(2);
    VisionTransformer teacher(vit_preset("fmnist_micro"));
    auto batch = torch::rand({4, 1, 28, 28});
    const auto all = AttentionAlignmentStage::loss(teacher, batch);
    const auto planned = AttentionAlignmentStage::loss(teacher, batch, {true, true});
    QVERIFY(torch::equal(all.loss, planned.loss));
    // {true, true} aligns every block as {} does: the same computation, the same bits.
    ADALA_COMPARE_EXACT(all.per_block_mse, planned.per_block_mse);
    const auto one = AttentionAlignmentStage::loss(teacher, batch, {false, true});
    QVERIFY(std::isnan(one.per_block_mse[0]));
    // Block 0's softmax forward is the same ops whether aligned or not (forward_alignment's next
    // is forward_softmax's), so block 1 sees the same input and gives the same MSE.
    ADALA_COMPARE_EXACT(one.per_block_mse[1], all.per_block_mse[1]);
    // The mean of one float32 value is that value.
    ADALA_COMPARE_EXACT(one.loss.item<double>(), one.per_block_mse[1]);
  }

  void pipeline_runs_and_records_the_plan() {
    if (!have_dataset()) QSKIP("dataset-fashion-mnist not installed");
    const std::string dir = adala_test::fresh_test_dir("hybrid_stages", "pipeline");
    Json doc = parse_json_strict(
        R"({"name":"hybrid","seed":3,"device":"cpu","model":{"preset":"fmnist_micro"},)"
        R"("attention":{"blocks":["softmax","window+linear"]},)"
        R"("data":{"train_limit":256,"test_limit":128},)"
        R"("stages":{"teacher":{"max_steps":8,"batch_size":32},)"
        R"("attention_alignment":{"max_steps":6,"batch_size":32},)"
        R"("feature_alignment":{"max_steps":6,"batch_size":32},)"
        R"("fine_tuning":{"max_steps":6,"batch_size":32}}})");
    doc["output"] = Json::object({{"runs_dir", dir}});
    const ExperimentConfig c = parse_experiment_config(doc);
    RecordingSink sink;
    JobControl control;
    PipelineOptions o;
    o.run_dir = dir + "/run";
    const PipelineResult r = run_pipeline(c, o, sink, control);
    // Every student stage's output records the plan; the teacher's is softmax.
    for (int s = 1; s < 4; ++s) {
      const auto meta = SafetensorsReader(stage_output_path(r.run_dir, s)).metadata();
      QCOMPARE(meta.at("adala.attention_modes"), std::string("softmax,window+linear"));
      QCOMPARE(meta.at("adala.attention_window"), std::string("3"));
    }
    const auto teacher_meta = SafetensorsReader(stage_output_path(r.run_dir, 0)).metadata();
    QCOMPARE(teacher_meta.at("adala.attention_modes"), std::string("softmax,softmax"));
    QVERIFY(!teacher_meta.count("adala.attention_window"));
    // Stage 1 measured block 1 only.
    for (const auto& m : sink.steps(stage_name(1)))
      QVERIFY(std::isnan(m.per_block_mse[0]) && std::isfinite(m.per_block_mse[1]));
    // The student file reloads as planned with no options, and gives the run's top-1.
    VisionTransformer student = load_model(stage_output_path(r.run_dir, 3), torch::kCPU);
    QVERIFY(student->attention_plan() == c.attention);
    auto test = load_fashion_mnist(default_fashion_mnist_root(), "test", 128);
    // The same weights (read back from the file) and images (the loader decodes them as
    // load_fashion_mnist does, bit for bit) in one batch: the same count of correct over 128.
    ADALA_COMPARE_EXACT(evaluate_top1(student, test, torch::kCPU), r.student_top1);
    // Stages 2-3 trained block 0's softmax path (it runs), not its linear path (it does not):
    // that is still the teacher's copy of its own softmax weights.
    VisionTransformer teacher = load_model(stage_output_path(r.run_dir, 0), torch::kCPU);
    QVERIFY(
        !torch::equal(student->block(0)->attn->qkv->weight, teacher->block(0)->attn->qkv->weight));
    QVERIFY(torch::equal(student->block(0)->attn->linear->qkv->weight,
                         teacher->block(0)->attn->qkv->weight));
  }
};

ADALA_TEST_GUILESS_MAIN(TestHybridStages)
}  // namespace test_hybrid_stages

#include "test_hybrid_stages.moc"
