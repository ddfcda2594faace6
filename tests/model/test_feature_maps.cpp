// Linear-attention feature maps (elu1, relu, hedgehog) against direct O(N^2) computations of
// the same formulas in float64, their gradients, and the hedgehog parameters' names and
// checkpoint round trip.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/model/attention.h"
#include "engine/model/feature_map.h"
#include "engine/kernels/linear_attention_blocked.h"
#include "engine/kernels/linear_attention_features.h"
#include "engine/model/load_weights.h"
#include "engine/model/numerical_health.h"
#include "engine/runtime/precision.h"
#include "engine/model/vision_transformer.h"
#include "engine/model/vit_config_json.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_feature_maps {

using namespace adala;
using adala_test::rel_error;

namespace {

const std::vector<FeatureMapKind> kAllMaps = {FeatureMapKind::Elu1, FeatureMapKind::Relu,
                                              FeatureMapKind::Hedgehog};

// Softmax over the last dimension, written out: exp(y - max) / sum.
torch::Tensor written_softmax(const torch::Tensor& y) {
  auto e = torch::exp(y - std::get<0>(y.max(-1, true)));
  return e / e.sum(-1, true);
}

// phi written from the formulas, head by head for hedgehog (w: (H, d, d), y_h = x_h W_h^T).
torch::Tensor direct_phi(FeatureMapKind kind, const torch::Tensor& x, const torch::Tensor& w) {
  switch (kind) {
    case FeatureMapKind::Elu1:
      return torch::elu(x) + 1;
    case FeatureMapKind::Relu:
      return torch::clamp_min(x, 0);
    case FeatureMapKind::Hedgehog: {
      std::vector<torch::Tensor> heads;
      for (int64_t h = 0; h < x.size(1); ++h) {
        auto y = torch::matmul(x.select(1, h), w[h].t());
        heads.push_back(torch::cat({written_softmax(y), written_softmax(-y)}, -1));
      }
      return torch::stack(heads, 1);
    }
    case FeatureMapKind::Performer:  // random, stabilised: test_performer_feature_map.cpp
      break;
  }
  return {};
}

// out_i = sum_j A_ij v_j / (sum_j A_ij + eps), A_ij = phi(q_i) . phi(k_j), the N x N matrix built.
torch::Tensor direct_linear_attention(const torch::Tensor& phi_q, const torch::Tensor& phi_k,
                                      const torch::Tensor& v, double eps) {
  auto a = torch::matmul(phi_q, phi_k.transpose(-2, -1));  // (B, H, N, N)
  return torch::matmul(a, v) / (a.sum(-1, true) + eps);
}

// A hedgehog map moved away from the identity so that W matters.
void perturb(FeatureMapImpl& map, double amount) {
  torch::NoGradGuard no_grad;
  if (map.kind() != FeatureMapKind::Hedgehog) return;
  map.q->weight.add_(torch::randn_like(map.q->weight) * amount);
  map.k->weight.add_(torch::randn_like(map.k->weight) * amount);
}

torch::Tensor weights_or_empty(const FeatureMapImpl& map, bool query) {
  if (map.kind() != FeatureMapKind::Hedgehog) return {};
  return (query ? map.q : map.k)->weight.detach().to(torch::kDouble);
}

ViTConfig micro_config(const std::string& feature_map) {
  ViTConfig c = vit_preset("fmnist_micro");
  c.feature_map = feature_map;
  return c;
}

}  // namespace

class TestFeatureMaps : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(2024); }

  void every_map_matches_the_quadratic_formula() {
    struct Shape {
      int64_t b, h, n, d;
    };
    for (auto kind : kAllMaps) {
      double worst = 0.0;
      for (const Shape& s : {Shape{1, 1, 1, 4}, Shape{2, 3, 7, 16}, Shape{1, 4, 50, 8},
                             Shape{2, 2, 197, 32}, Shape{1, 6, 600, 24}}) {
        FeatureMap map(kind, s.h, s.d);
        perturb(*map, 0.3);
        auto q = torch::randn({s.b, s.h, s.n, s.d}), k = torch::randn({s.b, s.h, s.n, s.d}),
             v = torch::randn({s.b, s.h, s.n, s.d});
        torch::NoGradGuard no_grad;
        auto out =
            linear_attention_from_features(map->query_features(q), map->key_features(k), v, 1e-6);
        QCOMPARE(out.sizes(), v.sizes());
        QCOMPARE(out.scalar_type(), torch::kFloat);
        auto qd = q.to(torch::kDouble), kd = k.to(torch::kDouble), vd = v.to(torch::kDouble);
        auto ref =
            direct_linear_attention(direct_phi(kind, qd, weights_or_empty(*map, true)),
                                    direct_phi(kind, kd, weights_or_empty(*map, false)), vd, 1e-6);
        const double err = rel_error(out, ref);
        worst = std::max(worst, err);
        QVERIFY2(err < 1e-5, qPrintable(QString("%1 N=%2 H=%3 d=%4: rel err %5")
                                            .arg(to_string(kind))
                                            .arg(s.n)
                                            .arg(s.h)
                                            .arg(s.d)
                                            .arg(err)));
        // In float64 the generic kernel is the formula up to rounding.
        auto out64 = linear_attention_from_features(map->query_features(qd), map->key_features(kd),
                                                    vd, 1e-6);
        QVERIFY(rel_error(out64, ref) < 1e-12);
      }
      qInfo("%s: max rel err vs O(N^2) float64 %.3g", to_string(kind), worst);
    }
  }

  void modules_match_the_quadratic_formula() {
    const int64_t dim = 32, heads = 4, n = 65;
    for (auto kind : kAllMaps) {
      LinearAttention attn(dim, heads, true, 1e-6, kind);
      if (attn->feature_map) perturb(*attn->feature_map, 0.3);
      auto x = torch::randn({2, n, dim});
      for (bool training : {false, true}) {
        // With gradients the elu1 module runs the fused autograd kernel, without the blocked one.
        auto xi = training ? x.clone().requires_grad_(true) : x;
        torch::Tensor out;
        if (training) {
          out = attn->forward(xi);
        } else {
          torch::NoGradGuard no_grad;
          out = attn->forward(xi);
        }
        torch::NoGradGuard no_grad;
        auto h = split_heads(torch::nn::functional::linear(x.to(torch::kDouble),
                                                           attn->qkv->weight.to(torch::kDouble),
                                                           attn->qkv->bias.to(torch::kDouble)),
                             heads);
        auto fm = attn->feature_map;
        auto wq = fm ? weights_or_empty(*fm, true) : torch::Tensor();
        auto wk = fm ? weights_or_empty(*fm, false) : torch::Tensor();
        auto merged = merge_heads(direct_linear_attention(direct_phi(kind, h.q, wq),
                                                          direct_phi(kind, h.k, wk), h.v, 1e-6));
        auto ref = torch::nn::functional::linear(merged, attn->proj->weight.to(torch::kDouble),
                                                 attn->proj->bias.to(torch::kDouble));
        const double err = rel_error(out, ref);
        QVERIFY2(
            err < 1e-5,
            qPrintable(
                QString("%1 (grad %2): rel err %3").arg(to_string(kind)).arg(training).arg(err)));
      }
    }
  }

  void gradients_match_autograd_of_the_quadratic_formula() {
    const int64_t b = 2, h = 3, n = 23, d = 8;
    for (auto kind : kAllMaps) {
      FeatureMap map(kind, h, d);
      map->to(torch::kDouble);
      perturb(*map, 0.3);
      auto q = torch::randn({b, h, n, d}, torch::kDouble).requires_grad_(true);
      auto k = torch::randn({b, h, n, d}, torch::kDouble).requires_grad_(true);
      auto v = torch::randn({b, h, n, d}, torch::kDouble).requires_grad_(true);
      auto g = torch::randn({b, h, n, d}, torch::kDouble);
      std::vector<torch::Tensor> inputs = {q, k, v};
      if (kind == FeatureMapKind::Hedgehog) {
        inputs.push_back(map->q->weight);
        inputs.push_back(map->k->weight);
      }
      auto generic =
          linear_attention_from_features(map->query_features(q), map->key_features(k), v, 1e-6);
      auto grads = torch::autograd::grad({(generic * g).sum()}, inputs);
      auto wq = kind == FeatureMapKind::Hedgehog ? map->q->weight : torch::Tensor();
      auto wk = kind == FeatureMapKind::Hedgehog ? map->k->weight : torch::Tensor();
      auto direct =
          direct_linear_attention(direct_phi(kind, q, wq), direct_phi(kind, k, wk), v, 1e-6);
      auto expected = torch::autograd::grad({(direct * g).sum()}, inputs);
      for (size_t i = 0; i < inputs.size(); ++i) {
        const double err = rel_error(grads[i], expected[i]);
        QVERIFY2(
            err < 1e-10,
            qPrintable(QString("%1 input %2: rel err %3").arg(to_string(kind)).arg(i).arg(err)));
      }
    }
  }

  void hedgehog_starts_at_identity_with_finite_positive_features() {
    const int64_t heads = 3, d = 16;
    FeatureMap map(FeatureMapKind::Hedgehog, heads, d);
    QCOMPARE(map->feature_dim(), 2 * d);
    for (auto* w : {&map->q->weight, &map->k->weight})
      QVERIFY(torch::equal(*w, torch::eye(d).expand({heads, d, d})));
    torch::NoGradGuard no_grad;
    for (double spread : {1.0, 3.0, 6.0}) {
      auto x = torch::randn({2, heads, 197, d}) * spread;
      for (const auto& phi : {map->query_features(x), map->key_features(x)}) {
        QCOMPARE(phi.sizes(), (std::vector<int64_t>{2, heads, 197, 2 * d}));
        QVERIFY(torch::isfinite(phi).all().item<bool>());
        QVERIFY2(phi.min().item<double>() > 0.0, qPrintable(QString::number(spread)));
        // Each half is a softmax: it sums to 1 per token.
        QVERIFY(torch::allclose(phi.narrow(-1, 0, d).sum(-1), torch::ones({2, heads, 197})));
        QVERIFY(torch::allclose(phi.narrow(-1, d, d).sum(-1), torch::ones({2, heads, 197})));
      }
      // At identity phi is the softmax of x itself, and the output is finite.
      QVERIFY(torch::allclose(map->query_features(x).narrow(-1, 0, d), torch::softmax(x, -1)));
      auto out =
          linear_attention_from_features(map->query_features(x), map->key_features(x), x, 1e-6);
      QVERIFY(torch::isfinite(out).all().item<bool>());
    }
  }

  void elu1_keeps_the_fused_kernels_and_names() {
    LinearAttention plain(32, 4, true, 1e-6);
    LinearAttention elu1(32, 4, true, 1e-6, FeatureMapKind::Elu1);
    QVERIFY(!elu1->feature_map);
    QCOMPARE(elu1->named_parameters().keys(), plain->named_parameters().keys());
    QCOMPARE(elu1->named_parameters().size(), size_t(4));  // qkv.{weight,bias}, proj.{weight,bias}
    // Inference: exactly the blocked kernel's output through the output projection.
    auto x = torch::randn({2, 50, 32});
    torch::NoGradGuard no_grad;
    auto h = elu1->project(x);
    auto expected = elu1->proj->forward(merge_heads(linear_attention_blocked(h.q, h.k, h.v, 1e-6)));
    QVERIFY(torch::equal(elu1->forward(x), expected));
    VisionTransformer model(micro_config("elu1"));
    for (const auto& p : model->named_parameters())
      QVERIFY2(p.key().find("feature_map") == std::string::npos, p.key().c_str());
  }

  void hedgehog_parameters_have_timm_style_names() {
    const ViTConfig c = micro_config("hedgehog");
    VisionTransformer model(c);
    VisionTransformer elu1(micro_config("elu1"));
    const auto names = model->named_parameters().keys();
    int64_t extra = 0;
    for (const auto& p : model->named_parameters())
      if (p.key().find("feature_map") != std::string::npos) {
        ++extra;
        QCOMPARE(p.value().sizes(),
                 (std::vector<int64_t>{c.num_heads, c.head_dim(), c.head_dim()}));
      }
    QCOMPARE(extra, 2 * c.depth);
    QCOMPARE(int64_t(names.size()), int64_t(elu1->named_parameters().size()) + extra);
    for (int64_t i = 0; i < c.depth; ++i)
      for (const char* side : {"q", "k"}) {
        const std::string name =
            "blocks." + std::to_string(i) + ".attn.linear.feature_map." + side + ".weight";
        QVERIFY2(std::find(names.begin(), names.end(), name) != names.end(), name.c_str());
      }
    // Stage 1 trains the linear branch: the feature maps are part of it.
    QCOMPARE(model->linear_attention_parameters().size(),
             elu1->linear_attention_parameters().size() + size_t(extra));
  }

  void hedgehog_weights_round_trip_through_a_checkpoint() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("hedgehog.safetensors").toStdString();
    VisionTransformer model(micro_config("hedgehog"));
    model->set_attention_mode(AttentionMode::Linear);
    for (int64_t i = 0; i < model->depth(); ++i)
      perturb(*model->block(i)->attn->linear->feature_map, 0.5);
    save_weights(model, path);

    VisionTransformer loaded = load_model(path, torch::kCPU);
    QCOMPARE(loaded->config().feature_map, std::string("hedgehog"));
    const auto theirs = loaded->named_parameters();
    for (const auto& p : model->named_parameters())
      QVERIFY2(torch::equal(p.value(), theirs[p.key()]), p.key().c_str());
    model->eval();
    loaded->eval();
    torch::NoGradGuard no_grad;
    auto images = torch::randn({2, 1, 28, 28});
    QVERIFY(torch::equal(model->forward(images), loaded->forward(images)));
  }

  void elu1_checkpoints_still_load() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("elu1.safetensors").toStdString();
    VisionTransformer elu1(micro_config("elu1"));
    elu1->set_attention_mode(AttentionMode::Linear);
    save_weights(elu1, path);
    // Into an elu1 model (load_model: the config comes from the file, feature_map included).
    VisionTransformer back = load_model(path, torch::kCPU);
    QCOMPARE(back->config().feature_map, std::string("elu1"));
    // An older file whose config has no feature_map reads as elu1.
    Json old = vit_config_to_json(elu1->config());
    old.erase("feature_map");
    QCOMPARE(vit_config_from_json(old).feature_map, std::string("elu1"));
    // Into a hedgehog model, strictly: the feature maps the file lacks keep the identity.
    VisionTransformer hedgehog(micro_config("hedgehog"));
    const LoadReport r = load_weights(hedgehog, path);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(int64_t(r.kept_initial.size()), 2 * hedgehog->depth());
    QCOMPARE(r.kept_initial.front(), std::string("blocks.0.attn.linear.feature_map.q.weight"));
    const auto fm = hedgehog->block(0)->attn->linear->feature_map;
    QVERIFY(
        torch::equal(fm->q->weight, torch::eye(fm->q->weight.size(1)).expand_as(fm->q->weight)));
    QVERIFY(torch::equal(hedgehog->block(1)->attn->linear->qkv->weight,
                         elu1->block(1)->attn->linear->qkv->weight));
  }

  void bf16_autocast_keeps_the_generic_kernel_finite_and_close() {
    for (auto kind : {FeatureMapKind::Relu, FeatureMapKind::Hedgehog}) {
      LinearAttention attn(64, 4, true, 1e-6, kind);
      auto x = torch::randn({2, 197, 64});
      torch::NoGradGuard no_grad;
      auto reference = attn->forward(x);
      torch::Tensor lowered;
      {
        const AutocastScope autocast(torch::kCPU, Precision::BF16);
        lowered = attn->forward(x);
      }
      QVERIFY(torch::isfinite(lowered).all().item<bool>());
      const double err = rel_error(lowered, reference);
      QVERIFY2(err < 3e-2, qPrintable(QString("%1: %2").arg(to_string(kind)).arg(err)));
    }
  }

  void health_probe_sees_the_feature_map_normaliser() {
    LinearAttention attn(32, 4, true, 1e-6, FeatureMapKind::Hedgehog);
    perturb(*attn->feature_map, 0.3);
    attn->set_block_index(3);
    auto x = torch::randn({1, 40, 32});
    HealthProbe probe;
    {
      const HealthProbe::Scope scope(&probe);
      torch::NoGradGuard no_grad;
      attn->forward(x);
    }
    const auto values = probe.values();
    QCOMPARE(values.size(), size_t(1));
    QCOMPARE(values[0].block, int64_t(3));
    torch::NoGradGuard no_grad;
    auto h = attn->project(x);
    auto den = (attn->feature_map->query_features(h.q) *
                attn->feature_map->key_features(h.k).sum(-2, true))
                   .sum(-1);
    QVERIFY(std::abs(values[0].min_normaliser - den.min().item<double>()) <
            1e-5 * den.min().item<double>());
  }

  void bad_feature_map_names_the_field() {
    ViTConfig c = micro_config("elu2");
    QString message;
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      message = e.what();
    }
    QVERIFY2(message.contains("feature_map") && message.contains("elu1, relu, hedgehog, performer"),
             qPrintable(message));
    QVERIFY_EXCEPTION_THROWN(vit_config_from_json(Json::parse("{\"feature_map\":\"favor\"}")),
                             std::invalid_argument);
    QCOMPARE(vit_config_from_json(Json::parse("{\"feature_map\":\"performer\"}")).feature_map,
             std::string("performer"));
    QCOMPARE(vit_config_from_json(Json::parse("{\"feature_map\":\"relu\"}")).feature_map,
             std::string("relu"));
  }
};

ADALA_TEST_GUILESS_MAIN(TestFeatureMaps)
}  // namespace test_feature_maps

#include "test_feature_maps.moc"
