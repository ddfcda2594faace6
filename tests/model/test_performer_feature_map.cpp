// Performer's FAVOR+ feature map (engine/model/performer_feature_map.h): the kernel estimate
// against exp(q . k / sqrt(d)) within its standard error, the orthogonal random features, the
// stabilisers cancelling against an unstabilised float64 reference, convergence to softmax
// attention, the seeded and scheduled draws of W, and W surviving save and load.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/attention.h"
#include "engine/model/feature_map.h"
#include "engine/kernels/linear_attention_features.h"
#include "engine/model/load_weights.h"
#include "engine/model/performer_feature_map.h"
#include "engine/runtime/precision.h"
#include "engine/model/vision_transformer.h"
#include "engine/model/vit_config_json.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_performer_feature_map {

using namespace adala;
using adala_test::rel_error;

namespace {

using S = PerformerStabiliser;

// The sample standard deviation along `dim` (n - 1 in the denominator).
torch::Tensor sample_std(const torch::Tensor& x, int64_t dim) {
  auto centred = x - x.mean(dim, true);
  return (centred.square().sum(dim) / double(x.size(dim) - 1)).sqrt();
}

// Per-pair estimates of exp(q . k / sqrt(d)) from m features and their standard errors, as if
// the m single-feature estimates m phi_f(q) phi_f(k) were independent (orthogonal features
// have a smaller variance than independent ones, so this errs on the large side).
struct Estimate {
  torch::Tensor value, standard_error;
};

// q, k: (P, d) float64; w: (1, m, d).
Estimate estimate_kernel(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& w) {
  const int64_t m = w.size(1);
  auto pq = performer_features(q.view({1, 1, q.size(0), q.size(1)}), w, S::None, 0.0)[0][0];
  auto pk = performer_features(k.view({1, 1, k.size(0), k.size(1)}), w, S::None, 0.0)[0][0];
  auto samples = pq * pk * double(m);  // (P, m): each an estimate on its own
  return {samples.mean(-1), sample_std(samples, -1) / std::sqrt(double(m))};
}

torch::Tensor softmax_kernel(const torch::Tensor& q, const torch::Tensor& k) {
  return torch::exp((q * k).sum(-1) / std::sqrt(double(q.size(-1))));
}

// sum_j phi(q_i) . phi(k_j) v_j / sum_j phi(q_i) . phi(k_j), phi unstabilised (float64 holds
// the small values the float32 path could not), the N x N matrix built.
torch::Tensor reference_attention(const torch::Tensor& q, const torch::Tensor& k,
                                  const torch::Tensor& v, const torch::Tensor& w) {
  auto wd = w.to(torch::kDouble);
  auto a =
      torch::matmul(performer_features(q.to(torch::kDouble), wd, S::None, 0.0),
                    performer_features(k.to(torch::kDouble), wd, S::None, 0.0).transpose(-2, -1));
  return torch::matmul(a, v.to(torch::kDouble)) / a.sum(-1, true);
}

torch::Tensor softmax_reference(const torch::Tensor& q, const torch::Tensor& k,
                                const torch::Tensor& v) {
  auto s = torch::matmul(q.to(torch::kDouble), k.to(torch::kDouble).transpose(-2, -1)) /
           std::sqrt(double(q.size(-1)));
  return torch::matmul(torch::softmax(s, -1), v.to(torch::kDouble));
}

torch::Tensor expected_draw(int64_t heads, int64_t m, int64_t d, int64_t seed, int64_t block,
                            int64_t draw) {
  return orthogonal_gaussian_projection(heads, m, d, performer_draw_seed(seed, block, draw))
      .to(torch::kFloat);
}

ViTConfig micro_performer(int64_t redraw_interval) {
  ViTConfig c = vit_preset("fmnist_micro");
  c.feature_map = "performer";
  c.performer_features = 24;
  c.performer_redraw_interval = redraw_interval;
  c.performer_seed = 11;
  return c;
}

FeatureMapImpl& block_map(VisionTransformer& model, int64_t block) {
  return *model->block(block)->attn->linear->feature_map;
}

}  // namespace

class TestPerformerFeatureMap : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(34); }

  void kernel_estimate_is_within_its_standard_error_and_converges() {
    const int64_t d = 16, pairs = 32;
    auto q = torch::randn({pairs, d}, torch::kDouble) * 0.4;
    auto k = torch::randn({pairs, d}, torch::kDouble) * 0.4;
    const auto truth = softmax_kernel(q, k);
    std::vector<double> mean_rel;
    for (int64_t m : {256, 1024, 4096, 16384}) {
      const auto w = orthogonal_gaussian_projection(1, m, d, uint64_t(m));
      const Estimate e = estimate_kernel(q, k, w);
      const double worst_z = ((e.value - truth).abs() / e.standard_error).max().item<double>();
      const double rel = ((e.value - truth).abs() / truth).mean().item<double>();
      const double se = (e.standard_error / truth).mean().item<double>();
      qInfo(
          "m = %5lld: mean relative error %.4f (mean relative standard error %.4f), worst "
          "|z| %.2f",
          static_cast<long long>(m), rel, se, worst_z);
      QVERIFY2(worst_z < 5.0, qPrintable(QString("m = %1: |z| = %2").arg(m).arg(worst_z)));
      mean_rel.push_back(rel);
      if (m == 16384) {
        QVERIFY2(rel < 0.03, qPrintable(QString::number(rel)));
        // The wrong scaling (x d^(-1/2), i.e. exp(q . k / d)) is many standard errors off.
        const Estimate wrong = estimate_kernel(q * std::pow(d, -0.25), k * std::pow(d, -0.25), w);
        const double wrong_z =
            ((wrong.value - truth).abs() / wrong.standard_error).max().item<double>();
        qInfo("wrong scaling x / sqrt(d) at m = 16384: worst |z| %.1f", wrong_z);
        QVERIFY2(wrong_z > 10.0, qPrintable(QString::number(wrong_z)));
      }
    }
    // 64 times the features: the error shrinks (by ~8 for an unbiased estimate).
    QVERIFY2(mean_rel.back() < mean_rel.front() / 3.0,
             qPrintable(QString("%1 vs %2").arg(mean_rel.back()).arg(mean_rel.front())));
  }

  void independent_draws_average_to_the_kernel() {
    // One orthogonal block (m = d) per draw, 4000 draws: the heads of one projection.
    const int64_t d = 16, draws = 4000, pairs = 8;
    auto q = torch::randn({pairs, d}, torch::kDouble) * 0.6;
    auto k = torch::randn({pairs, d}, torch::kDouble) * 0.6;
    const auto w = orthogonal_gaussian_projection(draws, d, d, 99);
    auto pq = performer_features(q.expand({1, draws, pairs, d}), w, S::None, 0.0);
    auto pk = performer_features(k.expand({1, draws, pairs, d}), w, S::None, 0.0);
    auto per_draw = (pq * pk).sum(-1)[0];  // (draws, pairs)
    auto mean = per_draw.mean(0), se = sample_std(per_draw, 0) / std::sqrt(double(draws));
    const auto truth = softmax_kernel(q, k);
    const double worst_z = ((mean - truth).abs() / se).max().item<double>();
    qInfo("mean of %lld draws at m = d = 16: worst |z| %.2f, mean relative error %.4f",
          static_cast<long long>(draws), worst_z,
          ((mean - truth).abs() / truth).mean().item<double>());
    QVERIFY2(worst_z < 5.0, qPrintable(QString::number(worst_z)));
  }

  void projection_blocks_are_orthogonal_and_rows_gaussian() {
    const int64_t d = 16;
    const auto w = orthogonal_gaussian_projection(3, 40, d, 7);
    QCOMPARE(w.sizes(), (std::vector<int64_t>{3, 40, d}));
    QCOMPARE(w.scalar_type(), torch::kDouble);
    auto directions = w / w.norm(2, {-1}, true);
    for (int64_t h = 0; h < 3; ++h)
      for (int64_t start : {0, 16, 32}) {
        const int64_t rows = std::min<int64_t>(d, 40 - start);
        auto block = directions[h].narrow(0, start, rows);
        const double off = (torch::matmul(block, block.t()) - torch::eye(rows, torch::kDouble))
                               .abs()
                               .max()
                               .item<double>();
        QVERIFY2(off < 1e-12,
                 qPrintable(QString("head %1 rows %2: %3").arg(h).arg(start).arg(off)));
      }
    // The next block's directions are not orthogonal to this one's.
    const double across =
        torch::matmul(directions[0].narrow(0, 0, d), directions[0].narrow(0, d, d).t())
            .abs()
            .max()
            .item<double>();
    QVERIFY2(across > 0.3, qPrintable(QString::number(across)));
    // Each row alone is N(0, I): mean 0, covariance I, E|w|^2 = d, norms not all equal; the
    // first direction of a block too (a QR without its signs fixed biases it).
    const auto many = orthogonal_gaussian_projection(8, 1024, d, 8).reshape({-1, d});
    const double mean_sq = many.square().sum(-1).mean().item<double>();
    QVERIFY2(std::abs(mean_sq / d - 1.0) < 0.03, qPrintable(QString::number(mean_sq)));
    QVERIFY(many.norm(2, {-1}).std().item<double>() > 0.5);
    const auto centred = many - many.mean(0);
    const auto cov = torch::matmul(centred.t(), centred) / double(many.size(0) - 1);
    const double cov_err = (cov - torch::eye(d, torch::kDouble)).abs().max().item<double>();
    QVERIFY2(cov_err < 0.1, qPrintable(QString::number(cov_err)));
    const auto first_rows = many.view({-1, d, d}).select(1, 0);  // 512 rows
    const double first_mean = first_rows.mean(0).abs().max().item<double>();
    QVERIFY2(first_mean < 0.25, qPrintable(QString::number(first_mean)));
    // One seed, one W.
    QVERIFY(torch::equal(orthogonal_gaussian_projection(3, 40, d, 7), w));
    QVERIFY(!torch::equal(orthogonal_gaussian_projection(3, 40, d, 8), w));
  }

  void stabilisers_cancel_against_the_unstabilised_reference() {
    const int64_t b = 2, h = 3, n = 37, d = 16, m = 64;
    const auto w = orthogonal_gaussian_projection(h, m, d, 3);
    const auto wf = w.to(torch::kFloat);
    auto attention = [&](const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                         const torch::Tensor& proj, S query, S key, double eps) {
      return linear_attention_from_features(performer_features(q, proj, query, eps),
                                            performer_features(k, proj, key, eps), v, 0.0);
    };
    // Gaussian tokens (at scale 6 the unstabilised float32 products underflow to 0 / 0), then
    // tokens all of norm 24 (|x'|^2 / 2 = 72).
    for (double scale : {1.0, 3.0, 6.0, -24.0}) {
      auto q = torch::randn({b, h, n, d}, torch::kDouble);
      auto k = torch::randn({b, h, n, d}, torch::kDouble);
      if (scale > 0) {
        q = q * scale;
        k = k * scale;
      } else {
        q = q / q.norm(2, {-1}, true) * -scale;
        k = k / k.norm(2, {-1}, true) * -scale;
      }
      auto v = torch::randn({b, h, n, d}, torch::kDouble);
      const auto ref = reference_attention(q, k, v, w);
      QVERIFY(torch::isfinite(ref).all().item<bool>());
      // float64 without eps: the stabilisers cancel up to rounding.
      const double err64 = rel_error(attention(q, k, v, w, S::PerToken, S::PerHead, 0.0), ref);
      // A per-token constant on the keys does not cancel: the check can fail.
      const double wrong = rel_error(attention(q, k, v, w, S::PerToken, S::PerToken, 0.0), ref);
      auto qf = q.to(torch::kFloat), kf = k.to(torch::kFloat), vf = v.to(torch::kFloat);
      const double err32 = rel_error(attention(qf, kf, vf, wf, S::PerToken, S::PerHead, 0.0), ref);
      const double bare = rel_error(attention(qf, kf, vf, wf, S::None, S::None, 0.0), ref);
      // As the module runs it: the floor, queries normalised, and a half-precision stage's
      // eps 1e-3 (harmless against unit normalisers, a bias against the raw ones).
      auto phi_q = performer_features(qf, wf, S::PerToken, kPerformerFeatureEps);
      auto phi_k = performer_features(kf, wf, S::PerHead, kPerformerFeatureEps);
      const double module =
          rel_error(linear_attention_from_features(performer_unit_normalised_queries(phi_q, phi_k),
                                                   phi_k, vf, 1e-3),
                    ref);
      const double raw = rel_error(linear_attention_from_features(phi_q, phi_k, vf, 1e-3), ref);
      qInfo(
          "%s %4.1f: float64 %.2e, float32 %.2e, as the module %.2e (raw normalisers + eps "
          "1e-3 %.2e), keys stabilised per token %.2e, float32 unstabilised %.2e",
          scale > 0 ? "scale" : "norm ", std::abs(scale), err64, err32, module, raw, wrong, bare);
      QVERIFY2(err64 < 1e-10, qPrintable(QString::number(err64)));
      QVERIFY2(err32 < 1e-5, qPrintable(QString::number(err32)));
      QVERIFY2(wrong > 1e-2, qPrintable(QString::number(wrong)));
      if (scale > 0 && scale <= 3.0) QVERIFY2(module < 2e-3, qPrintable(QString::number(module)));
      // scale is one of the literals of the loop: exact equality picks the case.
      if (std::equal_to<double>()(scale, 3.0))
        QVERIFY2(raw > 0.05, qPrintable(QString::number(raw)));
      if (std::equal_to<double>()(scale, 6.0))
        QVERIFY2(!(bare < 0.5), qPrintable(QString::number(bare)));  // NaN
    }
  }

  void gradients_match_the_unstabilised_reference() {
    const int64_t b = 2, h = 2, n = 19, d = 8, m = 32;
    const auto w = orthogonal_gaussian_projection(h, m, d, 5);
    auto q = (torch::randn({b, h, n, d}, torch::kDouble) * 2).requires_grad_(true);
    auto k = (torch::randn({b, h, n, d}, torch::kDouble) * 2).requires_grad_(true);
    auto v = torch::randn({b, h, n, d}, torch::kDouble).requires_grad_(true);
    auto g = torch::randn({b, h, n, d}, torch::kDouble);
    auto out = linear_attention_from_features(performer_features(q, w, S::PerToken, 0.0),
                                              performer_features(k, w, S::PerHead, 0.0), v, 0.0);
    auto grads = torch::autograd::grad({(out * g).sum()}, {q, k, v});
    auto expected = torch::autograd::grad({(reference_attention(q, k, v, w) * g).sum()}, {q, k, v});
    for (size_t i = 0; i < 3; ++i) {
      const double err = rel_error(grads[i], expected[i]);
      QVERIFY2(err < 1e-9, qPrintable(QString("input %1: %2").arg(i).arg(err)));
    }
  }

  void module_matches_the_reference_and_approaches_softmax() {
    const int64_t dim = 32, heads = 2, n = 50;
    auto x = torch::randn({1, n, dim});
    std::vector<double> errors;
    for (int64_t m : {64, 512, 8192}) {
      LinearAttention attn(dim, heads, true, 1e-6, FeatureMapKind::Performer,
                           PerformerOptions{m, 0, 3});
      QCOMPARE(attn->feature_map->feature_dim(), m);
      torch::NoGradGuard no_grad;
      const auto out = attn->forward(x);
      auto h = split_heads(
          torch::nn::functional::linear(x.to(torch::kDouble), attn->qkv->weight.to(torch::kDouble),
                                        attn->qkv->bias.to(torch::kDouble)),
          heads);
      auto project = [&](const torch::Tensor& heads_out) {
        return torch::nn::functional::linear(merge_heads(heads_out),
                                             attn->proj->weight.to(torch::kDouble),
                                             attn->proj->bias.to(torch::kDouble));
      };
      const double to_reference = rel_error(
          out, project(reference_attention(h.q, h.k, h.v, attn->feature_map->projection)));
      const double to_softmax = rel_error(out, project(softmax_reference(h.q, h.k, h.v)));
      qInfo("m = %5lld: vs the estimate's own reference %.2e, vs softmax attention %.4f",
            static_cast<long long>(m), to_reference, to_softmax);
      QVERIFY2(to_reference < 1e-5, qPrintable(QString::number(to_reference)));
      errors.push_back(to_softmax);
    }
    QVERIFY2(errors.back() < 0.1, qPrintable(QString::number(errors.back())));
    QVERIFY2(errors.back() < errors.front() / 3.0,
             qPrintable(QString("%1 vs %2").arg(errors.back()).arg(errors.front())));
  }

  void default_feature_counts() {
    QCOMPARE(performer_default_features(16), int64_t(44));
    QCOMPARE(performer_default_features(64), int64_t(266));
    QCOMPARE(performer_default_features(2), int64_t(2));
    QCOMPARE(FeatureMap(FeatureMapKind::Performer, 2, 16)->feature_dim(), int64_t(44));
    QCOMPARE(FeatureMap(FeatureMapKind::Performer, 2, 16, PerformerOptions{7, 0, 0})->feature_dim(),
             int64_t(7));
    QVERIFY_EXCEPTION_THROWN(
        FeatureMap(FeatureMapKind::Performer, 2, 16, PerformerOptions{-1, 0, 0}),
        std::invalid_argument);
  }

  void seed_and_block_fix_w() {
    const PerformerOptions options{24, 0, 11};
    FeatureMap a(FeatureMapKind::Performer, 2, 8, options),
        b(FeatureMapKind::Performer, 2, 8, options);
    QVERIFY(torch::equal(a->projection, b->projection));
    QVERIFY(torch::equal(a->projection, expected_draw(2, 24, 8, 11, -1, 0)));
    a->set_block_index(1);
    QVERIFY(torch::equal(a->projection, expected_draw(2, 24, 8, 11, 1, 0)));
    QVERIFY(!torch::equal(a->projection, b->projection));
    FeatureMap other_seed(FeatureMapKind::Performer, 2, 8, PerformerOptions{24, 0, 12});
    QVERIFY(!torch::equal(other_seed->projection, b->projection));
    // Two models from one config: the same W in every block (and different ones across
    // blocks), the same outputs, twice in a row.
    VisionTransformer m1(micro_performer(0)), m2(micro_performer(0));
    for (auto* m : {&m1, &m2}) {
      (*m)->set_attention_mode(AttentionMode::Linear);
      (*m)->eval();
    }
    for (int64_t i = 0; i < m1->depth(); ++i)
      QVERIFY(torch::equal(block_map(m1, i).projection, block_map(m2, i).projection));
    QVERIFY(!torch::equal(block_map(m1, 0).projection, block_map(m1, 1).projection));
    // The qkv/proj weights are torch's random init: copy them so that only W could differ.
    {
      torch::NoGradGuard no_grad;
      auto theirs = m2->named_parameters();
      for (const auto& p : m1->named_parameters()) theirs[p.key()].copy_(p.value());
    }
    torch::NoGradGuard no_grad;
    auto images = torch::randn({2, 1, 28, 28});
    const auto first = m1->forward(images);
    QVERIFY(torch::isfinite(first).all().item<bool>());
    QVERIFY(torch::equal(m1->forward(images), first));
    QVERIFY(torch::equal(m2->forward(images), first));
  }

  void redraws_follow_the_schedule_in_training_mode_only() {
    const int64_t heads = 2, m = 16, d = 8, seed = 5, block = 4, interval = 3;
    FeatureMap map(FeatureMapKind::Performer, heads, d, PerformerOptions{m, interval, seed});
    map->set_block_index(block);
    map->train();
    for (int64_t n = 0; n < 10; ++n) {
      map->begin_forward();
      QCOMPARE(map->forward_calls(), n + 1);
      QCOMPARE(map->draw_index(), n / interval);
      QVERIFY2(torch::equal(map->projection, expected_draw(heads, m, d, seed, block, n / interval)),
               qPrintable(QString("call %1").arg(n)));
    }
    const auto w = map->projection.clone();
    map->eval();
    for (int i = 0; i < 7; ++i) map->begin_forward();
    QCOMPARE(map->forward_calls(), int64_t(10));
    QVERIFY(torch::equal(map->projection, w));
    // Back in training mode the schedule goes on: call 10 is still draw 3, call 12 draw 4.
    map->train();
    map->begin_forward();
    QVERIFY(torch::equal(map->projection, w));
    map->begin_forward();
    map->begin_forward();
    QVERIFY(torch::equal(map->projection, expected_draw(heads, m, d, seed, block, 4)));
    // Interval 0: W never changes and nothing is counted.
    FeatureMap fixed(FeatureMapKind::Performer, heads, d, PerformerOptions{m, 0, seed});
    fixed->train();
    const auto w0 = fixed->projection.clone();
    for (int i = 0; i < 5; ++i) fixed->begin_forward();
    QVERIFY(torch::equal(fixed->projection, w0));
    QCOMPARE(fixed->forward_calls(), int64_t(0));

    // Through the attention module: its training-mode forwards count, eval-mode ones do not.
    LinearAttention attn(32, 4, true, 1e-6, FeatureMapKind::Performer, PerformerOptions{16, 2, 0});
    attn->set_block_index(2);
    auto x = torch::randn({2, 10, 32}, torch::requires_grad());
    attn->train();
    for (int i = 0; i < 5; ++i) attn->forward(x).sum().backward();
    QCOMPARE(attn->feature_map->forward_calls(), int64_t(5));
    QCOMPARE(attn->feature_map->draw_index(), int64_t(2));
    QVERIFY(torch::equal(attn->feature_map->projection, expected_draw(4, 16, 8, 0, 2, 2)));
    attn->eval();
    torch::NoGradGuard no_grad;
    const auto before = attn->forward(x);
    for (int i = 0; i < 4; ++i) QVERIFY(torch::equal(attn->forward(x), before));
    QCOMPARE(attn->feature_map->forward_calls(), int64_t(5));
    // W is a buffer: the optimiser never sees it.
    for (const auto& p : attn->named_parameters())
      QVERIFY2(p.key().find("feature_map") == std::string::npos, p.key().c_str());
  }

  void save_and_load_keep_w_and_the_schedule() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("performer.safetensors").toStdString();
    VisionTransformer model(micro_performer(2));
    model->set_attention_mode(AttentionMode::Linear);
    auto images = torch::randn({2, 1, 28, 28});
    model->train();
    for (int i = 0; i < 3; ++i) model->forward(images);  // calls 0..2: draws 0, 0, 1
    QCOMPARE(block_map(model, 0).draw_index(), int64_t(1));
    const auto names = model->named_buffers().keys();
    QVERIFY(std::find(names.begin(), names.end(), "blocks.1.attn.linear.feature_map.projection") !=
            names.end());
    save_weights(model, path);

    VisionTransformer loaded = load_model(path, torch::kCPU);
    QCOMPARE(loaded->config().feature_map, std::string("performer"));
    QCOMPARE(loaded->config().performer_redraw_interval, int64_t(2));
    for (int64_t i = 0; i < model->depth(); ++i) {
      QVERIFY(torch::equal(block_map(loaded, i).projection, block_map(model, i).projection));
      QCOMPARE(block_map(loaded, i).forward_calls(), int64_t(3));
    }
    {
      model->eval();
      loaded->eval();
      torch::NoGradGuard no_grad;
      QVERIFY(torch::equal(model->forward(images), loaded->forward(images)));
    }
    // Training goes on where it stopped: call 4 draws W number 2 in both.
    model->train();
    loaded->train();
    for (int i = 0; i < 2; ++i) {
      model->forward(images);
      loaded->forward(images);
    }
    for (int64_t i = 0; i < model->depth(); ++i) {
      QCOMPARE(block_map(loaded, i).draw_index(), int64_t(2));
      QVERIFY(torch::equal(block_map(loaded, i).projection, block_map(model, i).projection));
      QVERIFY(torch::equal(
          block_map(loaded, i).projection,
          expected_draw(model->config().num_heads, 24, model->config().head_dim(), 11, i, 2)));
    }

    // A stage checkpoint's archive replaces the buffers' storage: the count follows it.
    torch::serialize::OutputArchive out;
    for (const auto& b : model->named_buffers()) out.write(b.key(), b.value(), true);
    const std::string archive = dir.filePath("buffers.pt").toStdString();
    out.save_to(archive);
    VisionTransformer resumed(micro_performer(2));
    QCOMPARE(block_map(resumed, 0).forward_calls(), int64_t(0));
    torch::serialize::InputArchive in;
    in.load_from(archive);
    for (auto& b : resumed->named_buffers()) in.read(b.key(), b.value(), true);
    QCOMPARE(block_map(resumed, 0).forward_calls(), int64_t(5));
    QVERIFY(torch::equal(block_map(resumed, 0).projection, block_map(model, 0).projection));

    // A file without the map (elu1 here) loads strictly, W kept as drawn from the seed.
    const std::string elu1_path = dir.filePath("elu1.safetensors").toStdString();
    VisionTransformer elu1(vit_preset("fmnist_micro"));
    save_weights(elu1, elu1_path);
    VisionTransformer fresh(micro_performer(0));
    const LoadReport r = load_weights(fresh, elu1_path);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(int64_t(r.kept_initial.size()), 2 * fresh->depth());
    QVERIFY(torch::equal(
        block_map(fresh, 1).projection,
        expected_draw(fresh->config().num_heads, 24, fresh->config().head_dim(), 11, 1, 0)));
  }

  void bf16_autocast_stays_close() {
    LinearAttention attn(64, 4, true, 1e-6, FeatureMapKind::Performer);
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
    QVERIFY2(err < 3e-2, qPrintable(QString::number(err)));
  }

  void config_fields_are_checked() {
    const ViTConfig c = vit_config_from_json(Json::parse(
        R"({"feature_map":"performer","performer_features":32,"performer_redraw_interval":100,
            "performer_seed":9})"));
    QCOMPARE(c.feature_map, std::string("performer"));
    QCOMPARE(c.performer_features, int64_t(32));
    QCOMPARE(c.performer_redraw_interval, int64_t(100));
    QCOMPARE(c.performer_seed, int64_t(9));
    QCOMPARE(performer_options(c).features, int64_t(32));
    for (const auto& [doc, field] :
         {std::pair{R"({"performer_features":-3})", "performer_features"},
          std::pair{R"({"performer_features":70000})", "performer_features"},
          std::pair{R"({"performer_redraw_interval":-1})", "performer_redraw_interval"},
          std::pair{R"({"performer_seed":-2})", "performer_seed"}}) {
      QString message;
      try {
        vit_config_from_json(Json::parse(doc));
      } catch (const std::invalid_argument& e) {
        message = e.what();
      }
      QVERIFY2(message.contains(field), qPrintable(QString(doc) + ": " + message));
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestPerformerFeatureMap)
}  // namespace test_performer_feature_map

#include "test_performer_feature_map.moc"
