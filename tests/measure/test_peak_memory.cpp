// The peak-memory harness: a fresh child process per measurement sees a known allocation.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <sys/resource.h>

#include <csignal>

#include "engine/measure/bench_common.h"
#include "engine/measure/call_cost.h"
#include "engine/measure/child_process.h"
#include "engine/measure/cuda_allocator_stats.h"
#include "engine/measure/peak_memory.h"
#include "engine/json/json.h"
#include "engine/kernels/memory_reuse.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_peak_memory {

// AddressSanitizer maps shadow memory and keeps freed blocks in quarantine, so RSS is not the
// program's own under ADALA_SANITIZE=address: the RSS figures are checked in normal builds.
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_UNDER_ASAN() QSKIP("RSS includes AddressSanitizer's shadow memory and quarantine")
#else
#define SKIP_UNDER_ASAN()
#endif

using namespace adala;

namespace {

// As `adala bench` does first thing, before another thread allocates: here at load time, since
// QTest's watchdog thread starts before initTestCase.
const bool one_malloc_arena = [] {
  adala::share_one_malloc_arena();
  return true;
}();

constexpr int64_t kBytes = 200'000'000;  // a 200 MB float32 tensor

Json allocate_and_measure() {
  c10::InferenceMode inference;
  Json r = Json::object();
  {
    PeakMemoryProbe probe;
    {
      auto t = torch::ones({kBytes / 4});  // touches every page
      r["sum"] = t.sum().item<double>();
    }
    const auto m = probe.result();
    r["rss"] = m.rss_bytes;
    r["alloc"] = m.allocator_bytes;
    r["reset"] = m.rss_mark_reset;
  }
  return r;
}

long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// A benchmark of a kernel that writes three fresh 24 MiB outputs a run (in a child, as the
// benchmarks measure): the pages faulted in three runs once the heap has settled.
Json faults_in_runs_after_warm_up() {
  constexpr int64_t kFloats = int64_t(6) << 20;  // 24 MiB
  auto run = [] {
    auto a = torch::empty({kFloats}), b = torch::empty({kFloats}), c = torch::empty({kFloats});
    a.fill_(1), b.fill_(2), c.fill_(3);
  };
  time_runs_ms(run, 2, 1, c10::Device(c10::kCPU));
  // One measured call first: the heap may still grow once by an output's size there, where the
  // timer's own bookkeeping split a freed block (6144 faults once, depending on the layout the
  // parent process left); what must not happen is a fault-in on every run.
  time_runs_ms(run, 0, 3, c10::Device(c10::kCPU));
  const long before = minor_page_faults();
  time_runs_ms(run, 0, 3, c10::Device(c10::kCPU));
  Json r = Json::object();
  r["faults"] = int64_t(minor_page_faults() - before);
  return r;
}

}  // namespace

class TestPeakMemory : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { adala::keep_freed_memory_for_reuse(); }

  void child_sees_a_200mb_allocation() {
    SKIP_UNDER_ASAN();
    // Parallel work in this process first: the child must still run (fresh OpenMP pool).
    auto a = torch::randn({512, 512});
    QVERIFY(torch::mm(a, a).defined());
    auto outcome = run_in_child([] { return allocate_and_measure().dump(); }, 120);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    const Json r = parse_json_strict(outcome.payload);
    // A float32 sum of 5e7 ones (ATen's cascade sum, split over threads): a few float ulps (4 at
    // 5e7) at most; a chunk lost or left unwritten would be off by far more. (The JSON round trip
    // itself is exact.)
    ADALA_COMPARE_NEAR(r.at("sum").get<double>(), double(kBytes / 4), 1e-6 * double(kBytes / 4));
    const double rss = double(r.at("rss").get<int64_t>()),
                 alloc = double(r.at("alloc").get<int64_t>());
    QVERIFY2(
        std::abs(rss - kBytes) <= 0.10 * kBytes,
        qPrintable(
            QString("RSS peak %1 MB (reset %2)").arg(rss / 1e6).arg(r.at("reset").get<bool>())));
    QVERIFY2(std::abs(alloc - kBytes) <= 0.001 * kBytes,
             qPrintable(QString("allocator peak %1").arg(alloc)));
  }

  void child_reuses_freed_large_blocks() {
    SKIP_UNDER_ASAN();
    // As `adala bench` runs (one_malloc_arena, initTestCase): without one shared arena, the
    // child's measuring thread would allocate in heaps of its own (at most 64 MiB, unmapped
    // once empty) and fault each run's outputs in afresh (18k pages).
    auto outcome = run_in_child([] { return faults_in_runs_after_warm_up().dump(); }, 120);
    QVERIFY2(outcome.ok, outcome.error.c_str());
    const auto faults = parse_json_strict(outcome.payload).at("faults").get<int64_t>();
    QVERIFY2(faults < 1000, qPrintable(QString("%1 page faults in 3 runs").arg(faults)));
  }

  void in_process_allocator_peak_sees_transients() {
    AllocatorPeakTracker tracker;
    {
      auto x = torch::empty({1'000'000});  // 4 MB
      auto y = torch::empty({2'000'000});  // 8 MB, both alive: 12 MB
      y = torch::Tensor();
      auto z = torch::empty({500'000});  // 2 MB after y is gone
      QCOMPARE(tracker.current_bytes(), int64_t(6'000'000));
    }
    QCOMPARE(tracker.peak_bytes(), int64_t(12'000'000));
    QCOMPARE(tracker.current_bytes(), int64_t(0));
    QVERIFY(tracker.allocations() >= 3);
  }

  // measure_call_costs: each call's own transient peak (after a warm-up call), and every call
  // run the same number of times (warm-up, peak, then per round one untimed and the timed ones).
  void call_costs_are_each_calls_peak_and_timing() {
    std::vector<int> runs(2, 0);
    std::vector<std::function<void()>> calls = {
        [&] {
          ++runs[0];
          auto a = torch::empty({1'000'000});  // 4 MB
        },
        [&] {
          ++runs[1];
          auto a = torch::empty({1'000'000}), b = torch::empty({2'000'000});  // 12 MB together
        }};
    const auto costs = measure_call_costs(calls, c10::Device(c10::kCPU), 3, 2);
    QCOMPARE(costs.size(), size_t(2));
    // Byte counts (int64 allocator peaks) held in doubles: exact.
    ADALA_COMPARE_EXACT(costs[0].peak_bytes, 4e6);
    ADALA_COMPARE_EXACT(costs[1].peak_bytes, 12e6);
    QVERIFY(costs[0].ms_per_call > 0 && costs[1].ms_per_call > 0);
    QCOMPARE(runs, (std::vector<int>{2 + 3 * (1 + 2), 2 + 3 * (1 + 2)}));
  }

  void cpu_probe_does_not_read_cuda_statistics() {
    const c10::Device cpu(c10::kCPU);
    QVERIFY(!cuda_allocator_stats(cpu).has_value());
    QVERIFY(!reset_cuda_peak_stats(cpu));
    PeakMemoryProbe probe(cpu);
    { auto t = torch::empty({1'000'000}); }
    const auto m = probe.result();
    QVERIFY(!m.from_cuda_allocator);
    QCOMPARE(m.cuda_reserved_bytes, int64_t(-1));
    QCOMPARE(m.allocator_bytes, int64_t(4'000'000));
  }

  // Runs on a CUDA device with a CUDA LibTorch (scripts/device-check.sh); skipped elsewhere.
  void cuda_probe_reads_the_caching_allocator() {
    if (!torch::cuda::is_available()) QSKIP("no CUDA device");
    QVERIFY2(cuda_allocator_stats_built(), "CUDA device but the engine was built without CUDA");
    const c10::Device gpu(c10::kCUDA, 0);
    auto kept = torch::ones({4'000'000}, torch::TensorOptions().device(gpu));  // 16 MB, baseline
    torch::cuda::synchronize();
    PeakMemoryProbe probe(gpu);
    {
      auto a = torch::ones({25'000'000}, torch::TensorOptions().device(gpu));  // 100 MB
      auto b = a * 2;                                                          // 100 MB more
      // A float32 reduction of 2.5e7 twos on the GPU, its partial sums combined in a tree: a few
      // float ulps (4 at 5e7) at most; a block lost or left unwritten would be off by far more.
      ADALA_COMPARE_NEAR(b.sum().item<double>(), 50'000'000.0, 1e-6 * 50'000'000.0);
    }
    torch::cuda::synchronize();
    const auto m = probe.result();
    QVERIFY(m.from_cuda_allocator);
    // The peak above the baseline is the two 100 MB tensors (block rounding adds < 1%), and the
    // 16 MB held before the probe does not count.
    QVERIFY2(std::abs(double(m.allocator_bytes) - 200e6) <= 0.01 * 200e6,
             qPrintable(QString("CUDA allocator peak %1 MB").arg(m.allocator_bytes / 1e6)));
    QVERIFY(m.cuda_reserved_bytes >= 0);
    const auto stats = cuda_allocator_stats(gpu);
    QVERIFY(stats.has_value());
    QVERIFY(stats->allocated_bytes >= 16'000'000);
    QVERIFY(stats->allocated_peak_bytes >= stats->allocated_bytes + 199'000'000);
  }

  void child_errors_come_back_and_crashes_are_contained() {
    auto thrown = run_in_child([]() -> std::string { throw std::runtime_error("no such point"); });
    QVERIFY(!thrown.ok);
    QCOMPARE(QString::fromStdString(thrown.error), QString("no such point"));

    auto killed = run_in_child([]() -> std::string {
      std::raise(SIGKILL);  // what the OOM killer does
      return "unreachable";
    });
    QVERIFY(!killed.ok);
    QCOMPARE(killed.term_signal, SIGKILL);
    QVERIFY(QString::fromStdString(killed.error).contains("out of memory?"));

    auto slow = run_in_child(
        []() -> std::string {
          std::this_thread::sleep_for(std::chrono::seconds(30));
          return "late";
        },
        0.5);
    QVERIFY(!slow.ok && slow.timed_out);

    auto big = run_in_child([] { return std::string(1 << 20, 'x'); });  // > one pipe buffer
    QVERIFY(big.ok);
    QCOMPARE(big.payload.size(), size_t(1 << 20));
  }

  void child_keeps_the_thread_count() {
    const int threads = at::get_num_threads();
    auto r = run_in_child(
        [] {
          auto a = torch::randn({256, 256});
          torch::mm(a, a);  // a parallel region in the child
          return std::to_string(at::get_num_threads());
        },
        60);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(std::stoi(r.payload), threads);
  }

  void process_memory_readings() {
    SKIP_UNDER_ASAN();
    QVERIFY(current_rss_bytes() > 0);
    QVERIFY(peak_rss_bytes() >= current_rss_bytes());
    QVERIFY(available_memory_bytes() > 0);
  }
};

ADALA_TEST_GUILESS_MAIN(TestPeakMemory)
}  // namespace test_peak_memory

#include "test_peak_memory.moc"
