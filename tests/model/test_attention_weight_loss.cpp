// Hedgehog's attention-weight loss: zero when the linear weights are the softmax weights,
// positive otherwise, equal to a hand computation on a tiny case; seeded row sampling.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/model/attention_weight_loss.h"
#include "engine/kernels/linear_attention_features.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_attention_weight_loss {

using namespace adala;

class TestAttentionWeightLoss : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(5); }

  void zero_for_identical_weights() {
    auto p = torch::softmax(torch::randn({2, 3, 10, 40}) * 3, -1);
    const double same = attention_weight_cross_entropy(p, p).item<double>();
    QVERIFY2(std::abs(same) < 1e-6, qPrintable(QString::number(same)));
    // Through the whole function: identical keys make both rows uniform, for every map.
    // Positive q and k, so that no relu feature vector is all zeros.
    auto q = torch::randn({1, 2, 30, 8}).abs() + 0.1;
    auto k = (torch::randn({1, 2, 1, 8}).abs() + 0.1).expand({1, 2, 30, 8}).contiguous();
    for (auto kind : {FeatureMapKind::Elu1, FeatureMapKind::Relu, FeatureMapKind::Hedgehog}) {
      FeatureMap map(kind, 2, 8);
      const double loss = hedgehog_attention_loss(q, k, *map, sample_query_rows(30, 10, 1),
                                                  1.0 / std::sqrt(8.0), 1e-12)
                              .item<double>();
      QVERIFY2(std::abs(loss) < 1e-6, qPrintable(QString("%1: %2").arg(to_string(kind)).arg(loss)));
    }
  }

  void positive_when_weights_differ() {
    auto q = torch::randn({2, 3, 64, 16}) * 2, k = torch::randn({2, 3, 64, 16}) * 2;
    for (auto kind : {FeatureMapKind::Elu1, FeatureMapKind::Relu, FeatureMapKind::Hedgehog}) {
      FeatureMap map(kind, 3, 16);
      const double loss =
          hedgehog_attention_loss(q, k, *map, sample_query_rows(64, 16, 9), 0.25, 1e-6)
              .item<double>();
      QVERIFY2(loss > 1e-3 && std::isfinite(loss),
               qPrintable(QString("%1: %2").arg(to_string(kind)).arg(loss)));
    }
    auto p = torch::softmax(torch::randn({4, 20}), -1),
         a = torch::softmax(torch::randn({4, 20}), -1);
    QVERIFY(attention_weight_cross_entropy(p, a).item<double>() > 0.0);
  }

  void matches_a_hand_computation() {
    // One head, head_dim 1, two tokens, elu1: q = (1, -0.5), k = (0.5, -1), scale 1, eps 0.
    auto q = torch::tensor({1.0, -0.5}, torch::kDouble).reshape({1, 1, 2, 1});
    auto k = torch::tensor({0.5, -1.0}, torch::kDouble).reshape({1, 1, 2, 1});
    FeatureMap map(FeatureMapKind::Elu1, 1, 1);
    // phi(k) = (1.5, e^-1); phi(q) = (2, e^-0.5).
    const double e1 = std::exp(-1.0);
    auto row_loss = [&](double qi, double phi_qi) {
      const double s0 = std::exp(qi * 0.5), s1 = std::exp(qi * -1.0);
      const double p0 = s0 / (s0 + s1), p1 = s1 / (s0 + s1);
      const double l0 = phi_qi * 1.5, l1 = phi_qi * e1;
      const double a0 = l0 / (l0 + l1), a1 = l1 / (l0 + l1);
      return p0 * std::log(p0 / a0) + p1 * std::log(p1 / a1);
    };
    const double row0 = row_loss(1.0, 2.0), row1 = row_loss(-0.5, std::exp(-0.5));
    QVERIFY(row0 > 1e-4 && row1 > 1e-4);
    const double got0 = hedgehog_attention_loss(q, k, *map, {0}, 1.0, 0.0).item<double>();
    QVERIFY2(std::abs(got0 - row0) < 1e-12, qPrintable(QString("%1 vs %2").arg(got0).arg(row0)));
    const double both = hedgehog_attention_loss(q, k, *map, {0, 1}, 1.0, 0.0).item<double>();
    QVERIFY(std::abs(both - (row0 + row1) / 2) < 1e-12);
  }

  void gradients_reach_the_hedgehog_map() {
    FeatureMap map(FeatureMapKind::Hedgehog, 2, 8);
    auto q = torch::randn({1, 2, 40, 8}), k = torch::randn({1, 2, 40, 8});
    auto loss = hedgehog_attention_loss(q, k, *map, sample_query_rows(40, 8, 3), 0.35, 1e-6);
    loss.backward();
    QVERIFY(map->q->weight.grad().abs().sum().item<double>() > 0.0);
    QVERIFY(map->k->weight.grad().abs().sum().item<double>() > 0.0);
    // One gradient step lowers the loss.
    {
      torch::NoGradGuard no_grad;
      for (auto& p : map->parameters()) p.sub_(p.grad() * 0.5);
    }
    auto after = hedgehog_attention_loss(q, k, *map, sample_query_rows(40, 8, 3), 0.35, 1e-6);
    QVERIFY(after.item<double>() < loss.item<double>());
  }

  void sampled_rows_are_seeded_distinct_and_sorted() {
    const auto rows = sample_query_rows(197, 32, 42);
    QCOMPARE(rows.size(), size_t(32));
    QVERIFY(std::is_sorted(rows.begin(), rows.end()));
    QCOMPARE(std::set<int64_t>(rows.begin(), rows.end()).size(), size_t(32));
    QVERIFY(rows.front() >= 0 && rows.back() < 197);
    QVERIFY(sample_query_rows(197, 32, 42) == rows);
    QVERIFY(sample_query_rows(197, 32, 43) != rows);
    QCOMPARE(sample_query_rows(10, 50, 1).size(), size_t(10));
    QVERIFY_EXCEPTION_THROWN(
        {
          FeatureMap map(FeatureMapKind::Elu1, 1, 4);
          hedgehog_attention_loss(torch::randn({1, 1, 5, 4}), torch::randn({1, 1, 5, 4}), *map, {5},
                                  0.5, 1e-6);
        },
        std::invalid_argument);
  }
};

ADALA_TEST_GUILESS_MAIN(TestAttentionWeightLoss)
}  // namespace test_attention_weight_loss

#include "test_attention_weight_loss.moc"
