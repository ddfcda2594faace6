// kill -9 at a random moment of a write burst, again and again on one database file: the
// file must pass PRAGMA integrity_check, hold every metric the child reported committed
// (whole steps, no gaps), and the run must read as interrupted on the next open.
#include <QtTest/QtTest>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <random>
#include <thread>

#include "engine/store/run_store.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_store_crash {

using adala::store::OpenMode;
using adala::store::RunStatus;
using adala::store::RunStore;

namespace {

constexpr int kIterations = 30;
constexpr int kMetricsPerStep = 15;

// The child: opens the store, reports its run id, then writes steps forever, reporting the
// number of committed steps after each flush() returns. Never returns.
[[noreturn]] void write_until_killed(const std::string& path, int iteration, int report_fd) {
  try {
    RunStore store(path);
    const int64_t run = store.create_run("crash-" + std::to_string(iteration), "{}", "cpu", "", "");
    store.set_run_status(run, RunStatus::Running);
    store.begin_stage(run, "stage2", 2, 1000000);
    if (write(report_fd, &run, sizeof(run)) != sizeof(run)) _exit(3);
    for (int64_t step = 0;; ++step) {
      for (int i = 0; i < 5; ++i)
        store.add_metric(run, "stage2", step, "k" + std::to_string(i), -1, step * 0.5);
      for (int block = 0; block < kMetricsPerStep - 5; ++block) {
        store.add_metric(run, "stage2", step, "attn_mse", block, step * 0.25);
      }
      if (step % 20 == 0) {
        store.add_attention_snapshot(run, "stage2", step, 0, 0, 0, 0, std::vector<float>(197, 0.5f),
                                     std::vector<float>(197, 0.25f));
      }
      store.flush();
      const int64_t committed = step + 1;
      if (write(report_fd, &committed, sizeof(committed)) != sizeof(committed)) _exit(4);
      if (step % 97 == 96) store.add_evaluation(run, "stage2", "probe", step);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "crash child failed: %s\n", e.what());
    _exit(2);
  }
}

// Reads everything the child wrote to the pipe: its run id first, then committed counts.
struct ChildReport {
  int64_t run = -1;
  int64_t committed_steps = 0;
};

ChildReport drain(int fd, ChildReport report) {
  int64_t value = 0;
  std::string partial;
  char buffer[4096];
  std::string bytes;
  ssize_t got = 0;
  while ((got = read(fd, buffer, sizeof(buffer))) > 0)
    bytes.append(buffer, static_cast<size_t>(got));
  for (size_t at = 0; at + sizeof(value) <= bytes.size(); at += sizeof(value)) {
    std::memcpy(&value, bytes.data() + at, sizeof(value));
    if (report.run < 0) {
      report.run = value;
    } else {
      report.committed_steps = value;
    }
  }
  return report;
}

}  // namespace

class TestStoreCrash : public QObject {
  Q_OBJECT
 private slots:
  void sigkill_during_write_bursts_loses_nothing_committed() {
    const std::string path = store_test::fresh_dir("crash") + "/runs.sqlite";
    const unsigned seed = std::random_device{}();
    qInfo("seed %u", seed);
    std::mt19937 random(seed);
    std::map<int64_t, int64_t> rows_of_earlier_runs;
    int killed_mid_burst = 0;

    for (int iteration = 0; iteration < kIterations; ++iteration) {
      int fds[2];
      QVERIFY(pipe(fds) == 0);
      const pid_t child = fork();
      QVERIFY(child >= 0);
      if (child == 0) {
        close(fds[0]);
        write_until_killed(path, iteration, fds[1]);
      }
      close(fds[1]);

      ChildReport report;
      // Every 6th child dies at once, possibly while opening (migrating, recovering the WAL);
      // the others after reporting their run id, somewhere in their bursts.
      const bool early = iteration % 6 == 5;
      if (!early) {
        int64_t run = -1;
        QVERIFY(read(fds[0], &run, sizeof(run)) == sizeof(run));
        report.run = run;
      }
      std::uniform_int_distribution<int> delay_us(0, early ? 3000 : 60000);
      std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
      kill(child, SIGKILL);
      int status = 0;
      QCOMPARE(waitpid(child, &status, 0), child);
      QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
               ("child ended by itself, status " + std::to_string(status)).c_str());
      report = drain(fds[0], report);
      close(fds[0]);
      if (report.committed_steps > 0) ++killed_mid_burst;

      // A reader first: it must not need a writer to make sense of the file.
      {
        RunStore reader(path, OpenMode::ReadOnly);
        QCOMPARE(reader.integrity_check(), std::string("ok"));
        if (report.run >= 0)
          QCOMPARE(reader.find_run(report.run)->status, std::string("interrupted"));
      }
      RunStore store(path);
      QCOMPARE(store.integrity_check(), std::string("ok"));
      if (report.run >= 0) {
        store_test::RawDb raw(path);
        const std::string id = std::to_string(report.run);
        QCOMPARE(raw.scalar("SELECT status FROM runs WHERE id = " + id),
                 std::string("interrupted"));
        QCOMPARE(raw.scalar("SELECT status FROM stages WHERE run_id = " + id),
                 std::string("interrupted"));
        const long long rows = raw.integer("SELECT count(*) FROM metrics WHERE run_id = " + id);
        const long long steps =
            raw.integer("SELECT count(DISTINCT step) FROM metrics WHERE run_id = " + id);
        const long long max_step =
            raw.integer("SELECT ifnull(max(step), -1) FROM metrics WHERE run_id = " + id);
        const std::string where = "iteration " + std::to_string(iteration) + ": " +
                                  std::to_string(rows) + " rows, reported " +
                                  std::to_string(report.committed_steps) + " steps";
        QVERIFY2(rows >= report.committed_steps * kMetricsPerStep, where.c_str());
        QVERIFY2(rows == steps * kMetricsPerStep, where.c_str());  // whole steps only
        QVERIFY2(steps == max_step + 1, where.c_str());            // no gap
        QVERIFY2(store.last_metric_step(report.run, "stage2") == max_step, where.c_str());
        // At most one step committed that the child had no time to report.
        QVERIFY2(steps <= report.committed_steps + 1, where.c_str());
        rows_of_earlier_runs[report.run] = rows;
      }
      for (const auto& [run, rows] : rows_of_earlier_runs) {
        QCOMPARE(store.metric_count(run), rows);
      }
    }
    qInfo("%d of %d children were killed after committing metrics", killed_mid_burst, kIterations);
    QVERIFY(killed_mid_burst >= kIterations / 2);
  }
};

ADALA_TEST_GUILESS_MAIN(TestStoreCrash)
}  // namespace test_store_crash

#include "test_store_crash.moc"
