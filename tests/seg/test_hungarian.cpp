// The Hungarian solver against brute force over every assignment of small random matrices.
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>

#include "engine/seg/hungarian.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_hungarian {

using namespace adala;

namespace {

// Minimum over all injective maps of the smaller side into the larger one.
double brute_force(const std::vector<double>& cost, int64_t rows, int64_t cols) {
  const bool transposed = rows > cols;
  const int64_t n = std::min(rows, cols), m = std::max(rows, cols);
  auto at = [&](int64_t i, int64_t j) {
    return transposed ? cost[size_t(j * cols + i)] : cost[size_t(i * cols + j)];
  };
  std::vector<int64_t> jobs(static_cast<size_t>(m));
  std::iota(jobs.begin(), jobs.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  // Every permutation of the m jobs; the first n give an injective map (duplicates are fine).
  do {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += at(i, jobs[size_t(i)]);
    best = std::min(best, s);
  } while (std::next_permutation(jobs.begin(), jobs.end()));
  return best;
}

void check_valid(const std::vector<int64_t>& a, int64_t rows, int64_t cols) {
  QCOMPARE(int64_t(a.size()), rows);
  std::set<int64_t> used;
  int64_t assigned = 0;
  for (int64_t c : a) {
    if (c < 0) continue;
    QVERIFY(c < cols);
    QVERIFY2(used.insert(c).second, "a column is used twice");
    ++assigned;
  }
  QCOMPARE(assigned, std::min(rows, cols));
}

}  // namespace

class HungarianTest : public QObject {
  Q_OBJECT
 private slots:
  void matches_brute_force_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    const int shapes[][2] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7},
                             {2, 5}, {3, 7}, {4, 6}, {5, 8}, {6, 3}, {7, 2}, {8, 5}};
    for (const auto& s : shapes)
      QTest::newRow((std::to_string(s[0]) + "x" + std::to_string(s[1])).c_str()) << s[0] << s[1];
  }
  void matches_brute_force() {
    QFETCH(int, rows);
    QFETCH(int, cols);
    for (unsigned seed = 0; seed < 12; ++seed) {
      std::mt19937 gen(seed * 7919u + unsigned(rows * 31 + cols));
      std::uniform_real_distribution<double> real(-5.0, 10.0);
      std::uniform_int_distribution<int> small(0, 3);  // many ties in half the trials
      std::vector<double> cost(size_t(rows * cols));
      for (auto& c : cost) c = seed % 2 ? real(gen) : double(small(gen));
      auto a = solve_assignment(cost, rows, cols);
      check_valid(a, rows, cols);
      const double got = assignment_cost(cost, cols, a), want = brute_force(cost, rows, cols);
      QVERIFY2(std::fabs(got - want) < 1e-9,
               qPrintable(QString("seed %1: %2 vs brute force %3").arg(seed).arg(got).arg(want)));
    }
  }

  void known_example() {
    // Rows pick columns 1, 0, 2: 1 + 2 + 2 = 5 (the textbook 3x3 example).
    std::vector<double> cost = {4, 1, 3, 2, 0, 5, 3, 2, 2};
    auto a = solve_assignment(cost, 3, 3);
    QCOMPARE(a, (std::vector<int64_t>{1, 0, 2}));
    ADALA_COMPARE_EXACT(assignment_cost(cost, 3, a), 5.0);  // a sum of small whole numbers: exact
    // More rows than columns: the cheapest rows win, the others get -1.
    std::vector<double> tall = {9, 9, 1, 8, 8, 1};  // 3 x 2
    auto t = solve_assignment(tall, 3, 2);
    QCOMPARE(t, (std::vector<int64_t>{-1, 0, 1}));
  }

  void rejects_bad_input() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solve_assignment({1, 2, 3}, 2, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             solve_assignment({1, std::numeric_limits<double>::quiet_NaN()}, 1, 2));
    QCOMPARE(solve_assignment({}, 0, 4).size(), size_t(0));
    QCOMPARE(solve_assignment({}, 3, 0), (std::vector<int64_t>{-1, -1, -1}));
  }
};

ADALA_TEST_GUILESS_MAIN(HungarianTest)
}  // namespace test_hungarian

#include "test_hungarian.moc"
