// Linearisation methods (engine/train/linearisation_method.h): the config fields and their
// malformed cases, LoRA in the linear attention, lolcats' Stage 3 (only LoRA + head learn),
// hedgehog's Stage 1 (only the feature map learns, by the attention-weight cross-entropy),
// Stage 2's q/k/v-only option, and the stage plan per method.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <map>

#include "engine/model/attention_weight_loss.h"
#include "engine/model/vit_lora.h"
#include "engine/train/attention_weight_alignment.h"
#include "engine/train/stages.h"
#include "tests/support/config_errors.h"
#include "tests/support/micro_config.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_methods {

using namespace adala;

namespace {

std::string error_of(const std::string& text) { return adala_test::config_error_of(text); }

std::map<std::string, torch::Tensor> snapshot(VisionTransformer& model) {
  std::map<std::string, torch::Tensor> out;
  for (const auto& p : model->named_parameters()) out[p.key()] = p.value().detach().clone();
  return out;
}

bool identical(const torch::Tensor& a, const torch::Tensor& b) {
  return a.sizes() == b.sizes() && torch::equal(a, b);
}

std::vector<double> losses(const RecordingSink& sink, const std::string& stage) {
  std::vector<double> out;
  for (const auto& m : sink.steps(stage)) out.push_back(m.loss);
  return out;
}

// fmnist_micro, every stage `steps` steps of batch 8 at lr 3e-3, no checkpoints.
ExperimentConfig micro(LinearisationMethod method, int64_t steps) {
  ExperimentConfig c = adala_test::micro_experiment_config(steps);
  c.method = method;
  if (!method_feature_map(method).empty()) c.model.feature_map = method_feature_map(method);
  c.lora_rank = 2;
  c.lora_alpha = 4.0;
  c.attention_rows = 8;
  return c;
}

}  // namespace

class TestMethods : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(0); }

  void method_fields_parse() {
    const auto plain = parse_experiment_config(parse_json_strict("{}"));
    QVERIFY(plain.method == LinearisationMethod::Adala);
    QCOMPARE(QString::fromStdString(plain.model.feature_map), QString("elu1"));
    QCOMPARE(QString::fromStdString(plain.feature_alignment.trainable), QString("all"));
    const auto lolcats = parse_experiment_config(parse_json_strict(
        "{\"method\":\"lolcats\",\"lora_rank\":4,\"lora_alpha\":8,\"attention_rows\":16}"));
    QVERIFY(lolcats.method == LinearisationMethod::Lolcats);
    QCOMPARE(lolcats.lora_rank, int64_t(4));
    ADALA_COMPARE_EXACT(lolcats.lora_alpha, 8.0);  // the JSON's 8, read as a double
    QCOMPARE(lolcats.attention_rows, int64_t(16));
    // lolcats and hedgehog bring the Hedgehog feature map; saying so explicitly is fine.
    QCOMPARE(QString::fromStdString(lolcats.model.feature_map), QString("hedgehog"));
    const auto hedgehog = parse_experiment_config(
        parse_json_strict("{\"method\":\"hedgehog\",\"model\":{\"feature_map\":\"hedgehog\"}}"));
    QVERIFY(hedgehog.method == LinearisationMethod::Hedgehog);
    const auto naive = parse_experiment_config(
        parse_json_strict("{\"method\":\"naive\",\"model\":{\"feature_map\":\"relu\"}}"));
    QVERIFY(naive.method == LinearisationMethod::Naive);
    // performer brings its own map, with the config's Performer fields.
    const auto performer = parse_experiment_config(
        parse_json_strict("{\"method\":\"performer\",\"model\":{\"performer_features\":48,"
                          "\"performer_redraw_interval\":10,\"performer_seed\":3}}"));
    QVERIFY(performer.method == LinearisationMethod::Performer);
    QCOMPARE(QString::fromStdString(performer.model.feature_map), QString("performer"));
    QCOMPARE(performer.model.performer_features, int64_t(48));
    QCOMPARE(performer.model.performer_redraw_interval, int64_t(10));
    QCOMPARE(performer.model.performer_seed, int64_t(3));
    QCOMPARE(QString(to_string(linearisation_method_from_string("performer"))),
             QString("performer"));
    QCOMPARE(QString::fromStdString(method_feature_map(LinearisationMethod::Performer)),
             QString("performer"));
    QVERIFY(method_feature_map(LinearisationMethod::Adala).empty());
    QCOMPARE(QString::fromStdString(naive.model.feature_map), QString("relu"));
    const auto qkv = parse_experiment_config(
        parse_json_strict("{\"stages\":{\"feature_alignment\":{\"trainable\":\"qkv\"}}}"));
    QCOMPARE(QString::fromStdString(qkv.feature_alignment.trainable), QString("qkv"));
    QVERIFY(qkv.feature_alignment.align_blocks.empty());
    const auto blocks = parse_experiment_config(
        parse_json_strict("{\"stages\":{\"feature_alignment\":{\"align_blocks\":[2,4,3]}}}"));
    QCOMPARE(blocks.feature_alignment.align_blocks, (std::vector<int64_t>{2, 4, 3}));
    for (const auto& name : linearisation_method_names())
      QCOMPARE(QString(to_string(linearisation_method_from_string(name))),
               QString::fromStdString(name));
  }

  void malformed_method_fields_data() {
    QTest::addColumn<QString>("doc");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown method")
        << "{\"method\":\"lolcat\"}"
        << "method: unknown value \"lolcat\" (allowed: adala, lolcats, hedgehog, performer, naive)";
    QTest::newRow("method not a string") << "{\"method\":3}"
                                         << "method: expected a string, got integer";
    QTest::newRow("empty method") << "{\"method\":\"\"}"
                                  << "method: unknown value \"\"";
    QTest::newRow("lora_rank 0") << "{\"lora_rank\":0}"
                                 << "lora_rank: out of range: 0";
    QTest::newRow("lora_rank negative") << "{\"lora_rank\":-4}"
                                        << "lora_rank: out of range: -4";
    QTest::newRow("lora_rank fraction") << "{\"lora_rank\":2.5}"
                                        << "lora_rank: expected an integer";
    QTest::newRow("lora_rank string") << "{\"lora_rank\":\"8\"}"
                                      << "lora_rank: expected an integer";
    QTest::newRow("lora_rank above width")
        << "{\"method\":\"lolcats\",\"lora_rank\":4000,\"model\":{\"preset\":\"fmnist_micro\"}}"
        << "lora_rank: 4000 exceeds the model's width";
    QTest::newRow("lora_alpha 0") << "{\"lora_alpha\":0}"
                                  << "lora_alpha: out of range: 0";
    QTest::newRow("attention_rows 0") << "{\"attention_rows\":0}"
                                      << "attention_rows: out of range: 0";
    QTest::newRow("feature map conflict")
        << "{\"method\":\"lolcats\",\"model\":{\"feature_map\":\"relu\"}}"
        << "model.feature_map: method \"lolcats\" uses the hedgehog feature map";
    QTest::newRow("hedgehog with elu1")
        << "{\"method\":\"hedgehog\",\"model\":{\"feature_map\":\"elu1\"}}"
        << "model.feature_map: method \"hedgehog\" uses the hedgehog feature map";
    QTest::newRow("performer with relu")
        << "{\"method\":\"performer\",\"model\":{\"feature_map\":\"relu\"}}"
        << "model.feature_map: method \"performer\" uses the performer feature map";
    QTest::newRow("performer features negative")
        << "{\"method\":\"performer\",\"model\":{\"performer_features\":-8}}"
        << "model.performer_features: out of range: -8";
    QTest::newRow("trainable unknown")
        << "{\"stages\":{\"feature_alignment\":{\"trainable\":\"mlp\"}}}"
        << "stages.feature_alignment.trainable: unknown value \"mlp\" (allowed: all, qkv)";
    QTest::newRow("trainable qkv outside Stage 2")
        << "{\"stages\":{\"fine_tuning\":{\"trainable\":\"qkv\"}}}"
        << "stages.fine_tuning.trainable: \"qkv\" is for stages.feature_alignment only";
    QTest::newRow("align_blocks outside Stage 2")
        << "{\"stages\":{\"attention_alignment\":{\"align_blocks\":[1]}}}"
        << "stages.attention_alignment.align_blocks: is for stages.feature_alignment only";
    QTest::newRow("align_blocks deeper than the model")
        << "{\"model\":{\"preset\":\"fmnist_micro\"},"
           "\"stages\":{\"feature_alignment\":{\"align_blocks\":[1,9]}}}"
        << "stages.feature_alignment.align_blocks: block 9 outside 1..";
    QTest::newRow("align_blocks twice")
        << "{\"stages\":{\"feature_alignment\":{\"align_blocks\":[2,2]}}}"
        << "stages.feature_alignment.align_blocks: block 2 is listed twice";
    QTest::newRow("align_blocks empty")
        << "{\"stages\":{\"feature_alignment\":{\"align_blocks\":[]}}}"
        << "stages.feature_alignment.align_blocks:";
    QTest::newRow("align_blocks zero")
        << "{\"stages\":{\"feature_alignment\":{\"align_blocks\":[0]}}}"
        << "stages.feature_alignment.align_blocks";
    QTest::newRow("align_blocks in a segmentation head")
        << "{\"segmentation\":{\"mask2former\":{\"align_blocks\":[1]}}}"
        << "segmentation.mask2former.align_blocks: is for stages.feature_alignment only";
    QTest::newRow("trainable not a string")
        << "{\"stages\":{\"feature_alignment\":{\"trainable\":true}}}"
        << "stages.feature_alignment.trainable: expected a string, got boolean";
  }
  void malformed_method_fields() {
    QFETCH(QString, doc);
    QFETCH(QString, expected);
    const QString error = QString::fromStdString(error_of(doc.toStdString()));
    QVERIFY2(error.startsWith(expected), qPrintable(error));
  }

  void method_names_from_strings() {
    QVERIFY_EXCEPTION_THROWN(linearisation_method_from_string("LoLCATs"), std::invalid_argument);
    try {
      linearisation_method_from_string("monarch");
      QFAIL("no exception");
    } catch (const std::invalid_argument& e) {
      QVERIFY(std::string(e.what()).find("\"monarch\"") != std::string::npos);
    }
  }

  void stage_plan_per_method() {
    using M = LinearisationMethod;
    auto plan = [](M m) {
      std::vector<int> s;
      for (int i = 0; i < 4; ++i)
        if (method_uses_stage(m, i)) s.push_back(i);
      return s;
    };
    QCOMPARE(plan(M::Adala), std::vector<int>({0, 1, 2, 3}));
    QCOMPARE(plan(M::Lolcats), std::vector<int>({0, 1, 3}));
    QCOMPARE(plan(M::Hedgehog), std::vector<int>({0, 1, 3}));
    QCOMPARE(plan(M::Performer), std::vector<int>({0, 1, 2, 3}));
    QCOMPARE(plan(M::Naive), std::vector<int>({0, 3}));
  }

  void lora_keeps_names_and_merges_exactly() {
    VisionTransformer model(vit_preset("fmnist_micro"));
    model->set_attention_mode(AttentionMode::Linear);
    const auto before = snapshot(model);
    const auto x = torch::rand({2, 1, 28, 28});
    const auto y0 = model->forward(x);
    add_linear_attention_lora(model, 2, 4.0);
    // A fresh LoRA computes what the model did (B = 0) and only adds the factors' names.
    QVERIFY(torch::equal(model->forward(x), y0));
    const auto names = snapshot(model);
    for (const auto& [name, t] : before) QVERIFY2(names.count(name), name.c_str());
    QCOMPARE(names.size(), before.size() + size_t(4 * model->depth()));
    QCOMPARE(linear_attention_lora_parameters(model).size(), size_t(4 * model->depth()));
    QVERIFY(names.count("blocks.0.attn.linear.qkv.lora_A"));
    QVERIFY(names.count("blocks.0.attn.linear.proj.lora_B"));
    {
      torch::NoGradGuard no_grad;
      for (auto& p : linear_attention_lora_parameters(model)) p.normal_(0.0, 0.05);
    }
    const auto with_lora = model->forward(x).detach();
    merge_linear_attention_lora(model);
    QCOMPARE(snapshot(model).size(), before.size());
    QVERIFY(torch::allclose(model->forward(x), with_lora, 1e-4, 1e-5));
  }

  // lolcats' Stage 3: the LoRA factors and the head learn; every other weight is bit-identical
  // after the steps, and each projection moved by a matrix of rank <= lora_rank.
  void lolcats_stage3_trains_only_lora_and_head() {
    ExperimentConfig c = micro(LinearisationMethod::Lolcats, 6);
    c.fine_tuning.weight_decay = 0.05;  // decay must not touch the frozen weights either
    VisionTransformer model(c.model);
    model->init_linear_from_softmax();
    model->set_attention_mode(AttentionMode::Linear);
    const auto before = snapshot(model);
    RecordingSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    ImageDataset data{torch::rand({32, 1, 28, 28}), torch::randint(0, 10, {32})};
    FineTuningStage(ctx).run(model, data);
    QCOMPARE(losses(sink, stage_name(3)).size(), size_t(6));
    const auto after = snapshot(model);
    QCOMPARE(after.size(), before.size());  // merged: no factors left
    int moved_projections = 0;
    for (const auto& [name, t] : before) {
      const bool head = name.rfind("head.", 0) == 0;
      const bool projection_weight = name.find(".attn.linear.qkv.weight") != std::string::npos ||
                                     name.find(".attn.linear.proj.weight") != std::string::npos;
      if (head) {
        QVERIFY2(!identical(t, after.at(name)), name.c_str());
      } else if (projection_weight) {
        const auto delta = (after.at(name) - t).to(torch::kDouble);
        QVERIFY2(delta.abs().max().item<double>() > 0, name.c_str());
        // Rank <= lora_rank, up to the float32 rounding of W + B A (singular values far below).
        const auto sv = at::linalg_svdvals(delta);
        const int64_t rank = (sv > sv.max() * 1e-3).sum().item<int64_t>();
        QVERIFY2(rank >= 1 && rank <= c.lora_rank, name.c_str());
        ++moved_projections;
      } else {
        // Biases of the projections, the feature maps, the MLPs, norms, embeddings, the
        // (unused) softmax branch: untouched.
        QVERIFY2(identical(t, after.at(name)), name.c_str());
      }
    }
    QCOMPARE(moved_projections, int(2 * model->depth()));
    for (const auto& p : model->parameters()) QVERIFY(p.requires_grad());  // restored
  }

  // Hedgehog's Stage-1 loss is the attention-weight loss of attention_weight_loss.h, per block,
  // on the teacher's block inputs.
  void hedgehog_loss_equals_the_direct_attention_weight_loss() {
    ExperimentConfig c = micro(LinearisationMethod::Hedgehog, 1);
    VisionTransformer teacher(c.model);
    teacher->init_linear_from_softmax();
    {
      torch::NoGradGuard no_grad;  // away from the identity, so the loss is not trivial
      for (auto& p : feature_map_parameters(teacher)) p.add_(torch::randn_like(p) * 0.3);
    }
    const auto batch = torch::rand({3, 1, 28, 28});
    const uint64_t seed = 42;
    const StepOutput out = attention_weight_alignment_loss(teacher, batch, 8, seed);
    QCOMPARE(out.per_block_mse.size(), size_t(teacher->depth()));
    torch::NoGradGuard no_grad;
    auto x = teacher->prepare_tokens(batch);
    const auto rows = sample_query_rows(x.size(1), 8, seed);
    double sum = 0;
    for (int64_t b = 0; b < teacher->depth(); ++b) {
      auto block = teacher->block(b);
      auto h = block->attn->linear->project(block->norm1->forward(x));
      const double direct =
          hedgehog_attention_loss(h.q, h.k, *block->attn->linear->feature_map, rows,
                                  block->attn->scale(), block->attn->linear->eps())
              .item<double>();
      QVERIFY(direct > 0);
      QVERIFY2(
          std::abs(direct - out.per_block_mse[size_t(b)]) <= 1e-6 * std::abs(direct),
          qPrintable(
              QString("block %1: %2 vs %3").arg(b).arg(direct).arg(out.per_block_mse[size_t(b)])));
      sum += direct;
      x = block->forward(x);
    }
    QVERIFY(std::abs(out.loss.item<double>() - sum / double(teacher->depth())) < 1e-6 * sum);
  }

  // Hedgehog's Stage 1 trains the feature maps alone and lowers the loss.
  void hedgehog_stage1_trains_only_the_feature_map() {
    ExperimentConfig c = micro(LinearisationMethod::Hedgehog, 30);
    c.attention_alignment.lr = 2e-2;
    c.attention_alignment.batch_size = 16;
    c.attention_rows = 16;
    VisionTransformer teacher(c.model);
    teacher->init_linear_from_softmax();
    const auto before = snapshot(teacher);
    RecordingSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    AttentionAlignmentStage(ctx).run(teacher, torch::rand({64, 1, 28, 28}));
    const auto l = losses(sink, stage_name(1));
    QCOMPARE(l.size(), size_t(30));
    const double first = (l[0] + l[1] + l[2]) / 3, last = (l[27] + l[28] + l[29]) / 3;
    QVERIFY2(last < first, qPrintable(QString("%1 -> %2").arg(first).arg(last)));
    const auto after = snapshot(teacher);
    int feature_maps = 0;
    for (const auto& [name, t] : before) {
      if (name.find(".attn.linear.feature_map.") != std::string::npos) {
        QVERIFY2(!identical(t, after.at(name)), name.c_str());
        ++feature_maps;
      } else {
        QVERIFY2(identical(t, after.at(name)), name.c_str());
      }
    }
    QVERIFY(feature_maps >= int(teacher->depth()));
  }

  // performer's Stage 1: its map has nothing to learn, so the linear attention's q/k/v and
  // output projection learn to it (the loss falls); W and everything else stay.
  void performer_stage1_trains_the_projections_not_w() {
    ExperimentConfig c = micro(LinearisationMethod::Performer, 20);
    QCOMPARE(QString::fromStdString(c.model.feature_map), QString("performer"));
    c.model.performer_features = 32;
    c.attention_alignment.lr = 1e-2;
    c.attention_alignment.batch_size = 16;
    VisionTransformer teacher(c.model);
    teacher->init_linear_from_softmax();
    std::map<std::string, torch::Tensor> w_before;
    for (const auto& b : teacher->named_buffers()) w_before[b.key()] = b.value().clone();
    QCOMPARE(w_before.size(), size_t(2 * teacher->depth()));  // projection + forward_calls
    const auto before = snapshot(teacher);
    RecordingSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    AttentionAlignmentStage(ctx).run(teacher, torch::rand({64, 1, 28, 28}));
    const auto l = losses(sink, stage_name(1));
    QCOMPARE(l.size(), size_t(20));
    const double first = (l[0] + l[1] + l[2]) / 3, last = (l[17] + l[18] + l[19]) / 3;
    QVERIFY2(std::isfinite(last) && last < first,
             qPrintable(QString("%1 -> %2").arg(first).arg(last)));
    const auto after = snapshot(teacher);
    int moved = 0;
    for (const auto& [name, t] : before) {
      if (name.find(".attn.linear.") != std::string::npos) {
        QVERIFY2(!identical(t, after.at(name)), name.c_str());
        ++moved;
      } else {
        QVERIFY2(identical(t, after.at(name)), name.c_str());
      }
    }
    QCOMPARE(moved, int(4 * teacher->depth()));  // qkv and proj, weight and bias
    for (const auto& b : teacher->named_buffers())
      QVERIFY2(identical(b.value(), w_before.at(b.key())), b.key().c_str());
  }

  // The paper's "tuning only QKV in Stage 2": only the linear attention's q/k/v move.
  void stage2_qkv_only_trains_only_qkv() {
    ExperimentConfig c = micro(LinearisationMethod::Adala, 4);
    c.feature_alignment.trainable = "qkv";
    VisionTransformer teacher(c.model);
    teacher->init_linear_from_softmax();
    auto student = clone_model(teacher, torch::kCPU);
    const auto before = snapshot(student);
    RecordingSink sink;
    JobControl control;
    StageContext ctx{c, torch::kCPU, sink, control, ""};
    FeatureAlignmentStage(ctx).run(teacher, student, torch::rand({32, 1, 28, 28}));
    const auto after = snapshot(student);
    int moved = 0;
    for (const auto& [name, t] : before) {
      if (name.find(".attn.linear.qkv.") != std::string::npos) {
        QVERIFY2(!identical(t, after.at(name)), name.c_str());
        ++moved;
      } else {
        QVERIFY2(identical(t, after.at(name)), name.c_str());
      }
    }
    QVERIFY(moved >= int(student->depth()));
  }
};

ADALA_TEST_MAIN(TestMethods)
}  // namespace test_methods

#include "test_methods.moc"
