// `adala plan` as a user calls it: each bad input refused with a clear message (exit code 2)
// before anything trains, and one session with --train on a micro model and a slice of
// Fashion-MNIST whose runs carry plan:<name> and read back through read_plan_points().
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <set>

#include "engine/plan/plan_record.h"
#include "engine/store/run_store.h"
#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_plan_command {

using namespace adala;
using adala_test::run_adala;
namespace fs = std::filesystem;

namespace {

std::string fresh_dir(const std::string& name) {
  const std::string dir = std::string(ADALA_TEST_TMP) + "/plan_command/" + name + "-" +
                          std::to_string(QCoreApplication::applicationPid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string write_config(const std::string& dir) {
  const std::string path = dir + "/micro.json";
  std::ofstream(path) << R"({"name": "plan", "seed": 5, "device": "cpu", "threads": 1,
  "model": {"preset": "fmnist_micro"},
  "data": {"train_limit": 160, "test_limit": 64, "decode_threads": 0},
  "stages": {
    "teacher": {"max_steps": 20, "batch_size": 32, "lr": 0.003},
    "attention_alignment": {"max_steps": 3, "batch_size": 32},
    "feature_alignment": {"max_steps": 2, "batch_size": 32},
    "fine_tuning": {"max_steps": 2, "batch_size": 32}}})";
  return path;
}

QStringList q(const std::vector<std::string>& args) {
  QStringList out;
  for (const auto& a : args) out << QString::fromStdString(a);
  return out;
}

bool have_dataset() {
  return fs::exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");
}

}  // namespace

class TestPlanCommand : public QObject {
  Q_OBJECT
 private slots:
  void bad_inputs_are_refused() {
    const std::string dir = fresh_dir("errors");
    const std::string config = write_config(dir);
    const std::string out = dir + "/out";
    // A run folder without its Stage 1.
    fs::create_directories(dir + "/run");
    fs::copy_file(config, dir + "/run/config.json");
    const std::vector<std::pair<std::vector<std::string>, QString>> cases = {
        {{"nosuchrun", "--res", "56", "--db", dir + "/none.sqlite"}, "unknown run or config"},
        {{"nosuchrun", "--res", "56", "--db", "none"}, "unknown run or config"},
        {{config, "--res", "8"}, "--res 8: out of range (16..4096"},
        {{config, "--res", "8192"}, "out of range"},
        {{config, "--res", "30"}, "not a multiple of the model's patch size 4"},
        {{config, "--res", "56", "--target-gap", "1", "--target-ms", "3"}, "give one target"},
        {{config, "--res", "56", "--target-gap=-1"}, "must be a gap of >= 0 points"},
        {{config, "--res", "56", "--target-ms", "0"}, "must be > 0 ms"},
        {{config, "--res", "56", "--window", "4"}, "--window 4: must be odd"},
        {{config, "--res", "56", "--held-out", "0"}, "--held-out 0: must be >= 1"},
        {{config, "--res", "56", "--held-out", "500"}, "the training data has 160 images"},
        {{config, "--res", "56", "--repeats", "0"}, "--repeats 0"},
        {{dir + "/run", "--res", "56"}, "no Stage 1 output"},
        {{config}, "--res is required"},
    };
    for (const auto& [args, expected] : cases) {
      std::vector<std::string> line = {"plan"};
      line.insert(line.end(), args.begin(), args.end());
      if (std::find(args.begin(), args.end(), "--db") == args.end())
        line.insert(line.end(), {"--db", "none"});
      line.insert(line.end(), {"--out", out});
      const auto r = run_adala(q(line));
      QVERIFY2(r.code == 2, qPrintable(expected + " -> " + QString::number(r.code) + ": " + r.err));
      QVERIFY2(r.err.contains(expected), qPrintable(expected + " -> " + r.err));
      QVERIFY(!fs::exists(out + "/teacher"));  // nothing ran
    }
  }

  void trains_and_records_the_plans() {
    if (!have_dataset()) QSKIP("Fashion-MNIST is not installed");
    const std::string dir = fresh_dir("train");
    const std::string config = write_config(dir);
    const std::string db = dir + "/runs.sqlite", out = dir + "/micro-plan";
    const auto r =
        run_adala(q({"plan", config, "--res", "56", "--train", "--held-out", "32", "--repeats", "1",
                     "--target-gap", "100", "--db", db, "--out", out}));
    QVERIFY2(r.code == 0, qPrintable(r.err.right(4000)));
    QVERIFY(fs::exists(out + "/plan.md"));
    QVERIFY(fs::exists(out + "/plan.csv"));
    QVERIFY2(r.out.contains("## Per-block sensitivity"), qPrintable(r.out));
    QVERIFY2(r.out.contains("## Trained plans"), qPrintable(r.out));
    QVERIFY2(r.out.contains("Target check:"), qPrintable(r.out));
    // A 100-point target: the cheapest plan, all-linear or window3 by GFLOPs at 56px.
    QVERIFY2(r.out.contains("Chosen: **all-linear**"), qPrintable(r.out));

    store::RunStore store(db, store::OpenMode::ReadOnly);
    const auto points = read_plan_points(store, "micro-plan");
    std::set<std::string> names;
    for (const auto& p : points) {
      names.insert(p.name);
      QCOMPARE(p.planner, std::string("micro-plan"));
      QCOMPARE(p.modes.size(), size_t(2));
      QVERIFY(p.cost_at(28) && p.cost_at(56));
      QVERIFY(p.cost_at(56)->ms_per_img > 0);
      const auto evals = store.evaluations(p.run);
      const auto run = store.find_run(p.run);
      QVERIFY(run);
      QVERIFY(std::find(run->tags.begin(), run->tags.end(), plan_name_tag(p.name)) !=
              run->tags.end());
      if (p.name == "teacher") {
        QCOMPARE(plan_strip(p.modes), std::string("SS"));
        // The pipeline's top-1, recorded twice as SQLite REALs: the same double.
        ADALA_COMPARE_EXACT(p.top1, evals.at("teacher/top1"));
      } else {
        ADALA_COMPARE_EXACT(p.top1, evals.at("fine_tuning/top1"));
        QVERIFY(std::isfinite(p.predicted_gap));
        QVERIFY(std::isfinite(p.held_out_top1));
      }
      if (p.name == "all-linear") QCOMPARE(plan_strip(p.modes), std::string("LL"));
    }
    // The teacher, all-linear (the choice) and its one ranked neighbour.
    QVERIFY(names.count("teacher"));
    QVERIFY(names.count("all-linear"));
    QCOMPARE(names.size(), size_t(3));
    QCOMPARE(points.size(), size_t(3));
    QVERIFY(names.count("softmax-0") + names.count("softmax-1") == 1);
    QVERIFY2(r.err.contains("measuring the trained plans again, side by side"), qPrintable(r.err));

    // `adala frontier --measure`: every plan measured again, side by side, and recorded. The
    // allocator's peak of a model's forward pass does not depend on the machine's speed: it
    // comes back unchanged.
    const auto m = run_adala(q({"frontier", "--db", db, "--planner", "micro-plan", "--measure",
                                "--measure-res", "56,28", "--repeats", "1", "--rounds", "2"}));
    QVERIFY2(m.code == 0, qPrintable(m.err.right(4000)));
    QVERIFY2(m.err.contains("cost round 2/2 (3 models)"), qPrintable(m.err));
    QVERIFY2(m.out.contains("Frontier, cheapest first:"), qPrintable(m.out));
    store::RunStore after_store(db, store::OpenMode::ReadOnly);
    const auto after = read_plan_points(after_store, "micro-plan");
    QCOMPARE(after.size(), points.size());
    for (size_t i = 0; i < after.size(); ++i) {
      QCOMPARE(after[i].name, points[i].name);
      for (int64_t res : {28, 56}) {
        QVERIFY(after[i].cost_at(res));
        QVERIFY(std::isfinite(after[i].cost_at(res)->ms_per_img));
        // A whole number of bytes held in a double: exact.
        ADALA_COMPARE_EXACT(after[i].cost_at(res)->peak_bytes, points[i].cost_at(res)->peak_bytes);
      }
    }
    // Its option errors.
    const auto bad = run_adala(q({"frontier", "--db", db, "--measure", "--measure-res", "56,abc"}));
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("--measure-res: \"abc\" is not a whole number of pixels"),
             qPrintable(bad.err));
    const auto lone = run_adala(q({"frontier", "--db", db, "--device", "cpu"}));
    QCOMPARE(lone.code, 2);
    QVERIFY2(lone.err.contains("--measure-res and --device go with --measure"),
             qPrintable(lone.err));
  }
};

ADALA_TEST_GUILESS_MAIN(TestPlanCommand)
}  // namespace test_plan_command

#include "test_plan_command.moc"
