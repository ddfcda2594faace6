// The planner's cost model (engine/plan/plan_cost_model.h) against the FLOP model worked out by
// hand for fmnist_micro at 28 px, window+linear between linear and softmax, the memory model's
// arithmetic, and the calibration to measured points.
#include <QtTest/QtTest>

#include "engine/measure/flop_model.h"
#include "engine/plan/plan_cost_model.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_plan_cost_model {

using namespace adala;
using namespace adala::plan;
using M = AttentionMode;

namespace {

bool near(double a, double b, double rel = 1e-12) {
  return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class TestPlanCostModel : public QObject {
  Q_OBJECT
 private slots:
  void macs_by_hand_for_the_micro_model() {
    // fmnist_micro: D 32, 2 blocks, 2 heads (d 16), patch 4, MLP 64, 10 classes, a class token.
    const ViTConfig c = vit_preset("fmnist_micro");
    QCOMPARE(c.embed_dim, int64_t(32));
    QCOMPARE(c.head_dim(), int64_t(16));
    // N = 49 + 1 = 50 tokens.
    const double patch_embed = 49.0 * 16 * 32, head = 32.0 * 10;
    const double qkv = 3.0 * 50 * 32 * 32, proj = 50.0 * 32 * 32, mlp = 2.0 * 50 * 32 * 64;
    const double softmax = 2.0 * 50 * 50 * 32, linear = 2.0 * 50 * 32 * 17;
    // 3 x 3 window on the 7 x 7 grid: windows of 2 x 2 + 5 x 3 = 19 patches per axis, 19^2 = 361
    // over all patch queries; keys in windows: 50 (the class query sees all) + 49 (the class
    // token in every patch window) + 361; per head 460 (16 + 16) + 2 x 49 x 16 x 17 (S and
    // phi(Q) S) + 361 (16 + 16) (the window terms taken out).
    const double window = 2.0 * (460.0 * 32 + 2.0 * 49 * 16 * 17 + 361.0 * 32);
    auto total = [&](double a0, double a1) {
      return patch_embed + 2 * (qkv + proj + mlp) + a0 + a1 + head;
    };
    QVERIFY(near(plan_gmacs(c, uniform_attention_plan(2, M::Softmax), 28) * 1e9,
                 total(softmax, softmax)));
    QVERIFY(
        near(plan_gmacs(c, uniform_attention_plan(2, M::Linear), 28) * 1e9, total(linear, linear)));
    QVERIFY(near(plan_gmacs(c, uniform_attention_plan(2, M::WindowLinear, 3), 28) * 1e9,
                 total(window, window)));
    AttentionPlan sl{{M::Softmax, M::Linear}, 3};
    QVERIFY(near(plan_gmacs(c, sl, 28) * 1e9, total(softmax, linear)));
    // The same as the FLOP model's own count.
    QVERIFY(near(plan_gmacs(c, sl, 28) * 1e9, model_flops(c, sl, 28, 28).total()));
    // window+linear between linear and softmax, here and at 4x the side.
    QVERIFY(linear < window && window < softmax);
    for (int64_t res : {28, 112}) {
      const double l = plan_gmacs(c, uniform_attention_plan(2, M::Linear), res);
      const double w = plan_gmacs(c, uniform_attention_plan(2, M::WindowLinear, 3), res);
      const double s = plan_gmacs(c, uniform_attention_plan(2, M::Softmax), res);
      QVERIFY2(l < w && w < s,
               qPrintable(QString("res %1: %2 %3 %4").arg(res).arg(l).arg(w).arg(s)));
      // A hybrid in between too.
      const double h = plan_gmacs(c, sl, res);
      QVERIFY(l < h && h < s);
    }
  }

  void activation_bytes_by_hand() {
    const ViTConfig c = vit_preset("fmnist_micro");
    // N 50, D 32, heads 2, d 16, MLP 64; float32.
    const double resident = 2.0 * 50 * 32, qkvo = 4.0 * 50 * 32;
    // Byte counts held in doubles: integers far below 2^53, exact in any order.
    ADALA_COMPARE_EXACT(block_activation_bytes(c, M::Softmax, 28),
                        4.0 * (resident + qkvo + 2.0 * 2 * 50 * 50));
    ADALA_COMPARE_EXACT(block_activation_bytes(c, M::Linear, 28),
                        4.0 * (resident + qkvo + 2.0 * 2 * 50 * 16 + 2.0 * 16 * 17 + 2.0 * 50));
    ADALA_COMPARE_EXACT(
        block_activation_bytes(c, M::WindowLinear, 28, 3),
        4.0 * (resident + qkvo + 2.0 * 2 * 50 * 16 + 2.0 * 16 * 17 + 2.0 * 50 + 2.0 * 2 * 50 * 9));
    // The model's peak is its largest block: one softmax block holds the softmax peak (the
    // maximum picks that block's value: the same call, the same bits).
    const AttentionPlan sl{{M::Softmax, M::Linear}, 3};
    ADALA_COMPARE_EXACT(plan_activation_bytes(c, sl, 112),
                        block_activation_bytes(c, M::Softmax, 112));
    QVERIFY(block_activation_bytes(c, M::Linear, 112) <
            block_activation_bytes(c, M::WindowLinear, 112));
    QVERIFY(block_activation_bytes(c, M::WindowLinear, 112) <
            block_activation_bytes(c, M::Softmax, 112));
  }

  void calibration_to_measured_points() {
    // Two points: the line through them.
    CostCalibration cal = calibrate_costs({{1.0, 100, 3.0, 200}, {3.0, 300, 7.0, 600}});
    QCOMPARE(cal.points, 2);
    QVERIFY(near(cal.slope_ms_per_gmac, 2.0));
    QVERIFY(near(cal.intercept_ms, 1.0));
    QVERIFY(near(cal.predicted_ms(2.0), 5.0));
    QVERIFY(near(cal.memory_scale, 2.0));
    QVERIFY(near(cal.predicted_bytes(50), 100.0));
    // One point (or a falling line): proportional.
    cal = calibrate_costs({{2.0, 100, 4.0, std::nan("")}});
    QVERIFY(near(cal.predicted_ms(3.0), 6.0));
    ADALA_COMPARE_EXACT(cal.memory_scale, 1.0);  // no finite peak: the constant 1
    cal = calibrate_costs({{1.0, 100, 4.0, 100}, {2.0, 100, 2.0, 100}});
    ADALA_COMPARE_EXACT(cal.intercept_ms, 0.0);  // a falling line: set to the constant 0
    QVERIFY(near(cal.slope_ms_per_gmac, 2.5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, calibrate_costs({}));
  }
};

ADALA_TEST_APPLESS_MAIN(TestPlanCostModel)
}  // namespace test_plan_cost_model

#include "test_plan_cost_model.moc"
