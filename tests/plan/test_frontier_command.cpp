// `adala frontier` on a database written with record_plan_point: the Markdown table on
// std::cout (cheapest first, the frontier marked), --planner / --res / --cost / --csv, and the
// errors for an unknown session, a resolution without costs and a database without plans.
#include <QtTest/QtTest>

#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "tests/plan/plan_fixture.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_frontier_command {

using adala::cli::Args;

namespace {

struct Outcome {
  int code = -1;
  std::string out, error;
};

// `adala frontier ARGS...` as main() runs it: a UsageError is exit code 2, another exception 1.
Outcome frontier(Args args) {
  std::ostringstream out;
  auto* saved = std::cout.rdbuf(out.rdbuf());
  Outcome o;
  try {
    o.code = adala::cli::frontier_command(args);
  } catch (const adala::cli::UsageError& e) {
    o.code = 2;
    o.error = e.what();
  } catch (const std::exception& e) {
    o.code = 1;
    o.error = e.what();
  }
  std::cout.rdbuf(saved);
  o.out = out.str();
  return o;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The table's lines ("| ..."), header and rule included.
std::vector<std::string> table_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("| ", 0) == 0 || line.rfind("|---", 0) == 0) lines.push_back(line);
  return lines;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

class TestFrontierCommand : public QObject {
  Q_OBJECT
  std::string dir_;
  plan_test::Fixture f_;

 private slots:
  void initTestCase() {
    dir_ = adala_test::fresh_test_dir("plan", "frontier-command");
    f_ = plan_test::write_fixture(dir_ + "/runs.sqlite");
  }

  void sessionTable() {
    // Without --res: the largest resolution at which every plan has a cost (64 px here).
    const auto by_default = frontier({"--db", f_.path, "--planner", "sess-a"});
    QCOMPARE(by_default.code, 0);
    QVERIFY(contains(table_lines(by_default.out)[0], "ms/img @64"));
    const auto o = frontier({"--db", f_.path, "--planner", "sess-a", "--res", "32"});
    QCOMPARE(o.code, 0);
    const auto lines = table_lines(o.out);
    QCOMPARE(lines.size(), size_t(7));  // header, rule, 5 plans
    QCOMPARE(lines[0],
             std::string("| plan | blocks | top-1 (%) | gap to teacher (pt) | ms/img @32 | peak MB "
                         "@32 | run | frontier |"));
    // Cheapest first at 32 px; softmax-0-3 is not on the frontier.
    QCOMPARE(lines[2], "| all-linear | LLLL | 80.00 | -10.00 | 1 | 10.00 | " +
                           std::to_string(f_.all_linear) + " | * |");
    QCOMPARE(lines[3], "| window3 | WWWW | 84.00 | -6.00 | 1.5 | 30.00 | " +
                           std::to_string(f_.window3) + " | * |");
    QCOMPARE(lines[5], "| softmax-0-3 | SLLS | 85.00 | -5.00 | 2.5 | 25.00 | " +
                           std::to_string(f_.softmax03) + " |  |");
    QCOMPARE(lines[6], "| teacher | SSSS | 90.00 | +0.00 | 4 | 40.00 | " +
                           std::to_string(f_.teacher) + " | * |");
    QVERIFY(contains(o.out,
                     "Frontier, cheapest first: all-linear -> window3 -> softmax-0 -> "
                     "teacher"));
  }

  void peakCostAndResolution() {
    const auto o =
        frontier({"--db", f_.path, "--planner", "sess-a", "--res", "64", "--cost", "peak"});
    QCOMPARE(o.code, 0);
    const auto lines = table_lines(o.out);
    QVERIFY(contains(lines[0], "ms/img @64"));
    // By peak memory at 64 px: all-linear 20 MB, window3 35, softmax-0 60, softmax-0-3 110
    // (less accurate than softmax-0: off the frontier), teacher 200.
    QVERIFY(lines[2].rfind("| all-linear |", 0) == 0);
    QVERIFY(lines[3].rfind("| window3 | WWWW | 84.00 | -6.00 | 3 | 35.00 |", 0) == 0);
    QVERIFY(contains(lines[3], "| * |"));
    QVERIFY(lines[5].rfind("| softmax-0-3 |", 0) == 0);
    QVERIFY(contains(lines[5], "|  |"));
    QVERIFY(contains(o.out, "frontier by peak memory"));
  }

  void everySessionAndCsv() {
    const std::string csv = dir_ + "/frontier.csv";
    const auto o = frontier({"--db", f_.path, "--csv", csv});
    QCOMPARE(o.code, 0);
    const auto lines = table_lines(o.out);
    QCOMPARE(lines.size(), size_t(9));
    QVERIFY(contains(lines[0], "| plan | session | blocks |"));
    // sess-b's all-linear: its gap against sess-b's teacher (65 % vs 70 %).
    bool found = false;
    for (const auto& l : lines)
      found = found || l.rfind("| all-linear | sess-b | LL | 65.00 | -5.00 |", 0) == 0;
    QVERIFY(found);
    const std::string text = read_file(csv);
    QVERIFY(text.rfind("plan,session,blocks,top1,gap_points,resolution,ms_per_img,peak_bytes,"
                       "run,frontier\n",
                       0) == 0);
    QVERIFY(contains(
        text, "\nteacher,sess-a,SSSS,0.9,0,32,4,40000000," + std::to_string(f_.teacher) + ",1\n"));
    QCOMPARE(std::count(text.begin(), text.end(), '\n'), 8L);
  }

  void errors() {
    auto o = frontier({"--db", f_.path, "--planner", "sess-z"});
    QCOMPARE(o.code, 2);
    QVERIFY2(contains(o.error, "no planning session \"sess-z\"") &&
                 contains(o.error, "sessions: sess-a, sess-b"),
             o.error.c_str());

    o = frontier({"--db", f_.path, "--res", "64"});  // sess-b has no cost at 64
    QCOMPARE(o.code, 2);
    QVERIFY2(contains(o.error, "not every plan has a cost at 64 px") &&
                 contains(o.error, "resolutions with costs: 32"),
             o.error.c_str());

    o = frontier({"--db", f_.path, "--cost", "flops"});
    QCOMPARE(o.code, 2);

    const std::string empty = dir_ + "/empty.sqlite";
    {
      adala::store::RunStore store(empty);
      store.create_run("not a plan", "{}", "cpu", "1.13", "0.1");
    }
    o = frontier({"--db", empty});
    QCOMPARE(o.code, 1);
    QVERIFY2(contains(o.error, "no trained attention plans") &&
                 contains(o.error, "adala plan CONFIG --res R --train"),
             o.error.c_str());

    o = frontier({"--db", dir_ + "/missing.sqlite"});
    QCOMPARE(o.code, 1);
    QVERIFY2(contains(o.error, "no run database at"), o.error.c_str());
    QVERIFY(o.out.empty());
  }
};

ADALA_TEST_GUILESS_MAIN(TestFrontierCommand)
}  // namespace test_frontier_command

#include "test_frontier_command.moc"
