// engine/plan/plan_record: plan points written with record_plan_point and read back from a
// real SQLite file (malformed evaluations skipped, sessions filtered), the frontier against a
// brute-force check on random points, and the rows of a frontier table.
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "engine/plan/plan_record.h"
#include "engine/store/run_store.h"
#include "tests/plan/plan_fixture.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_plan_record {

using namespace adala;
using namespace plan_test;
using store::RunStore;

namespace {

std::string fresh_db(const char* name) {
  return adala_test::fresh_test_dir("plan", name) + "/runs.sqlite";
}

std::vector<std::string> names(const std::vector<PlanPoint>& points,
                               const std::vector<size_t>& indices) {
  std::vector<std::string> out;
  for (size_t i : indices) out.push_back(points[i].name);
  return out;
}

}  // namespace

class TestPlanRecord : public QObject {
  Q_OBJECT
 private slots:
  void roundTrip() {
    const std::string path = fresh_db("round-trip");
    int64_t run = 0;
    {
      RunStore store(path);
      PlanPoint p = make_point("softmax-0", "runs/plan-x", {S, W, L}, 0.8125,
                               {{64, 3.25, 1.5e7}, {32, 1.0, 4e6}});
      p.window = 5;
      p.predicted_gap = -1.5;
      p.held_out_top1 = 0.7;
      run = record(store, p);
      store.create_run("not a plan", "{}", "cpu", "1.13", "0.1");  // untagged: not read
    }
    RunStore db(path, store::OpenMode::ReadOnly);
    const auto points = read_plan_points(db);
    QCOMPARE(points.size(), size_t(1));
    const PlanPoint& p = points.front();
    QCOMPARE(p.run, run);
    QCOMPARE(p.name, std::string("softmax-0"));
    QCOMPARE(p.planner, std::string("runs/plan-x"));
    QCOMPARE(plan_strip(p.modes), std::string("SWL"));
    QCOMPARE(p.window, int64_t(5));
    // Written as SQLite REALs and read back: the same doubles.
    ADALA_COMPARE_EXACT(p.top1, 0.8125);
    ADALA_COMPARE_EXACT(p.predicted_gap, -1.5);
    ADALA_COMPARE_EXACT(p.held_out_top1, 0.7);
    QCOMPARE(p.costs.size(), size_t(2));
    QCOMPARE(p.costs[0].resolution, int64_t(32));  // by resolution
    ADALA_COMPARE_EXACT(p.cost_at(64)->ms_per_img, 3.25);
    ADALA_COMPARE_EXACT(p.cost_at(64)->peak_bytes, 1.5e7);
    QVERIFY(p.cost_at(128) == nullptr);
    const auto tags = db.find_run(run)->tags;
    for (const char* tag : {"plan", "plan:softmax-0", "planner:runs/plan-x"})
      QVERIFY2(std::find(tags.begin(), tags.end(), tag) != tags.end(), tag);
  }

  void malformedEvaluationsAreSkipped() {
    const std::string path = fresh_db("malformed");
    int64_t good = 0;
    {
      RunStore store(path);
      good = record(store, make_point("good", "s", {S, L}, 0.5, {{32, 1, 1}}));
      auto bad = [&](const std::string& name, auto spoil) {
        const int64_t run = record(store, make_point(name, "s", {S, L}, 0.5, {{32, 1, 1}}));
        spoil(run);
        store.flush();
      };
      // A mode that is not one of the table's values, or not a whole number.
      bad("mode-out-of-range", [&](int64_t r) { store.add_evaluation(r, "plan", "mode@1", 7); });
      bad("mode-fraction", [&](int64_t r) { store.add_evaluation(r, "plan", "mode@0", 0.5); });
      bad("mode-negative", [&](int64_t r) { store.add_evaluation(r, "plan", "mode@0", -1); });
      // A block missing in the middle (blocks 0, 1 and 3).
      bad("mode-gap", [&](int64_t r) { store.add_evaluation(r, "plan", "mode@3", 0); });
      // A block index that is not a number.
      bad("mode-name", [&](int64_t r) { store.add_evaluation(r, "plan", "mode@x", 0); });
      // No finite top-1.
      bad("top1-nan", [&](int64_t r) { store.add_evaluation(r, "plan", "top1", std::nan("")); });
      // Tagged "plan" but nothing recorded.
      const int64_t bare = store.create_run("bare", "{}", "cpu", "1.13", "0.1");
      store.add_tag(bare, "plan");
      // A cost key with a malformed resolution is ignored, not the point.
      const int64_t odd = record(store, make_point("odd-cost", "s", {L}, 0.4, {{32, 1, 1}}));
      store.add_evaluation(odd, "plan", "ms_per_img@abc", 3);
      store.add_evaluation(odd, "plan", "window", std::nan(""));
      store.flush();
    }
    RunStore db(path, store::OpenMode::ReadOnly);
    const auto points = read_plan_points(db);
    QCOMPARE(points.size(), size_t(2));
    QCOMPARE(points[0].run, good);
    QCOMPARE(points[1].name, std::string("odd-cost"));
    QCOMPARE(points[1].costs.size(), size_t(1));
    QCOMPARE(points[1].window, int64_t(3));  // the default kept
  }

  void plannerFilter() {
    const Fixture f = write_fixture(fresh_db("planner"));
    RunStore db(f.path, store::OpenMode::ReadOnly);
    const auto all = read_plan_points(db);
    QCOMPARE(all.size(), size_t(7));
    QCOMPARE(all.front().run, f.teacher);  // oldest first
    const auto a = read_plan_points(db, "sess-a");
    QCOMPARE(a.size(), size_t(5));
    for (const auto& p : a) QCOMPARE(p.planner, std::string("sess-a"));
    const auto b = read_plan_points(db, "sess-b");
    QCOMPARE(b.size(), size_t(2));
    QCOMPARE(b[1].run, f.b_linear);
    QVERIFY(read_plan_points(db, "sess-c").empty());
    QVERIFY(read_plan_points(db, "sess").empty());  // a prefix is not a session
    QCOMPARE(plan_planners(all), (std::vector<std::string>{"sess-a", "sess-b"}));
    QCOMPARE(common_resolutions(a), (std::vector<int64_t>{32, 64}));
    QCOMPARE(common_resolutions(all), (std::vector<int64_t>{32}));
    QCOMPARE(plan_teacher(all, "sess-b")->run, f.b_teacher);
    QVERIFY(plan_teacher(all, "sess-c") == nullptr);
  }

  void frontierOfTheFixture() {
    const Fixture f = write_fixture(fresh_db("frontier"));
    RunStore db(f.path, store::OpenMode::ReadOnly);
    const auto a = read_plan_points(db, "sess-a");
    QCOMPARE(names(a, pareto_frontier(a, 32, FrontierCost::MsPerImage)),
             (std::vector<std::string>{"all-linear", "window3", "softmax-0", "teacher"}));
    QCOMPARE(names(a, pareto_frontier(a, 32, FrontierCost::PeakBytes)),
             (std::vector<std::string>{"all-linear", "softmax-0", "teacher"}));
    QVERIFY(pareto_frontier(a, 128, FrontierCost::MsPerImage).empty());

    const auto rows = plan_rows(a, 32, FrontierCost::MsPerImage);
    QCOMPARE(rows.size(), size_t(5));
    std::vector<double> costs;
    for (const auto& r : rows) costs.push_back(r.cost);
    // The fixture's ms_per_img, stored as REALs and read back.
    ADALA_COMPARE_EXACT(costs, (std::vector<double>{1.0, 1.5, 2.0, 2.5, 4.0}));
    QCOMPARE(a[rows[3].index].name, std::string("softmax-0-3"));
    QVERIFY(!rows[3].on_frontier);
    QVERIFY(rows[0].on_frontier && rows[4].on_frontier);
    QVERIFY(std::abs(rows[0].gap_points - (-10.0)) < 1e-9);  // all-linear: 80 % vs 90 %
    ADALA_COMPARE_EXACT(rows[4].gap_points, 0.0);            // the teacher: 100 * (x - x)
  }

  void costsNotMeasuredAreLeftOut() {
    std::vector<PlanPoint> points = {
        make_point("a", "", {L}, 0.5, {{32, 1.0, -1}}),  // peak not measured
        make_point("b", "", {S}, 0.9, {{32, 2.0, 5e6}}),
        make_point("c", "", {S}, 0.95, {{32, std::nan(""), 9e6}})};
    QCOMPARE(names(points, pareto_frontier(points, 32, FrontierCost::PeakBytes)),
             (std::vector<std::string>{"b", "c"}));
    QCOMPARE(names(points, pareto_frontier(points, 32, FrontierCost::MsPerImage)),
             (std::vector<std::string>{"a", "b"}));
    const auto rows = plan_rows(points, 32, FrontierCost::MsPerImage);
    QCOMPARE(points[rows.back().index].name, std::string("c"));  // no cost: last
    QVERIFY(std::isnan(rows.back().cost));
    QVERIFY(std::isnan(rows.front().gap_points));  // no teacher
    QVERIFY_EXCEPTION_THROWN(frontier_cost_from_string("gflops"), std::invalid_argument);
  }

  // The frontier against its definition, checked pair by pair, on random points with many
  // ties (costs and accuracies from small sets).
  void frontierMatchesBruteForce() {
    std::mt19937 rng(36);
    for (int trial = 0; trial < 300; ++trial) {
      std::uniform_int_distribution<int> count(0, 14), level(0, 6), pick(0, 9);
      std::vector<PlanPoint> points;
      const int n = count(rng);
      for (int i = 0; i < n; ++i) {
        PlanCost c{32, 0.5 * (1 + level(rng)), 1e6 * (1 + level(rng))};
        if (pick(rng) == 0) c.ms_per_img = std::nan("");
        std::vector<PlanCost> costs = {c};
        if (pick(rng) == 0) costs.clear();  // no cost at 32
        points.push_back(make_point("p" + std::to_string(i), "", {L}, 0.1 * level(rng), costs));
      }
      for (FrontierCost axis : {FrontierCost::MsPerImage, FrontierCost::PeakBytes}) {
        auto cost = [&](size_t i) {
          const PlanCost* c = points[i].cost_at(32);
          return c ? cost_value(*c, axis) : std::nan("");
        };
        std::set<size_t> expected;
        for (size_t i = 0; i < points.size(); ++i) {
          if (!std::isfinite(cost(i))) continue;
          bool dominated = false;
          for (size_t j = 0; j < points.size(); ++j)
            if (j != i && std::isfinite(cost(j)) && points[j].top1 >= points[i].top1 &&
                cost(j) <= cost(i) && (points[j].top1 > points[i].top1 || cost(j) < cost(i)))
              dominated = true;
          if (!dominated) expected.insert(i);
        }
        const auto frontier = pareto_frontier(points, 32, axis);
        QCOMPARE(std::set<size_t>(frontier.begin(), frontier.end()), expected);
        QCOMPARE(frontier.size(), expected.size());  // each once
        for (size_t k = 1; k < frontier.size(); ++k) {
          QVERIFY(cost(frontier[k - 1]) <= cost(frontier[k]));  // cheapest first
          // Along the frontier, a dearer point is more accurate (or a tie at equal cost).
          QVERIFY(points[frontier[k - 1]].top1 <= points[frontier[k]].top1);
        }
        const auto rows = plan_rows(points, 32, axis);
        QCOMPARE(rows.size(), points.size());
        for (const auto& r : rows) QCOMPARE(r.on_frontier, expected.count(r.index) == 1);
      }
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestPlanRecord)
}  // namespace test_plan_record

#include "test_plan_record.moc"
