// A per-block attention plan (engine/model/attention_plan.h) on a micro ViT: the hybrid model's
// output is the composition of its blocks written out by hand (softmax blocks are the teacher's,
// bit for bit; linear blocks the linear path; window+linear blocks window_linear_attention on
// the patch grid, checked against the N x N masked formula in float64), on square and
// non-square inputs and for each feature map; the mixing gamma's gradient; the plan's API
// errors; the metadata it is saved as, and a save -> load round trip with identical logits.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "engine/io/safetensors.h"
#include "engine/kernels/attention_ops.h"
#include "engine/kernels/window_linear_attention.h"
#include "engine/model/attention_plan.h"
#include "engine/model/load_weights.h"
#include "engine/model/vision_transformer.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"
#include "tests/support/error_text.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_attention_plan {

using namespace adala;
using adala_test::rel_error;

namespace {

using M = AttentionMode;

ViTConfig micro(const std::string& feature_map = "elu1") {
  ViTConfig c = vit_preset("fmnist_micro");  // 28 x 28, patch 4: a 7 x 7 grid and a class token
  c.depth = 4;
  c.feature_map = feature_map;
  return c;
}

AttentionPlan hybrid_plan() {
  AttentionPlan plan;
  plan.modes = {M::Softmax, M::Linear, M::WindowLinear, M::Softmax};
  plan.window = 5;
  return plan;
}

// Random weights, a linear path apart from the softmax one, and gamma away from 1.
VisionTransformer hybrid_model(const AttentionPlan& plan, const std::string& feature_map = "elu1",
                               uint64_t seed = 3) {
  torch::manual_seed(seed);
  VisionTransformer m(micro(feature_map));
  m->set_attention_plan(plan);
  torch::NoGradGuard no_grad;
  for (auto& p : m->parameters()) p.copy_(torch::randn_like(p) * 0.3);
  for (int64_t b = 0; b < m->depth(); ++b)
    if (auto& mixing = m->block(b)->attn->linear->window_mixing)
      mixing->log_gamma.copy_(torch::linspace(-1.0, 1.5, mixing->log_gamma.size(0)));
  m->eval();
  return m;
}

// The same weights with every block softmax: the teacher the plan keeps some blocks of.
VisionTransformer teacher_of(VisionTransformer& hybrid) {
  VisionTransformer t = clone_model(hybrid, torch::kCPU);
  t->set_attention_mode(M::Softmax);
  t->eval();
  return t;
}

torch::Tensor residual_block(Block& block, const torch::Tensor& x, const torch::Tensor& attn_out) {
  auto y = x + attn_out;
  return y + block->mlp->forward(block->norm2->forward(y));
}

// phi as the run's feature map gives it: elu1 has no module.
std::pair<torch::Tensor, torch::Tensor> features(LinearAttention& linear,
                                                 const HeadProjections& h) {
  if (!linear->feature_map) return {elu_plus_one(h.q), elu_plus_one(h.k)};
  return {linear->feature_map->query_features(h.q), linear->feature_map->key_features(h.k)};
}

// The window+linear path of a block, from its parts: the linear path's q, k, v, phi, the
// kernel on the input's grid, gamma = exp(log_gamma), the output projection.
torch::Tensor window_path(Block& block, const torch::Tensor& x, int64_t grid_h, int64_t grid_w,
                          int64_t window) {
  auto& linear = block->attn->linear;
  const HeadProjections h = linear->project(block->norm1->forward(x));
  const auto [pq, pk] = features(linear, h);
  WindowLinearAttentionOptions o;
  o.grid_height = grid_h;
  o.grid_width = grid_w;
  o.prefix_tokens = 1;
  o.window = window;
  auto out =
      window_linear_attention(h.q, h.k, pq, pk, h.v, o, linear->window_mixing->log_gamma.exp());
  return linear->proj->forward(merge_heads(out));
}

// The hybrid model's logits composed block by block: softmax blocks run the teacher's block,
// linear blocks the block's linear path, window+linear blocks window_path.
torch::Tensor composed_logits(VisionTransformer& hybrid, VisionTransformer& teacher,
                              const AttentionPlan& plan, const torch::Tensor& images) {
  const int64_t grid_h = images.size(2) / 4, grid_w = images.size(3) / 4;
  auto x = teacher->prepare_tokens(images);
  for (int64_t b = 0; b < hybrid->depth(); ++b) {
    Block block = hybrid->block(b);
    switch (plan.modes[size_t(b)]) {
      case M::Softmax:
        x = teacher->block(b)->forward(x);
        break;
      case M::Linear:
        x = residual_block(block, x, block->attn->linear->forward(block->norm1->forward(x)));
        break;
      case M::WindowLinear:
        x = residual_block(block, x, window_path(block, x, grid_h, grid_w, plan.window));
        break;
    }
  }
  return teacher->forward_head(teacher->norm->forward(x));
}

// The window+linear attention of one block in float64 from its definition: every pair's weight
// (exp(s - m) inside the k x k window and for prefix tokens, gamma phi(q) . phi(k) outside),
// one normaliser.
torch::Tensor quadratic_window_attention(Block& block, const torch::Tensor& x, int64_t grid_h,
                                         int64_t grid_w, int64_t window) {
  auto& linear = block->attn->linear;
  const HeadProjections h = linear->project(block->norm1->forward(x));
  auto [pq, pk] = features(linear, h);
  const int64_t n = x.size(1), r = (window - 1) / 2;
  auto mask = torch::zeros({n, n}, torch::kBool);
  auto m = mask.accessor<bool, 2>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (i == 0 || j == 0) {
        m[i][j] = true;
        continue;
      }
      const int64_t yi = (i - 1) / grid_w, xi = (i - 1) % grid_w;
      const int64_t yj = (j - 1) / grid_w, xj = (j - 1) % grid_w;
      m[i][j] = std::abs(yi - yj) <= r && std::abs(xi - xj) <= r;
    }
  (void)grid_h;
  auto q = h.q.to(torch::kDouble), k = h.k.to(torch::kDouble), v = h.v.to(torch::kDouble);
  auto s = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(double(q.size(-1)));
  auto masked = s.masked_fill(~mask, -std::numeric_limits<double>::infinity());
  auto e = torch::exp(masked - masked.amax(-1, true));
  auto gamma = linear->window_mixing->log_gamma.to(torch::kDouble).exp().view({1, -1, 1, 1});
  auto l = torch::matmul(pq.to(torch::kDouble), pk.to(torch::kDouble).transpose(-2, -1))
               .masked_fill(mask, 0.0) *
           gamma;
  auto w = e + l;
  return torch::matmul(w, v) / w.sum(-1, true);
}

std::string tmp_path(const std::string& name) {
  return adala_test::fresh_test_dir("attention_plan", "files") + "/" + name;
}

}  // namespace

class TestAttentionPlan : public QObject {
  Q_OBJECT
 private slots:
  void hybrid_output_is_the_per_block_composition_data() {
    QTest::addColumn<QString>("feature_map");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::newRow("elu1 28x28") << "elu1" << 28 << 28;
    QTest::newRow("elu1 28x20 (a 7 x 5 grid)") << "elu1" << 28 << 20;
    QTest::newRow("hedgehog 28x28") << "hedgehog" << 28 << 28;
    QTest::newRow("relu 20x36") << "relu" << 20 << 36;
  }
  void hybrid_output_is_the_per_block_composition() {
    QFETCH(QString, feature_map);
    QFETCH(int, height);
    QFETCH(int, width);
    const AttentionPlan plan = hybrid_plan();
    VisionTransformer hybrid = hybrid_model(plan, feature_map.toStdString());
    VisionTransformer teacher = teacher_of(hybrid);
    QVERIFY(hybrid->attention_plan() == plan);
    torch::NoGradGuard no_grad;
    auto images = torch::randn({3, 1, height, width});
    const auto logits = hybrid->forward(images);
    QVERIFY(torch::equal(logits, composed_logits(hybrid, teacher, plan, images)));
    // Block 0 is softmax: the hybrid's state after it is the teacher's, bit for bit; after the
    // linear block 1 it is not.
    const auto states = hybrid->hidden_states(images), target = teacher->hidden_states(images);
    QVERIFY(torch::equal(states[1], target[1]));
    QVERIFY(!torch::allclose(states[2], target[2], 1e-3, 1e-3));
    // The plan matters: neither all-softmax nor all-linear gives these logits.
    QVERIFY(!torch::allclose(logits, teacher->forward(images), 1e-3, 1e-3));
    VisionTransformer linear = clone_model(hybrid, torch::kCPU);
    linear->set_attention_mode(M::Linear);
    QVERIFY(!torch::allclose(logits, linear->forward(images), 1e-3, 1e-3));
    // The window+linear block's attention (before its projection) against the N x N form.
    Block block = hybrid->block(2);
    const auto x = states[2];
    const auto h = block->attn->linear->project(block->norm1->forward(x));
    const auto [pq, pk] = features(block->attn->linear, h);
    WindowLinearAttentionOptions o;
    o.grid_height = height / 4;
    o.grid_width = width / 4;
    o.prefix_tokens = 1;
    o.window = plan.window;
    const auto kernel = window_linear_attention(h.q, h.k, pq, pk, h.v, o,
                                                block->attn->linear->window_mixing->gamma());
    const double err =
        rel_error(kernel, quadratic_window_attention(block, x, o.grid_height, o.grid_width, 5));
    QVERIFY2(err < 1e-5, qPrintable(QString("rel err %1").arg(err)));
  }

  void gradients_reach_the_paths_the_plan_runs() {
    const AttentionPlan plan = hybrid_plan();
    VisionTransformer hybrid = hybrid_model(plan);
    hybrid->train();
    hybrid->forward(torch::randn({2, 1, 28, 28})).pow(2).sum().backward();
    for (const auto& p : hybrid->named_parameters()) {
      const std::string& name = p.key();
      if (name.find(".attn.") == std::string::npos) continue;
      const int64_t block = std::stoll(name.substr(7));
      const bool linear_path = name.find(".attn.linear.") != std::string::npos;
      const bool runs = linear_path == (plan.modes[size_t(block)] != M::Softmax);
      const bool grad =
          p.value().grad().defined() && p.value().grad().abs().sum().item<double>() > 0;
      QVERIFY2(grad == runs, name.c_str());
    }
    // Gamma is the window block's only extra parameter: one per head, positive.
    const auto names = hybrid->named_parameters();
    QVERIFY(names.contains("blocks.2.attn.linear.window_mixing.log_gamma"));
    for (int64_t b : {0, 1, 3})
      QVERIFY(
          !names.contains("blocks." + std::to_string(b) + ".attn.linear.window_mixing.log_gamma"));
    QCOMPARE(names["blocks.2.attn.linear.window_mixing.log_gamma"].sizes().vec(),
             (std::vector<int64_t>{2}));
  }

  void gamma_starts_at_one_and_follows_the_mode() {
    VisionTransformer m(micro());
    m->set_attention_mode(1, M::WindowLinear);
    Attention attn = m->block(1)->attn;
    QCOMPARE(attn->mode(), M::WindowLinear);
    QCOMPARE(attn->window(), int64_t(3));  // the default k
    QVERIFY(torch::equal(attn->linear->window_mixing->gamma(), torch::ones({2})));
    // Softmax keeps the window path (a Stage-1 student runs softmax while it learns it) ...
    attn->set_mode(M::Softmax);
    QCOMPARE(attn->mode(), M::Softmax);
    QCOMPARE(attn->linear->window(), int64_t(3));
    // ... plain linear drops it, and its gamma.
    attn->set_mode(M::Linear);
    QVERIFY(!attn->linear->window_mixing);
    QVERIFY(!m->named_parameters().contains("blocks.1.attn.linear.window_mixing.log_gamma"));
    // A clone keeps the windows and gamma of every block, softmax ones included.
    VisionTransformer h = hybrid_model(hybrid_plan());
    h->block(0)->attn->linear->set_window(7);
    VisionTransformer c = clone_model(h, torch::kCPU);
    QVERIFY(c->attention_plan() == h->attention_plan());
    QCOMPARE(c->block(0)->attn->linear->window(), int64_t(7));
    QVERIFY(torch::equal(c->block(2)->attn->linear->window_mixing->log_gamma,
                         h->block(2)->attn->linear->window_mixing->log_gamma));
  }

  void plan_errors_are_named() {
    VisionTransformer m(micro());
    AttentionPlan three = uniform_attention_plan(3, M::Linear);
    QVERIFY(adala_test::error_text([&] {
              m->set_attention_plan(three);
            }).find("3 modes for a model of 4 blocks") != std::string::npos);
    AttentionPlan even = uniform_attention_plan(4, M::WindowLinear, 4);
    QVERIFY(adala_test::error_text([&] { m->set_attention_plan(even); }).find("must be odd") !=
            std::string::npos);
    AttentionPlan negative = uniform_attention_plan(4, M::WindowLinear, -3);
    QVERIFY(adala_test::error_text([&] { m->set_attention_plan(negative); }).find("must be >= 1") !=
            std::string::npos);
    VisionTransformer performer(micro("performer"));
    QVERIFY(adala_test::error_text([&] {
              performer->set_attention_mode(0, M::WindowLinear);
            }).find("not performer") != std::string::npos);
    QCOMPARE(attention_mode_from_string("window+linear"), M::WindowLinear);
    QVERIFY(adala_test::error_text([] {
              attention_mode_from_string("window");
            }).find("unknown attention mode \"window\"") != std::string::npos);
  }

  void metadata_records_the_plan() {
    const AttentionPlan plan = hybrid_plan();
    const auto meta = attention_plan_metadata(plan);
    QCOMPARE(meta.at("adala.attention_modes"), std::string("softmax,linear,window+linear,softmax"));
    QCOMPARE(meta.at("adala.attention_window"), std::string("5"));
    QVERIFY(*attention_plan_from_metadata(meta, 4, "f") == plan);
    // Without a window+linear block: the modes alone, as files have always held them.
    const auto plain = attention_plan_metadata(uniform_attention_plan(2, M::Linear));
    QCOMPARE(plain.size(), size_t(1));
    QCOMPARE(plain.at("adala.attention_modes"), std::string("linear,linear"));
    QVERIFY(!attention_plan_from_metadata({}, 4, "f"));
    auto error = [](std::map<std::string, std::string> m, int64_t depth) {
      return adala_test::error_text(
          [&] { attention_plan_from_metadata(m, depth, "f.safetensors"); });
    };
    QCOMPARE(error({{"adala.attention_modes", "softmax,linaer"}}, 2),
             std::string("f.safetensors: metadata \"adala.attention_modes\" block 1: unknown "
                         "attention mode \"linaer\" (expected \"softmax\", \"linear\" or "
                         "\"window+linear\")"));
    QCOMPARE(error({{"adala.attention_modes", "linear,linear"}}, 4),
             std::string("f.safetensors: metadata \"adala.attention_modes\" lists 2 modes for 4 "
                         "blocks"));
    QCOMPARE(error({{"adala.attention_modes", "window+linear"}}, 1),
             std::string("f.safetensors: metadata \"adala.attention_window\" is missing (a block "
                         "runs window+linear attention)"));
    QCOMPARE(
        error({{"adala.attention_modes", "window+linear"}, {"adala.attention_window", "4"}}, 1),
        std::string("f.safetensors: metadata \"adala.attention_window\" must be odd (a k x k "
                    "window centred on its query), got 4"));
    QCOMPARE(error({{"adala.attention_modes", "linear"}, {"adala.attention_window", "3x"}}, 1),
             std::string("f.safetensors: metadata \"adala.attention_window\" is not an integer: "
                         "\"3x\""));
  }

  void save_load_round_trip_keeps_plan_and_logits() {
    const AttentionPlan plan = hybrid_plan();
    VisionTransformer hybrid = hybrid_model(plan);
    const std::string file = tmp_path("hybrid.safetensors");
    save_weights(hybrid, file);
    {
      SafetensorsReader r(file);
      QCOMPARE(r.metadata().at("adala.attention_modes"),
               std::string("softmax,linear,window+linear,softmax"));
      QCOMPARE(r.metadata().at("adala.attention_window"), std::string("5"));
      QVERIFY(r.contains("blocks.2.attn.linear.window_mixing.log_gamma"));
    }
    VisionTransformer loaded = load_model(file, torch::kCPU);
    loaded->eval();
    QVERIFY(loaded->attention_plan() == plan);
    torch::NoGradGuard no_grad;
    for (auto [h, w] : {std::pair<int64_t, int64_t>{28, 28}, {28, 20}}) {
      auto images = torch::randn({4, 1, h, w});
      QVERIFY(torch::equal(loaded->forward(images), hybrid->forward(images)));
    }
    // A model built without the plan has no place for gamma: strict loading names it.
    VisionTransformer plain(micro());
    const std::string message = adala_test::error_text([&] { load_weights(plain, file); });
    QVERIFY2(message.find("unexpected: blocks.2.attn.linear.window_mixing.log_gamma") !=
                 std::string::npos,
             message.c_str());
  }
};

ADALA_TEST_APPLESS_MAIN(TestAttentionPlan)
}  // namespace test_attention_plan

#include "test_attention_plan.moc"
