// The planner's choice (engine/plan/plan_choice.h): cheapest plan meeting a gap target, most
// accurate meeting a latency target, a clear message when none does; alpha's arithmetic.
#include <QtTest/QtTest>

#include "engine/plan/plan_choice.h"
#include "engine/plan/plan_request.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_plan_choice {

using namespace adala::plan;

namespace {

std::vector<ChoiceInput> inputs() {
  // name, GMACs, peak bytes, predicted ms, predicted gap
  return {{"teacher", 10.0, 900, 9.0, 0.0},    {"all-linear", 4.0, 300, 4.0, 3.0},
          {"softmax-0", 5.0, 900, 5.0, 0.8},   {"softmax-1", 5.0, 900, 5.0, 1.5},
          {"softmax-0-1", 6.0, 900, 6.0, 0.3}, {"window3", 5.0, 400, 5.5, 0.8}};
}

PlanTarget gap(double v) { return {PlanTarget::Kind::Gap, v}; }
PlanTarget ms(double v) { return {PlanTarget::Kind::Ms, v}; }

}  // namespace

class TestPlanChoice : public QObject {
  Q_OBJECT
 private slots:
  void cheapest_meeting_the_gap_target() {
    const auto in = inputs();
    // softmax-0 and window3 tie on GMACs; window3 holds less memory.
    QCOMPARE(in[size_t(choose_plan(in, gap(1.0), 224).index)].name, std::string("window3"));
    QCOMPARE(in[size_t(choose_plan(in, gap(5.0), 224).index)].name, std::string("all-linear"));
    QCOMPARE(in[size_t(choose_plan(in, gap(0.5), 224).index)].name, std::string("softmax-0-1"));
    // A gap of exactly the target meets it.
    QCOMPARE(in[size_t(choose_plan(in, gap(3.0), 224).index)].name, std::string("all-linear"));
    // 0: only the teacher.
    const PlanChoice c = choose_plan(in, gap(0.0), 224);
    QCOMPARE(in[size_t(c.index)].name, std::string("teacher"));
    QVERIFY2(QString::fromStdString(c.reason).contains("cheapest"), c.reason.c_str());
  }

  void most_accurate_meeting_the_ms_target() {
    const auto in = inputs();
    QCOMPARE(in[size_t(choose_plan(in, ms(5.0), 224).index)].name, std::string("softmax-0"));
    QCOMPARE(in[size_t(choose_plan(in, ms(6.0), 224).index)].name, std::string("softmax-0-1"));
    QCOMPARE(in[size_t(choose_plan(in, ms(4.5), 224).index)].name, std::string("all-linear"));
  }

  void no_plan_meets_the_target() {
    const PlanChoice c = choose_plan(inputs(), ms(1.0), 448);
    QCOMPARE(c.index, -1);
    QVERIFY2(QString::fromStdString(c.reason).contains("no plan meets the target"),
             c.reason.c_str());
    QVERIFY2(QString::fromStdString(c.reason).contains("all-linear"), c.reason.c_str());
    QVERIFY2(QString::fromStdString(c.reason).contains("448px"), c.reason.c_str());
    std::vector<ChoiceInput> in = inputs();
    for (auto& i : in) i.predicted_gap += 2.0;  // even the teacher misses (not a real case)
    const PlanChoice g = choose_plan(in, gap(1.0), 224);
    QCOMPARE(g.index, -1);
    QVERIFY2(QString::fromStdString(g.reason).contains("closest is teacher"), g.reason.c_str());
  }

  void alpha_arithmetic() {
    // Drop before Stage 2: 90 - 70 = 20 pt; final gap 90.5 - 88.5 = 2 pt: alpha 0.1.
    const AlphaCalibration a = calibrate_alpha(0.90, 0.70, 0.905, 0.885);
    QVERIFY(a.calibrated);
    QVERIFY(std::abs(a.alpha - 0.1) < 1e-9);
    QVERIFY(std::abs(predicted_gap(a.alpha, 0.90, 0.85) - 0.5) < 1e-9);
    // A student better than its teacher: alpha 0, never negative.
    // A negative ratio clamped by std::max(0.0, ...): exactly 0.
    ADALA_COMPARE_EXACT(calibrate_alpha(0.9, 0.7, 0.80, 0.81).alpha, 0.0);
    // Too small a drop, or no student: alpha 1, said so.
    const AlphaCalibration tiny = calibrate_alpha(0.9, 0.8995, 0.9, 0.8);
    QVERIFY(!tiny.calibrated);
    ADALA_COMPARE_EXACT(tiny.alpha, 1.0);  // the default, untouched
    QVERIFY(QString::fromStdString(tiny.note).contains("too small"));
    const AlphaCalibration none = calibrate_alpha(0.9, 0.7, 0.9, std::nan(""));
    QVERIFY(!none.calibrated);
    ADALA_COMPARE_EXACT(uncalibrated_alpha().alpha, 1.0);  // the default, untouched
    QVERIFY(QString::fromStdString(uncalibrated_alpha().note).contains("conservative"));
    QVERIFY(std::abs(predicted_gap(1.0, 0.9, 0.88) - 2.0) < 1e-9);
  }

  void request_checks() {
    PlanRequest r;
    r.source = "x.json";
    r.resolution = 224;
    check_plan_request(r);
    auto refused = [](PlanRequest q, const char* text) {
      try {
        check_plan_request(q);
      } catch (const PlanInputError& e) {
        return QString(e.what()).contains(text);
      }
      return false;
    };
    PlanRequest q = r;
    q.resolution = 8;
    QVERIFY(refused(q, "out of range"));
    q.resolution = 8192;
    QVERIFY(refused(q, "out of range"));
    q = r;
    q.target_gap = 1.0;
    q.target_ms = 3.0;
    QVERIFY(refused(q, "give one target"));
    q = r;
    q.target_gap = -0.5;
    QVERIFY(refused(q, ">= 0 points"));
    q = r;
    q.target_ms = 0;
    QVERIFY(refused(q, "> 0 ms"));
    q = r;
    q.window = 4;
    QVERIFY(refused(q, "odd"));
    q = r;
    q.held_out = 0;
    QVERIFY(refused(q, "--held-out"));
    q = r;
    q.repeats = 0;
    QVERIFY(refused(q, "--repeats"));
    q = r;
    q.source = "";
    QVERIFY(refused(q, "missing CONFIG"));
    QVERIFY_THROWS_EXCEPTION(PlanInputError, check_plan_resolution(30, 4));
    check_plan_resolution(32, 4);
    QVERIFY_THROWS_EXCEPTION(PlanInputError, check_held_out(128, 128));
    check_held_out(127, 128);
    QCOMPARE(plan_target(r).kind, PlanTarget::Kind::Gap);
    ADALA_COMPARE_EXACT(plan_target(r).value, kDefaultTargetGap);  // the constant, copied
    q = r;
    q.target_ms = 2.5;
    QCOMPARE(plan_target(q).kind, PlanTarget::Kind::Ms);
  }
};

ADALA_TEST_APPLESS_MAIN(TestPlanChoice)
}  // namespace test_plan_choice

#include "test_plan_choice.moc"
