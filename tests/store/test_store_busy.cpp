// Another process holding the database's write lock must never stop a training run: flush()
// keeps the rows a busy database refused, and the pipeline's sink holds its events back (in
// order) and writes them once the lock is released. The lock is a real one: a second SQLite
// connection inside BEGIN IMMEDIATE.
#include <QtTest/QtTest>

#include <chrono>
#include <string>
#include <vector>

#include "engine/store/run_store.h"
#include "engine/store/run_store_sink.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_store_busy {

using namespace adala::store;  // the store's API is what these tests exercise
using adala::EvalMetrics;
using adala::StageEvent;
using adala::StepMetrics;
using std::chrono::milliseconds;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

StepMetrics step_metrics(int64_t step) {
  StepMetrics m;
  m.stage = "stage2";
  m.step = step;
  m.total_steps = 100;
  m.loss = 1.0 / (step + 1);
  m.lr = 1e-3;
  m.per_block_mse = {0.5 * step, 0.25 * step};
  return m;
}

StageEvent stage_event(StageEvent::Kind kind) {
  StageEvent e;
  e.stage = "stage2";
  e.kind = kind;
  e.total_steps = 100;
  return e;
}

// Retries at every event, each try refused at once while the lock is held.
constexpr BusyPolicy kImpatient{milliseconds(0), milliseconds(0), milliseconds(0)};

}  // namespace

class TestStoreBusy : public QObject {
  Q_OBJECT

 private slots:
  void flush_keeps_its_rows_when_the_database_is_busy() {
    const std::string path = store_test::fresh_dir("busy-flush") + "/runs.sqlite";
    RunStore store(path);
    const int64_t run = store.create_run("r", "{}", "cpu", "", "");
    store.set_busy_timeout(milliseconds(0));
    store_test::RawDb other(path);
    other.exec("BEGIN IMMEDIATE");
    for (int step = 0; step < 3; ++step) store.add_metric(run, "s", step, "loss", -1, step);
    try {
      store.flush();
      QFAIL("flush succeeded while another connection held the write lock");
    } catch (const StoreError& e) {
      QVERIFY2(e.kind() == StoreErrorKind::Busy, e.what());
      QVERIFY2(contains(e.what(), "3 buffered rows are kept"), e.what());
    }
    QCOMPARE(store.pending_rows(), size_t(3));
    other.exec("ROLLBACK");
    store.flush();
    QCOMPARE(store.pending_rows(), size_t(0));
    QCOMPARE(other.integer("SELECT count(*) FROM metrics"), 3LL);
    QCOMPARE(other.integer("SELECT sum(value) FROM metrics"), 3LL);
  }

  void sink_holds_events_while_locked_and_writes_them_in_order() {
    const std::string path = store_test::fresh_dir("busy-sink") + "/runs.sqlite";
    RunStore store(path);
    const int64_t run = store.create_run("r", "{}", "cpu", "", "");
    store.set_run_status(run, RunStatus::Running);
    store.set_busy_timeout(milliseconds(0));
    std::vector<std::string> notices;
    RunStoreSink sink(store, run, kImpatient,
                      [&](const std::string& line) { notices.push_back(line); });
    sink.on_event(stage_event(StageEvent::Kind::Started));
    sink.on_event(step_metrics(1));

    store_test::RawDb other(path);
    other.exec("BEGIN IMMEDIATE");
    for (int64_t step = 2; step <= 6; ++step) sink.on_event(step_metrics(step));
    sink.on_event(EvalMetrics{"stage2", "probe", 0.75, 6});
    QCOMPARE(sink.held_events(), size_t(6));
    QCOMPARE(notices.size(), size_t(1));
    QVERIFY2(
        contains(notices[0], "locked by another writer") && contains(notices[0], "the run goes on"),
        notices[0].c_str());
    other.exec("COMMIT");

    sink.on_event(step_metrics(7));
    sink.on_event(stage_event(StageEvent::Kind::Finished));
    QCOMPARE(sink.held_events(), size_t(0));
    QCOMPARE(notices.size(), size_t(2));
    QVERIFY2(contains(notices[1], "writable again"), notices[1].c_str());

    // Every step 1..7, each with its own values, and nothing twice.
    const auto losses = store.metrics(run, "stage2", "loss");
    QCOMPARE(losses.size(), size_t(7));
    for (size_t i = 0; i < losses.size(); ++i) {
      QCOMPARE(losses[i].step, int64_t(i + 1));
      // step_metrics(i + 1) wrote loss = 1.0 / (i + 2): the same division, read back.
      ADALA_COMPARE_EXACT(losses[i].value, 1.0 / (i + 2));
    }
    QCOMPARE(store.metrics(run, "stage2", "block_mse").size(), size_t(14));
    ADALA_COMPARE_EXACT(store.evaluations(run).at("stage2/probe"), 0.75);  // written, read back
    QCOMPARE(store.last_metric_step(run, "stage2"), int64_t(7));
    QCOMPARE(store.stages(run).at(0).status, std::string("done"));
  }

  void drain_gives_up_after_its_patience_and_succeeds_once_free() {
    const std::string path = store_test::fresh_dir("busy-drain") + "/runs.sqlite";
    RunStore store(path);
    const int64_t run = store.create_run("r", "{}", "cpu", "", "");
    store.set_busy_timeout(milliseconds(0));
    RunStoreSink sink(store, run, kImpatient, [](const std::string&) {});
    sink.on_event(stage_event(StageEvent::Kind::Started));
    store_test::RawDb other(path);
    other.exec("BEGIN IMMEDIATE");
    sink.on_event(step_metrics(1));
    QVERIFY(!sink.drain(milliseconds(0)));
    QCOMPARE(sink.held_events(), size_t(1));
    other.exec("ROLLBACK");
    QVERIFY(sink.drain(milliseconds(0)));
    QCOMPARE(store.last_metric_step(run, "stage2"), int64_t(1));
  }

  // Only a busy database is waited for: any other failure still stops the caller.
  void other_errors_are_not_held_back() {
    const std::string path = store_test::fresh_dir("busy-other") + "/runs.sqlite";
    RunStore store(path);
    RunStoreSink sink(store, 424242, kImpatient, [](const std::string&) {});
    try {
      sink.on_event(EvalMetrics{"stage2", "probe", 1.0, 0});
      QFAIL("an evaluation of a missing run was accepted");
    } catch (const StoreError& e) {
      QVERIFY2(e.kind() == StoreErrorKind::InvalidArgument, e.what());
    }
    QCOMPARE(sink.held_events(), size_t(0));
  }
};

ADALA_TEST_GUILESS_MAIN(TestStoreBusy)
}  // namespace test_store_busy

#include "test_store_busy.moc"
