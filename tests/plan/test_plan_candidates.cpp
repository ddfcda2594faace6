// The planner's candidates (engine/plan/plan_candidates.h): names, the merge of a ranked plan
// into its single, ranking by sensitivity, and the ranked neighbours of a plan.
#include <QtTest/QtTest>

#include "engine/plan/plan_candidates.h"
#include "engine/plan/plan_record.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_plan_candidates {

using namespace adala;
using namespace adala::plan;

namespace {

std::vector<std::string> names(const std::vector<PlanCandidate>& cs) {
  std::vector<std::string> out;
  for (const auto& c : cs) out.push_back(c.name);
  return out;
}

}  // namespace

class TestPlanCandidates : public QObject {
  Q_OBJECT
 private slots:
  void ranking_orders_by_drop_then_mse_then_index() {
    QCOMPARE(sensitivity_ranking({0.5, 3.0, 1.0, 3.0}), (std::vector<int64_t>{1, 3, 2, 0}));
    // Ties on the drop go to the larger MSE.
    QCOMPARE(sensitivity_ranking({0.5, 3.0, 1.0, 3.0}, {0, 0.1, 0, 0.2}),
             (std::vector<int64_t>{3, 1, 2, 0}));
    // NaN drops are the least sensitive.
    QCOMPARE(sensitivity_ranking({std::nan(""), 0.0}), (std::vector<int64_t>{1, 0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sensitivity_ranking({1, 2}, {1}));
  }

  void names_and_merging_for_depth_four() {
    // Block 2 the most sensitive, then 0, 3, 1.
    const auto cs = plan_candidates(4, {2, 0, 3, 1}, 3);
    QCOMPARE(names(cs), (std::vector<std::string>{"teacher", "all-linear", "softmax-0", "softmax-1",
                                                  "softmax-2", "softmax-3", "softmax-0-2",
                                                  "softmax-0-2-3", "window3"}));
    // The ranked k = 1 plan is softmax-2: merged into the single, which carries its rank.
    QCOMPARE(find_candidate(cs, "softmax-2")->ranked_k, int64_t(1));
    QCOMPARE(find_candidate(cs, "softmax-0")->ranked_k, int64_t(0));
    QCOMPARE(find_candidate(cs, "softmax-0-2")->ranked_k, int64_t(2));
    QCOMPARE(find_candidate(cs, "softmax-0-2-3")->ranked_k, int64_t(3));
    // Strips say the same as the names.
    QCOMPARE(plan_strip(find_candidate(cs, "teacher")->plan.modes), std::string("SSSS"));
    QCOMPARE(plan_strip(find_candidate(cs, "all-linear")->plan.modes), std::string("LLLL"));
    QCOMPARE(plan_strip(find_candidate(cs, "softmax-0-2-3")->plan.modes), std::string("SLSS"));
    QCOMPARE(plan_strip(find_candidate(cs, "window3")->plan.modes), std::string("WWWW"));
    QCOMPARE(find_candidate(cs, "window3")->plan.window, int64_t(3));
    QVERIFY(find_candidate(cs, "window3")->is_window());
    QVERIFY(find_candidate(cs, "teacher")->is_teacher());
    // Every name is unique.
    auto n = names(cs);
    std::sort(n.begin(), n.end());
    QVERIFY(std::adjacent_find(n.begin(), n.end()) == n.end());
  }

  void requested_names_expand_singles_and_refuse_unknown_ones() {
    const auto cs = plan_candidates(4, {2, 0, 3, 1}, 3);
    QCOMPARE(
        requested_candidates(cs, {"singles", "window3", "softmax-2"}, 4),
        (std::vector<std::string>{"softmax-0", "softmax-1", "softmax-2", "softmax-3", "window3"}));
    QCOMPARE(requested_candidates(cs, {"softmax-0-2", "all-linear"}, 4),
             (std::vector<std::string>{"softmax-0-2", "all-linear"}));
    try {
      requested_candidates(cs, {"softmax-1-2"}, 4);  // not a ranked plan here
      QFAIL("an unknown name was accepted");
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      QVERIFY2(m.find("\"softmax-1-2\" is not a candidate") != std::string::npos, e.what());
      QVERIFY2(m.find("softmax-0-2-3, window3, or singles") != std::string::npos, e.what());
    }
  }

  void window_zero_leaves_the_window_plan_out() {
    const auto cs = plan_candidates(2, {1, 0}, 0);
    QCOMPARE(names(cs),
             (std::vector<std::string>{"teacher", "all-linear", "softmax-0", "softmax-1"}));
    QCOMPARE(find_candidate(cs, "softmax-1")->ranked_k, int64_t(1));
  }

  void ranking_must_be_a_permutation() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, plan_candidates(3, {0, 1}, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, plan_candidates(3, {0, 1, 1}, 3));
  }

  void ranked_neighbours_add_and_drop_by_sensitivity() {
    const std::vector<int64_t> ranking{2, 0, 3, 1};
    const auto cs = plan_candidates(4, ranking, 3);
    QCOMPARE(ranked_neighbours(cs, ranking, "softmax-0-2"),
             (std::vector<std::string>{"softmax-2", "softmax-0-2-3"}));
    QCOMPARE(ranked_neighbours(cs, ranking, "softmax-2"),
             (std::vector<std::string>{"all-linear", "softmax-0-2"}));
    QCOMPARE(ranked_neighbours(cs, ranking, "all-linear"), (std::vector<std::string>{"softmax-2"}));
    // The top ranked plan's "one more" is the teacher: left out.
    QCOMPARE(ranked_neighbours(cs, ranking, "softmax-0-2-3"),
             (std::vector<std::string>{"softmax-0-2"}));
    // A single that is not ranked: one fewer is all-linear; one more (softmax-1-2) is no candidate.
    QCOMPARE(ranked_neighbours(cs, ranking, "softmax-1"), (std::vector<std::string>{"all-linear"}));
    QVERIFY(ranked_neighbours(cs, ranking, "window3").empty());
    QVERIFY(ranked_neighbours(cs, ranking, "teacher").empty());
  }

  void plan_names() {
    QCOMPARE(softmax_plan_name({3, 0}, 4), std::string("softmax-0-3"));
    QCOMPARE(softmax_plan_name({}, 4), std::string("all-linear"));
    QCOMPARE(softmax_plan_name({0, 1}, 2), std::string("teacher"));
    QCOMPARE(window_plan_name(5), std::string("window5"));
  }
};

ADALA_TEST_APPLESS_MAIN(TestPlanCandidates)
}  // namespace test_plan_candidates

#include "test_plan_candidates.moc"
