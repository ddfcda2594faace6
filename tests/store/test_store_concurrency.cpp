// One writer, concurrent read-only readers: a reader never blocks, never sees half a flush,
// and sees every flush committed before its query — with the writer in another thread and
// in another process.
#include <QtTest/QtTest>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <set>
#include <thread>

#include "engine/store/run_store.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_store_concurrency {

using adala::store::OpenMode;
using adala::store::RunStatus;
using adala::store::RunStore;

namespace {

constexpr int kMetricsPerStep = 15;  // like a Stage-2 step: 5 scalars + 10 per-block values
constexpr int kSteps = 1500;

// The writer pauses after these steps until the reader has seen them, so the reader watches
// the run grow however the two are scheduled (no timing involved).
constexpr int kMilestones = 6;

bool is_milestone(int steps_committed) {
  return steps_committed % (kSteps / kMilestones) == 0 && steps_committed < kSteps;
}

// Shared with a forked writer through an anonymous shared mapping.
struct Progress {
  std::atomic<int64_t> committed_steps{0};
  std::atomic<int64_t> observed_steps{0};  // whole steps the reader has counted
  std::atomic<bool> reader_gone{false};    // a failed reader stops holding the writer up
  std::atomic<bool> failed{false};
};
static_assert(std::atomic<int64_t>::is_always_lock_free, "shared across processes");

int64_t create_run(const std::string& path) {
  RunStore store(path);
  const int64_t run = store.create_run("concurrent", "{}", "cpu", "", "");
  store.begin_stage(run, "stage2", 2, kSteps);
  return run;
}

void write_steps(const std::string& path, int64_t run, Progress& progress) {
  try {
    RunStore store(path);
    store.set_run_status(run, RunStatus::Running);
    for (int step = 0; step < kSteps; ++step) {
      for (int i = 0; i < 5; ++i)
        store.add_metric(run, "stage2", step, "k" + std::to_string(i), -1, step);
      for (int block = 0; block < kMetricsPerStep - 5; ++block) {
        store.add_metric(run, "stage2", step, "attn_mse", block, step);
      }
      store.flush();
      progress.committed_steps.store(step + 1);
      if (is_milestone(step + 1)) {
        while (progress.observed_steps.load() < step + 1 && !progress.reader_gone.load())
          std::this_thread::yield();
      }
    }
    store.end_stage(run, "stage2", RunStatus::Done);
    store.set_run_status(run, RunStatus::Done);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "writer failed: %s\n", e.what());
    progress.failed.store(true);
  }
}

// Polls while the writer writes: whole steps only, never fewer than committed before the
// query, and the incremental feed (metrics_after) covers every step exactly once.
void read_while_writing(const std::string& path, int64_t run, Progress& progress,
                        const std::function<bool()>& writer_running) {
  struct ReaderGone {
    Progress& progress;
    ~ReaderGone() { progress.reader_gone.store(true); }
  } reader_gone{progress};
  RunStore reader(path, OpenMode::ReadOnly);
  std::set<int64_t> counts_seen;
  std::vector<int64_t> steps_fed;
  int64_t last_fed = -1;
  int polls = 0;
  while (writer_running() || polls == 0) {
    const int64_t committed_before = progress.committed_steps.load();
    const int64_t rows = reader.metric_count(run);
    const int64_t committed_after = progress.committed_steps.load();
    QVERIFY2(rows % kMetricsPerStep == 0,
             ("half a flush visible: " + std::to_string(rows)).c_str());
    QVERIFY2(rows >= committed_before * kMetricsPerStep,
             ("committed metrics missing: " + std::to_string(rows)).c_str());
    QVERIFY(rows <= (committed_after + 1) * kMetricsPerStep);
    counts_seen.insert(rows);
    progress.observed_steps.store(rows / kMetricsPerStep);

    for (const auto& metric : reader.metrics_after(run, "stage2", last_fed)) {
      if (metric.step != last_fed) steps_fed.push_back(metric.step);
      last_fed = metric.step;
    }
    ++polls;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  QVERIFY(!progress.failed.load());
  QCOMPARE(reader.metric_count(run), int64_t(kSteps) * kMetricsPerStep);
  for (const auto& metric : reader.metrics_after(run, "stage2", last_fed)) {
    if (metric.step != last_fed) steps_fed.push_back(metric.step);
    last_fed = metric.step;
  }
  QCOMPARE(steps_fed.size(), size_t(kSteps));
  for (int step = 0; step < kSteps; ++step) QCOMPARE(steps_fed[step], int64_t(step));
  // The reader watched the run grow (every milestone) rather than only its start and end.
  for (int steps = 1; steps < kSteps; ++steps) {
    if (is_milestone(steps)) {
      QVERIFY2(counts_seen.count(int64_t(steps) * kMetricsPerStep) == 1,
               ("milestone not seen: " + std::to_string(steps)).c_str());
    }
  }
  QVERIFY2(counts_seen.size() >= kMilestones - 1, std::to_string(counts_seen.size()).c_str());
  QCOMPARE(reader.find_run(run)->status, std::string("done"));
}

}  // namespace

class TestStoreConcurrency : public QObject {
  Q_OBJECT
 private slots:
  void reader_thread_sees_committed_metrics() {
    const std::string path = store_test::fresh_dir("concurrent-thread") + "/runs.sqlite";
    const int64_t run = create_run(path);
    Progress progress;
    std::atomic<bool> done{false};
    std::thread writer([&] {
      write_steps(path, run, progress);
      done.store(true);
    });
    read_while_writing(path, run, progress, [&] { return !done.load(); });
    writer.join();
  }

  void reader_process_sees_committed_metrics_of_writer_process() {
    const std::string path = store_test::fresh_dir("concurrent-process") + "/runs.sqlite";
    const int64_t run = create_run(path);
    void* shared =
        mmap(nullptr, sizeof(Progress), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    QVERIFY(shared != MAP_FAILED);
    auto* progress = new (shared) Progress;
    const pid_t child = fork();
    QVERIFY(child >= 0);
    if (child == 0) {
      write_steps(path, run, *progress);
      _exit(progress->failed.load() ? 1 : 0);
    }
    int status = 0;
    bool exited = false;
    read_while_writing(path, run, *progress, [&] {
      if (!exited && waitpid(child, &status, WNOHANG) == child) exited = true;
      return !exited;
    });
    if (!exited) waitpid(child, &status, 0);
    QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    munmap(shared, sizeof(Progress));
  }
};

ADALA_TEST_GUILESS_MAIN(TestStoreConcurrency)
}  // namespace test_store_concurrency

#include "test_store_concurrency.moc"
