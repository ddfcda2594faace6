// A checkpoint of a hybrid student (softmax, linear and window+linear blocks: attention_plan.h)
// in use: load_inference_model rebuilds its plan from the file alone and gives the saved model's
// logits bit for bit; `adala export` keeps only the attention each block runs (window mixing
// gamma included) and its reload does the same.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <string>

#include "engine/infer/export_model.h"
#include "engine/infer/inference_model.h"
#include "engine/io/safetensors.h"
#include "engine/model/load_weights.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_hybrid_checkpoint {

using namespace adala;
using M = AttentionMode;

class TestHybridCheckpoint : public QObject {
  Q_OBJECT
 private:
  std::string dir_;
  AttentionPlan plan_;
  VisionTransformer model_{nullptr};
  std::string path_;

 private slots:
  void initTestCase() {
    dir_ = adala_test::fresh_test_dir("hybrid_checkpoint", "files");
    ViTConfig c = vit_preset("fmnist_micro");
    c.depth = 3;
    c.feature_map = "hedgehog";  // a linear path with a feature map of its own to export
    plan_.modes = {M::WindowLinear, M::Softmax, M::Linear};
    plan_.window = 5;
    torch::manual_seed(9);
    model_ = VisionTransformer(c);
    model_->set_attention_plan(plan_);
    {
      torch::NoGradGuard no_grad;
      for (auto& p : model_->parameters()) p.add_(torch::randn_like(p) * 0.1);
    }
    model_->eval();
    path_ = dir_ + "/hybrid.safetensors";
    save_weights(model_, path_);
  }

  void inference_model_reproduces_the_plan() {
    InferenceModel m = load_inference_model(path_, torch::kCPU);
    QVERIFY(m.model->attention_plan() == plan_);
    torch::NoGradGuard no_grad;
    auto images = torch::rand({5, 1, 28, 28});
    QVERIFY(torch::equal(m.model->forward(images), model_->forward(images)));
  }

  void export_keeps_what_runs_and_reloads_the_same() {
    const std::string out = dir_ + "/exported.safetensors";
    const ExportSummary s = export_model(path_, out);
    QCOMPARE(s.linear_blocks, int64_t(2));
    QCOMPARE(s.window_blocks, int64_t(1));
    QCOMPARE(s.softmax_blocks, int64_t(1));
    const SafetensorsReader reader(out);
    for (const auto& t : reader.tensors())
      QVERIFY2(t.name.find(".linear.") == std::string::npos, t.name.c_str());
    QVERIFY(reader.contains("blocks.0.attn.window_mixing.log_gamma"));
    QVERIFY(reader.contains("blocks.0.attn.feature_map.q.weight"));
    QVERIFY(!reader.contains("blocks.1.attn.feature_map.q.weight"));  // softmax: no linear path
    QCOMPARE(reader.metadata().at("adala.attention_modes"),
             std::string("window+linear,softmax,linear"));
    QCOMPARE(reader.metadata().at("adala.attention_window"), std::string("5"));
    InferenceModel m = load_inference_model(out, torch::kCPU);
    QVERIFY(m.model->attention_plan() == plan_);
    torch::NoGradGuard no_grad;
    auto images = torch::rand({5, 1, 28, 28});
    QVERIFY(torch::equal(m.model->forward(images), model_->forward(images)));
  }
};

ADALA_TEST_GUILESS_MAIN(TestHybridCheckpoint)
}  // namespace test_hybrid_checkpoint

#include "test_hybrid_checkpoint.moc"
