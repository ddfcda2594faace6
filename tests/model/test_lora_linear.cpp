// LoRA on a Linear: only the two factors are added, under the expected names and shapes; a fresh
// wrapper is the wrapped layer; the merged Linear computes what the wrapper does.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <set>
#include <string>

#include "engine/model/lora_linear.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_lora_linear {

using namespace adala;
using adala_test::rel_error;

namespace {

int64_t count(const std::vector<torch::Tensor>& params) {
  int64_t n = 0;
  for (const auto& p : params) n += p.numel();
  return n;
}

// A wrapper whose B is no longer zero, so that the low-rank update matters.
void train_a_little(LoraLinear& lora) {
  torch::NoGradGuard no_grad;
  lora->lora_B.copy_(torch::randn_like(lora->lora_B) * 0.1);
}

}  // namespace

class TestLoraLinear : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(77); }

  void adds_only_the_low_rank_factors() {
    for (bool with_bias : {true, false})
      for (int64_t rank : {1, 4, 8}) {
        const int64_t in = 48, out = 144;
        torch::nn::Linear base(torch::nn::LinearOptions(in, out).bias(with_bias));
        LoraLinear lora(base, rank, 16.0);
        QCOMPARE(count(lora->parameters()), count(base->parameters()) + rank * (in + out));
        std::set<std::string> names;
        for (const auto& p : lora->named_parameters()) names.insert(p.key());
        std::set<std::string> expected = {"weight", "lora_A", "lora_B"};
        if (with_bias) expected.insert("bias");
        QVERIFY(names == expected);
        QCOMPARE(lora->lora_A.sizes(), (std::vector<int64_t>{rank, in}));
        QCOMPARE(lora->lora_B.sizes(), (std::vector<int64_t>{out, rank}));
        // The wrapped tensors are shared, not copied.
        QCOMPARE(lora->weight.data_ptr(), base->weight.data_ptr());
        // scaling() is alpha / rank: the same division of the same doubles.
        ADALA_COMPARE_EXACT(lora->scaling(), 16.0 / double(rank));
      }
  }

  void names_sit_beside_the_wrapped_layer() {
    torch::nn::Sequential model;
    torch::nn::Linear qkv(8, 24);
    model->push_back("qkv", LoraLinear(qkv, 2, 4.0));
    std::set<std::string> names;
    for (const auto& p : model->named_parameters()) names.insert(p.key());
    QVERIFY((names == std::set<std::string>{"qkv.weight", "qkv.bias", "qkv.lora_A", "qkv.lora_B"}));
  }

  void fresh_wrapper_equals_the_wrapped_layer() {
    torch::nn::Linear base(32, 96);
    LoraLinear lora(base, 4, 8.0);
    QVERIFY(torch::equal(lora->lora_B, torch::zeros({96, 4})));
    QVERIFY(lora->lora_A.abs().sum().item<double>() > 0.0);  // A is random, not zero
    auto x = torch::randn({3, 17, 32});
    QVERIFY(torch::equal(lora->forward(x), base->forward(x)));
  }

  void merged_equals_unmerged() {
    for (bool with_bias : {true, false}) {
      torch::nn::Linear base(torch::nn::LinearOptions(40, 120).bias(with_bias));
      LoraLinear lora(base, 8, 16.0);
      train_a_little(lora);
      auto x = torch::randn({4, 33, 40});
      torch::NoGradGuard no_grad;
      torch::nn::Linear merged = lora->merge();
      QCOMPARE(merged->weight.sizes(), base->weight.sizes());
      QCOMPARE(merged->bias.defined(), with_bias);
      const double err = rel_error(merged->forward(x), lora->forward(x));
      qInfo("bias %d: merged vs unmerged rel err %.3g (float32)", int(with_bias), err);
      QVERIFY2(err < 1e-6, qPrintable(QString::number(err)));
      // The update is W + (alpha / r) B A, by hand in float64.
      auto expected =
          base->weight.to(torch::kDouble) +
          torch::matmul(lora->lora_B.to(torch::kDouble), lora->lora_A.to(torch::kDouble)) *
              (16.0 / 8.0);
      QVERIFY(rel_error(merged->weight, expected) < 1e-6);
      // The wrapper still holds the unmerged weight.
      QVERIFY(torch::equal(lora->weight, base->weight));
      // And it differs from the plain layer now that B is not zero.
      QVERIFY(rel_error(lora->forward(x), base->forward(x)) > 1e-3);
    }
  }

  void frozen_base_trains_only_the_factors() {
    torch::nn::Linear base(16, 16);
    for (auto& p : base->parameters()) p.set_requires_grad(false);
    LoraLinear lora(base, 2, 2.0);
    train_a_little(lora);
    lora->forward(torch::randn({5, 16})).pow(2).sum().backward();
    QVERIFY(!lora->weight.grad().defined());
    QVERIFY(lora->lora_A.grad().defined() && lora->lora_B.grad().defined());
  }

  void rank_must_be_positive() {
    torch::nn::Linear base(4, 4);
    QVERIFY_EXCEPTION_THROWN(LoraLinear(base, 0, 1.0), std::invalid_argument);
  }
};

ADALA_TEST_GUILESS_MAIN(TestLoraLinear)
}  // namespace test_lora_linear

#include "test_lora_linear.moc"
