// Benchmark runs in the run database: points written through RunStore read back with the
// same values (NaN for what was not measured, in order, through a read-only connection too),
// appended batches keep numbering, a training run refuses points, delete_run removes them.
#include <QtTest/QtTest>

#include <cmath>

#include "engine/store/run_store.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_benchmark_store {

using namespace adala::store;  // the store's API is what these tests exercise

namespace {

BenchmarkPoint scaling_point(const std::string& mode, int64_t resolution, double ms) {
  BenchmarkPoint p;
  p.benchmark = "scaling";
  p.preset = "vit_small";
  p.mode = mode;
  p.resolution = resolution;
  p.tokens = (resolution / 16) * (resolution / 16) + 1;
  p.batch = 1;
  p.gflops = 4.25 * double(resolution) / 224.0;
  p.gflops_attention_only = 1.125;
  p.gflops_measured = 4.0;
  p.peak_mb = 61.5;
  p.peak_alloc_mb = 40.25;
  p.ms_per_img = ms;
  p.imgs_per_s = 1000.0 / ms;
  p.note = "";
  p.extra_json = R"({"timed_runs":3})";
  return p;
}

void compare_points(const BenchmarkPoint& a, const BenchmarkPoint& b) {
  QCOMPARE(a.benchmark, b.benchmark);
  QCOMPARE(a.preset, b.preset);
  QCOMPARE(a.mode, b.mode);
  QCOMPARE(a.resolution, b.resolution);
  QCOMPARE(a.tokens, b.tokens);
  QCOMPARE(a.batch, b.batch);
  const double pairs[][2] = {{a.gflops, b.gflops},
                             {a.gflops_attention_only, b.gflops_attention_only},
                             {a.gflops_measured, b.gflops_measured},
                             {a.peak_mb, b.peak_mb},
                             {a.peak_alloc_mb, b.peak_alloc_mb},
                             {a.ms_per_img, b.ms_per_img},
                             {a.imgs_per_s, b.imgs_per_s}};
  for (const auto& pair : pairs) {
    if (std::isnan(pair[0])) {
      QVERIFY(std::isnan(pair[1]));
    } else {
      ADALA_COMPARE_EXACT(pair[1], pair[0]);  // bit-exact: REAL is a double
    }
  }
  QCOMPARE(a.ran, b.ran);
  QCOMPARE(a.note, b.note);
  QCOMPARE(a.extra_json, b.extra_json);
}

}  // namespace

class TestBenchmarkStore : public QObject {
  Q_OBJECT
 private slots:
  void points_round_trip() {
    const std::string dir = store_test::fresh_dir("bench-roundtrip");
    const std::string path = dir + "/runs.sqlite";
    std::vector<BenchmarkPoint> written = {scaling_point("softmax", 224, 10.5),
                                           scaling_point("linear", 224, 20.25),
                                           scaling_point("softmax", 448, 40.0 / 3.0)};
    BenchmarkPoint skipped = scaling_point("softmax", 2048, 0);
    skipped.ran = false;
    skipped.note = "skipped: needs ~26.1 GB (\"8.0 GB\" available), sorry";
    skipped.gflops_measured = BenchmarkPoint::kNone;
    skipped.peak_mb = skipped.peak_alloc_mb = BenchmarkPoint::kNone;
    skipped.ms_per_img = skipped.imgs_per_s = BenchmarkPoint::kNone;
    skipped.extra_json = "";  // stored as {}
    written.push_back(skipped);

    int64_t run = 0;
    {
      RunStore store(path);
      store.create_run("training run", "{}", "cpu", "", "");
      run = store.create_run("scaling vit_small", R"({"benchmark":"scaling"})", "cpu", "1.13.0",
                             "0.3.0", "benchmark");
      store.set_run_status(run, RunStatus::Running);
      store.add_benchmark_points(run, {written[0], written[1]});
      store.add_benchmark_points(run, {written[2], written[3]});  // appended after the first two
      store.set_run_status(run, RunStatus::Done);
      QCOMPARE(store.benchmark_points(run).size(), size_t(4));
    }
    written[3].extra_json = "{}";

    RunStore reader(path, OpenMode::ReadOnly);
    const auto info = reader.find_run(run);
    QVERIFY(info.has_value());
    QCOMPARE(info->kind, std::string("benchmark"));
    QCOMPARE(info->status, std::string("done"));
    QCOMPARE(info->config_json, std::string(R"({"benchmark":"scaling"})"));
    QCOMPARE(reader.find_run("training run")->kind, std::string("training"));
    const auto read = reader.benchmark_points(run);
    QCOMPARE(read.size(), written.size());
    for (size_t i = 0; i < read.size(); ++i) compare_points(written[i], read[i]);
    ADALA_COMPARE_EXACT(read[2].ms_per_img, 40.0 / 3.0);  // the double written, read back
    QVERIFY(!read[3].ran);
    QVERIFY(std::isnan(read[3].ms_per_img));
    QVERIFY(reader.benchmark_points(run + 1).empty());

    store_test::RawDb raw(path);
    QCOMPARE(raw.scalar("SELECT group_concat(idx) FROM benchmark_points WHERE run_id = " +
                        std::to_string(run)),
             std::string("0,1,2,3"));
    QCOMPARE(raw.integer("SELECT count(*) FROM benchmark_points WHERE ms_per_img IS NULL"), 1LL);
  }

  void training_runs_refuse_points_and_unknown_kinds_are_refused() {
    const std::string dir = store_test::fresh_dir("bench-refuse");
    RunStore store(dir + "/runs.sqlite");
    const int64_t training = store.create_run("t", "{}", "cpu", "", "");
    try {
      store.add_benchmark_points(training, {scaling_point("linear", 224, 1)});
      QFAIL("a training run took benchmark points");
    } catch (const StoreError& e) {
      QCOMPARE(e.kind(), StoreErrorKind::InvalidArgument);
      QVERIFY2(std::string(e.what()).find("not a benchmark run") != std::string::npos, e.what());
    }
    QVERIFY(store.benchmark_points(training).empty());
    QVERIFY_EXCEPTION_THROWN(store.add_benchmark_points(999, {scaling_point("linear", 224, 1)}),
                             StoreError);
    QVERIFY_EXCEPTION_THROWN(store.create_run("x", "{}", "cpu", "", "", "experiment"), StoreError);
    QCOMPARE(store.list_runs().size(), size_t(1));
  }

  void read_only_store_cannot_add_points() {
    const std::string dir = store_test::fresh_dir("bench-readonly");
    const std::string path = dir + "/runs.sqlite";
    int64_t run = 0;
    {
      RunStore store(path);
      run = store.create_run("b", "{}", "cpu", "", "", "benchmark");
    }
    RunStore reader(path, OpenMode::ReadOnly);
    try {
      reader.add_benchmark_points(run, {scaling_point("linear", 224, 1)});
      QFAIL("a read-only store wrote points");
    } catch (const StoreError& e) {
      QCOMPARE(e.kind(), StoreErrorKind::ReadOnly);
    }
  }

  void delete_run_removes_its_points_only() {
    const std::string dir = store_test::fresh_dir("bench-delete");
    RunStore store(dir + "/runs.sqlite");
    const int64_t a = store.create_run("a", "{}", "cpu", "", "", "benchmark");
    const int64_t b = store.create_run("b", "{}", "cpu", "", "", "benchmark");
    store.add_benchmark_points(a,
                               {scaling_point("softmax", 224, 1), scaling_point("linear", 224, 2)});
    store.add_benchmark_points(b, {scaling_point("linear", 448, 3)});
    store.set_run_status(a, RunStatus::Done);
    store.delete_run(a);
    QVERIFY(!store.find_run(a).has_value());
    QVERIFY(store.benchmark_points(a).empty());
    QCOMPARE(store.benchmark_points(b).size(), size_t(1));
    ADALA_COMPARE_EXACT(store.benchmark_points(b)[0].ms_per_img, 3.0);  // written, read back
  }
};

ADALA_TEST_GUILESS_MAIN(TestBenchmarkStore)
}  // namespace test_benchmark_store

#include "test_benchmark_store.moc"
