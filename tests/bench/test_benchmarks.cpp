// Attention kernels used by the benchmarks (chunked softmax = plain softmax, the blocked linear
// kernel = the engine's linear kernel), and small runs of `adala bench attention|scaling|peer`.
#include <torch/torch.h>

#include <dlfcn.h>

#include <QProcess>
#include <QtTest/QtTest>

#include <mutex>
#include <numeric>
#include <set>
#include <sstream>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/bench/attention_bench.h"
#include "engine/measure/bench_common.h"
#include "engine/measure/flop_model.h"
#include "engine/bench/peer_comparison.h"
#include "engine/bench/scaling_bench.h"
#include "engine/bench/stage2_bench.h"
#include "engine/kernels/attention_ops.h"
#include "engine/kernels/elu_plus_one_kernel.h"
#include "engine/runtime/device.h"
#include "engine/kernels/linear_attention_blocked.h"
#include "engine/model/vision_transformer.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_benchmarks {

using namespace adala;
using adala_test::rel_error;

namespace {

// vit_tiny at 32 and 64 px: one timed run, two rounds, the training step too; the reference
// matmul's probe reads 100 GFLOP/s and counts its readings.
ScalingOptions small_scaling_options(int& readings) {
  ScalingOptions o;
  o.preset = "vit_tiny";
  o.resolutions = {32, 64};
  o.repeats = 1;
  o.train_step = true;
  o.rounds = 2;
  o.rate_probe = [&readings] {
    ++readings;
    return 100.0;
  };
  return o;
}

// A point of small_scaling_options(): both rounds ran, inference and training step, with
// sensible spreads and a FLOP count the operators confirm.
void check_small_scaling_point(const ScalingPoint& p) {
  QVERIFY2(p.ran, p.note.c_str());
  QCOMPARE(p.rounds, 2);
  QCOMPARE(p.train_rounds, 2);
  ADALA_COMPARE_EXACT(p.rates.lo, 100.0);  // the probe's reading, copied by min / max
  ADALA_COMPARE_EXACT(p.rates.hi, 100.0);
  QVERIFY(p.timed_runs >= 2);
  QVERIFY2(p.train_ran, p.train_note.c_str());
  QVERIFY(p.ms_per_img > 0 && p.train_ms > 0 && p.peak_alloc_bytes > 0 &&
          p.train_peak_alloc_bytes > 0);
  // The spread over every timed run of both rounds holds the median over rounds; the
  // memory's over the rounds; the training step's; the load read before the runs.
  QVERIFY(p.ms_min > 0 && p.ms_min <= p.ms_per_img && p.ms_per_img <= p.ms_max);
  QVERIFY(p.train_ms_min > 0 && p.train_ms_min <= p.train_ms && p.train_ms <= p.train_ms_max);
  QVERIFY(p.peak_rss_min_bytes >= 0 && p.peak_rss_min_bytes <= p.peak_rss_bytes &&
          p.peak_rss_bytes <= p.peak_rss_max_bytes);
  QVERIFY(p.load_1m >= 0);
  QVERIFY2(std::abs(p.measured_macs - p.model_macs) / p.model_macs < 0.01,
           qPrintable(QString("%1 %2: %3 vs %4")
                          .arg(p.resolution)
                          .arg(p.mode.c_str())
                          .arg(p.measured_macs)
                          .arg(p.model_macs)));
}

// The six points of small_scaling_options() through the CSV and back.
void check_scaling_csv_round_trip(const std::vector<ScalingPoint>& points) {
  std::ostringstream csv;
  write_scaling_csv(csv, points);
  const auto lines = QString::fromStdString(csv.str()).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 7);
  QVERIFY(lines[0].startsWith("preset,resolution,tokens,mode"));
  std::istringstream again(csv.str());
  const auto rows = read_scaling_csv(again, "bench.csv");
  // The CSV writes each real as its shortest round-trip text (fmt "{}") and reads it back
  // with from_chars: the same bits.
  ADALA_COMPARE_EXACT(rows[2].ms_per_img_min, points[2].ms_min);
  ADALA_COMPARE_EXACT(rows[2].ms_per_img_max, points[2].ms_max);
  ADALA_COMPARE_EXACT(rows[2].train_ms_max, points[2].train_ms_max);
  ADALA_COMPARE_EXACT(rows[2].load_1m, points[2].load_1m);
  ADALA_COMPARE_EXACT(rows[2].matmul_gflops_min, 100.0);
  ADALA_COMPARE_EXACT(rows[2].matmul_gflops_max, 100.0);
  QCOMPARE(rows[2].unsteady, false);
  QCOMPARE(rows[2].train_rounds, int64_t(2));
  QCOMPARE(rows[2].batch, int64_t(1));
}

}  // namespace

class TestBenchmarks : public QObject {
  Q_OBJECT
 private slots:
  // One intra-op thread except where a test needs more: the benchmark runs here check
  // plumbing, not speed, and stay quick on a shared machine.
  void initTestCase() {
    torch::manual_seed(7);
    at::set_num_threads(1);
  }

  void chunked_softmax_equals_plain() {
    for (int64_t n : {1, 63, 64, 65, 197, 577}) {
      auto q = torch::randn({2, 3, n, 32}), k = torch::randn({2, 3, n, 32}),
           v = torch::randn({2, 3, n, 32});
      const double scale = 1.0 / std::sqrt(32.0);
      auto plain = softmax_attention(q, k, v, scale);
      for (int64_t chunk : {1, 7, 64, 100, 1000}) {
        auto chunked = softmax_attention_chunked(q, k, v, scale, chunk);
        const double err = rel_error(chunked, plain);
        QVERIFY2(err < 1e-6, qPrintable(QString("N=%1 chunk=%2: %3").arg(n).arg(chunk).arg(err)));
      }
      // Through the benchmark's dispatcher too.
      QVERIFY(rel_error(run_attention_kernel("softmax-chunked", q, k, v, 50), plain) < 1e-6);
    }
  }

  void chunked_softmax_model_equals_plain_model() {
    auto c = vit_preset("vit_tiny");
    VisionTransformer model(c);
    model->eval();
    auto x = torch::randn({2, 3, 64, 64});  // 17 tokens
    torch::NoGradGuard no_grad;
    auto plain = model->forward_features(x);
    model->set_softmax_chunk(5);
    auto chunked = model->forward_features(x);
    QVERIFY(rel_error(chunked, plain) < 1e-6);
  }

  void parallel_for_in_engine_code_uses_every_thread() {
    // at::parallel_for is inlined into the code that calls it: code built against adala_core
    // (this test included) must get OpenMP, or the blocked kernel and FusedAdamW run serially.
    at::set_num_threads(2);
    std::mutex mutex;
    std::set<int> threads;
    at::parallel_for(0, 64, 1, [&](int64_t, int64_t) {
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(at::get_thread_num());
    });
    at::set_num_threads(1);
    QCOMPARE(int(threads.size()), 2);
  }

  void gemm_rate_runs_one_matmul_per_thread_under_inference_mode() {
    // The all-threads rate runs a matmul on every OpenMP worker: they must take over the
    // caller's inference mode (its output tensors are inference tensors).
    at::set_num_threads(2);
    const auto rate = measure_gemm_rate(128, 2);
    at::set_num_threads(1);
    QCOMPARE(rate.threads, 2);
    QCOMPARE(rate.n, int64_t(128));
    QVERIFY(rate.library_gflops > 0 && std::isfinite(rate.library_gflops));
    QVERIFY(rate.all_threads_gflops > 0 && std::isfinite(rate.all_threads_gflops));
  }

  void blocked_linear_equals_engine_linear() {
    at::set_num_threads(2);  // the head-parallel path needs >= 2 threads
    c10::InferenceMode inference;
    for (int64_t n : {1, 100, 1024, 3000}) {
      for (int64_t block : {64, 1000, 4096}) {
        auto q = torch::randn({2, 3, n, 16}), k = torch::randn({2, 3, n, 16}),
             v = torch::randn({2, 3, n, 16});
        auto ref = linear_attention(q, k, v, 1e-6);
        auto out = linear_attention_blocked(q, k, v, 1e-6, block);
        QCOMPARE(out.sizes(), ref.sizes());
        const double err = rel_error(out, ref);
        QVERIFY2(err < 1e-5, qPrintable(QString("N=%1 block=%2: %3").arg(n).arg(block).arg(err)));
      }
    }
    // Non-contiguous inputs straight from a qkv projection.
    auto qkv =
        torch::randn({1, 200, 3 * 4 * 8}).reshape({1, 200, 3, 4, 8}).permute({2, 0, 3, 1, 4});
    auto out = linear_attention_blocked(qkv[0], qkv[1], qkv[2], 1e-6);
    QVERIFY(rel_error(out, linear_attention(qkv[0], qkv[1], qkv[2], 1e-6)) < 1e-5);
    at::set_num_threads(1);
  }

  void blocked_phi_is_within_two_ulp_of_the_where_form() {
    // The vectorised phi against exp in double: x + 1 exactly for x >= 0, within 2 ulp of
    // exp(x) below, clamped at exp(-87) (still a normal float, never 0) under -87.
    auto x = torch::cat({torch::linspace(-100, 30, 200001), torch::tensor({-0.0f, 0.0f, -1e-30f})});
    auto out = torch::empty_like(x).reshape({1, -1});
    elu_plus_one_into(out, x.reshape({1, -1}));
    const float* xs = x.data_ptr<float>();
    const float* ys = out.data_ptr<float>();
    double worst_ulp = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const float xi = xs[i], yi = ys[i];
      if (xi >= 0) {
        // One correctly rounded float addition on both sides: the same bits.
        ADALA_COMPARE_EXACT(yi, xi + 1.0f);
        continue;
      }
      const double ref = std::exp(std::max(double(xi), -87.0));
      const double ulp = double(std::nextafter(float(ref), INFINITY)) - double(float(ref));
      worst_ulp = std::max(worst_ulp, std::abs(double(yi) - ref) / ulp);
      QVERIFY2(yi > 0.0f, qPrintable(QString("phi(%1) = %2").arg(xi).arg(yi)));
    }
    QVERIFY2(worst_ulp <= 2.0, qPrintable(QString("worst error %1 ulp").arg(worst_ulp)));
    QVERIFY(std::isnan(ys[0] + 0.0f) == false);
    auto nan_in = torch::tensor({NAN, -1.0f}).reshape({1, 2}), nan_out = torch::empty({1, 2});
    elu_plus_one_into(nan_out, nan_in);
    QVERIFY(std::isnan(nan_out[0][0].item<float>()));
  }

  void blocked_phi_on_strided_rows_with_column_sums() {
    // Rows taken out of a wider matrix (a qkv projection's layout), and the column sums the
    // blocked kernel uses as phi(K)^T 1, against ATen.
    auto wide = torch::randn({37, 3 * 24}) * 4;
    auto x = wide.narrow(1, 24, 24);
    auto out = torch::empty({37, 24});
    std::vector<float> sums(24, 1.0f);
    elu_plus_one_rows_colsum(x.data_ptr<float>(), x.stride(0), out.data_ptr<float>(), 24, 37, 24,
                             sums.data());
    auto ref = elu_plus_one(x);
    QVERIFY(torch::allclose(out, ref, 1e-6, 0));
    auto ref_sums = ref.sum(0) + 1.0;
    for (int c = 0; c < 24; ++c) QVERIFY(std::abs(sums[c] - ref_sums[c].item<float>()) < 1e-4f);
  }

  void blocked_linear_falls_back_when_gradients_are_needed() {
    auto q = torch::randn({1, 4, 50, 8}, torch::requires_grad()), k = torch::randn({1, 4, 50, 8}),
         v = torch::randn({1, 4, 50, 8});
    auto out = linear_attention_blocked(q, k, v, 1e-6);
    QVERIFY(out.requires_grad());
    out.sum().backward();
    QVERIFY(q.grad().defined());
  }

  void command_line_sizes_openblas_by_the_openmp_wait_policy() {
    // adala re-executes itself with OMP_WAIT_POLICY=PASSIVE and OPENBLAS_THREAD_TIMEOUT=12
    // where they are unset (a value that is set stays), and then gives OpenBLAS as many threads
    // as LibTorch; with spinning OpenMP waits, one.
    const QByteArray dir = qgetenv("ADALA_BINARY_DIR");
    if (dir.isEmpty()) QSKIP("ADALA_BINARY_DIR is not set (run through ctest)");
    auto info = [&](const QString& policy, const QString& timeout) {
      QProcess p;
      auto env = QProcessEnvironment::systemEnvironment();
      env.remove(QStringLiteral("OPENBLAS_NUM_THREADS"));
      env.remove(QStringLiteral("OMP_WAIT_POLICY"));
      env.remove(QStringLiteral("OPENBLAS_THREAD_TIMEOUT"));
      if (!policy.isEmpty()) env.insert(QStringLiteral("OMP_WAIT_POLICY"), policy);
      if (!timeout.isEmpty()) env.insert(QStringLiteral("OPENBLAS_THREAD_TIMEOUT"), timeout);
      p.setProcessEnvironment(env);
      p.setProcessChannelMode(QProcess::MergedChannels);
      p.start(QString::fromLocal8Bit(dir) + QStringLiteral("/bin/adala"),
              {QStringLiteral("info"), QStringLiteral("--threads"), QStringLiteral("2")});
      p.waitForFinished(60000);
      return QString::fromUtf8(p.readAll());
    };
    QString out = info(QString(), QString());
    QVERIFY2(out.contains(QStringLiteral("intra-op threads 2")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral(
                 "OpenBLAS threads 2 (OMP_WAIT_POLICY=PASSIVE, OPENBLAS_THREAD_TIMEOUT=12)")),
             qPrintable(out));
    out = info(QStringLiteral("active"), QString());
    QVERIFY2(out.contains(QStringLiteral(
                 "OpenBLAS threads 1 (OMP_WAIT_POLICY=active, OPENBLAS_THREAD_TIMEOUT=12)")),
             qPrintable(out));
    out = info(QString(), QStringLiteral("20"));
    QVERIFY2(out.contains(QStringLiteral(
                 "OpenBLAS threads 2 (OMP_WAIT_POLICY=PASSIVE, OPENBLAS_THREAD_TIMEOUT=20)")),
             qPrintable(out));
  }

  void single_threaded_blas_scope_restores_the_pool() {
    if (openblas_threads() < 0) QSKIP("LibTorch is not linked against OpenBLAS here");
    using SetThreads = void (*)(int);
    auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    QVERIFY(set);
    const int before = openblas_threads();
    set(2);
    {
      const SingleThreadedBlas scope;
      QCOMPARE(openblas_threads(), 1);
    }
    QCOMPARE(openblas_threads(), 2);
    set(before);
  }

  void auto_chunk_bounds() {
    QCOMPARE(auto_softmax_chunk(6, 100), int64_t(100));  // small N: one chunk
    const int64_t c = auto_softmax_chunk(12, 16385);
    QVERIFY(c >= 32 && c % 32 == 0);
    QVERIFY(4.0 * 12 * 16385 * double(c) <= double(32LL << 20));  // below the mmap threshold
  }

  // Warm-up goes on while a run still page-faults: a run that maps and touches fresh pages for
  // its first calls settles once it stops; one that never stops gets kMaxSettlingRuns more.
  void warm_up_settles_once_runs_stop_page_faulting() {
    const long page = sysconf(_SC_PAGESIZE);
    const size_t bytes = size_t(page) * 1024;  // 1024 pages: far above kSettledRunPageFaults
    std::vector<std::pair<void*, size_t>> mappings;
    auto touch_fresh_pages = [&] {
      void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      QVERIFY(m != MAP_FAILED);
      mappings.emplace_back(m, bytes);
      for (size_t i = 0; i < bytes; i += size_t(page)) static_cast<volatile char*>(m)[i] = 1;
    };
    int calls = 0, warmup_runs = -1;
    auto faults_in_first_three = [&] {
      if (++calls <= 3) touch_fresh_pages();
    };
    auto times =
        time_runs_ms(faults_in_first_three, 1, 2, c10::Device(c10::kCPU), 0, nullptr, &warmup_runs);
    QCOMPARE(warmup_runs, 4);  // 3 faulting runs, then one that settled
    QCOMPARE(times.size(), size_t(2));
    QCOMPARE(calls, 6);

    // Asked for three warm-ups: no fewer, though the fourth call would have settled anyway.
    calls = 0;
    time_runs_ms([&] { ++calls; }, 3, 1, c10::Device(c10::kCPU), 0, nullptr, &warmup_runs);
    QCOMPARE(warmup_runs, 3);
    QCOMPARE(calls, 4);

    calls = 0;
    time_runs_ms([&] { ++calls, touch_fresh_pages(); }, 1, 1, c10::Device(c10::kCPU), 0, nullptr,
                 &warmup_runs);
    QCOMPARE(warmup_runs, 1 + kMaxSettlingRuns);
    QCOMPARE(calls, 2 + kMaxSettlingRuns);

    // No warm-up asked for: none added.
    calls = 0;
    time_runs_ms([&] { ++calls, touch_fresh_pages(); }, 0, 1, c10::Device(c10::kCPU), 0, nullptr,
                 &warmup_runs);
    QCOMPARE(warmup_runs, 0);
    QCOMPARE(calls, 1);
    for (auto [m, size] : mappings) munmap(m, size);
  }

  // min_warmup_ms: warm-up runs go on until together they have lasted that long, and stop
  // with the first run that gets there; half of budget_s caps them.
  void warm_up_lasts_its_minimum_time() {
    using clock = std::chrono::steady_clock;
    std::vector<double> durations;
    auto half_a_millisecond = [&] {
      const auto start = clock::now();
      double ms = 0;
      while (ms < 0.5) ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
      durations.push_back(ms);
    };
    auto sum_of_first = [&](int runs) {
      return std::accumulate(durations.begin(), durations.begin() + runs, 0.0);
    };
    int warmup_runs = -1;
    auto times = time_runs_ms(half_a_millisecond, 1, 2, c10::Device(c10::kCPU), 0, nullptr,
                              &warmup_runs, 20.0);
    QCOMPARE(times.size(), size_t(2));
    QCOMPARE(durations.size(), size_t(warmup_runs + 2));
    QVERIFY2(warmup_runs >= 2 && warmup_runs <= 40, qPrintable(QString::number(warmup_runs)));
    QVERIFY(sum_of_first(warmup_runs - 1) < 20.0);  // it had not got there one run earlier
    QVERIFY(sum_of_first(warmup_runs) >= 19.9);     // (fn's own clock: a few us less)

    // A 20 ms budget leaves 10 ms of warm-up, whatever the minimum asks.
    durations.clear();
    time_runs_ms(half_a_millisecond, 1, 1, c10::Device(c10::kCPU), 0.02, nullptr, &warmup_runs,
                 1000.0);
    QVERIFY(warmup_runs >= 2 && sum_of_first(warmup_runs - 1) <= 10.0);
    QVERIFY(sum_of_first(warmup_runs) < 20.0);

    // No warm-up asked for: the minimum adds none.
    durations.clear();
    time_runs_ms(half_a_millisecond, 0, 1, c10::Device(c10::kCPU), 0, nullptr, &warmup_runs, 20.0);
    QCOMPARE(warmup_runs, 0);
    QCOMPARE(durations.size(), size_t(1));
  }

  void attention_bench_small_run_and_skip() {
    AttentionBenchOptions o;
    o.tokens = {64, 256};
    o.repeats = 1;
    o.warmup = 1;
    o.min_warmup_ms = 0;  // the warm-up count below is the page-fault rule's alone
    o.heads = 2;
    o.head_dim = 16;
    int readings = 0;
    o.rate_probe = [&] { return readings++ % 2 == 0 ? 100.0 : 130.0; };
    size_t progress_calls = 0;
    auto points = run_attention_bench(o, [&](size_t, size_t total, const std::string&) {
      ++progress_calls;
      QCOMPARE(total, size_t(8));
    });
    QCOMPARE(points.size(), size_t(8));
    QCOMPARE(progress_calls, size_t(9));
    for (const auto& p : points) {
      QVERIFY2(p.ran, p.note.c_str());
      QVERIFY(p.median_ms > 0 && p.peak_rss_bytes >= 0 && p.peak_alloc_bytes > 0);
      QVERIFY(p.warmup_runs >= 1 && p.warmup_runs <= 1 + kMaxSettlingRuns);
    }
    QCOMPARE(readings, 9);  // before the first point and after each of the 8
    // The probe's readings, copied by min / max: exact.
    for (const auto& p : points) {
      ADALA_COMPARE_EXACT(p.rates.lo, 100.0);
      ADALA_COMPARE_EXACT(p.rates.hi, 130.0);
    }
    const auto table = QString::fromStdString(format_attention_table(points, o));
    QVERIFY(table.contains("linear-blocked") && table.contains("x time") && table.contains("warm"));
    QVERIFY2(table.contains("unsteady: matmul rate moved 30 % (100.0-130.0 GFLOP/s)"),
             qPrintable(table));

    // Pretend only 1 MB is free: plain softmax at N=4096 (2 x 6 x 4096^2 x 4 B) must be skipped.
    o.tokens = {4096};
    o.heads = 6;
    o.kernels = {"softmax"};
    o.available_bytes = 1'000'000;
    points = run_attention_bench(o);
    QVERIFY(!points[0].ran);
    QVERIFY2(QString::fromStdString(points[0].note).startsWith("skipped: needs ~"),
             points[0].note.c_str());
    QVERIFY(QString::fromStdString(format_attention_table(points, o)).contains("skipped: needs ~"));
  }

  void attention_bench_train_times_forward_and_backward() {
    AttentionBenchOptions o;
    o.train = true;
    o.kernels = attention_train_kernel_names();
    o.tokens = {97};
    o.repeats = 1;
    o.heads = 2;
    o.head_dim = 16;
    o.isolate = false;
    auto points = run_attention_bench(o);
    QCOMPARE(points.size(), size_t(3));
    for (const auto& p : points) {
      QVERIFY2(p.ran, p.note.c_str());
      const auto mode = p.kernel == "softmax" ? AttentionMode::Softmax : AttentionMode::Linear;
      // A count of whole multiply-adds (far below 2^53), by the same formula.
      ADALA_COMPARE_EXACT(p.macs, 3.0 * attention_kernel_macs(mode, 2, 97, 16));
      QVERIFY(p.median_ms > 0 && p.peak_alloc_bytes > 0);
    }
    const auto table = QString::fromStdString(format_attention_table(points, o));
    QVERIFY2(table.contains("forward + backward") && table.contains("linear-fused vs the batched"),
             qPrintable(table));
    // The inference kernel has no backward to time.
    o.kernels = {"linear-blocked"};
    QVERIFY_EXCEPTION_THROWN(run_attention_bench(o), std::invalid_argument);
    // Without train the fused kernel's forward runs like the others.
    o.train = false;
    o.kernels = {"linear-fused"};
    points = run_attention_bench(o);
    QVERIFY2(points[0].ran, points[0].note.c_str());
    // A count of whole multiply-adds (far below 2^53), by the same formula.
    ADALA_COMPARE_EXACT(points[0].macs, attention_kernel_macs(AttentionMode::Linear, 2, 97, 16));
  }

  void scaling_bench_small_run_csv_and_table() {
    int readings = 0;
    const ScalingOptions o = small_scaling_options(readings);
    std::vector<std::string> steps;
    size_t last_total = 0;
    const auto points =
        run_scaling_bench(o, [&](size_t done, size_t total, const std::string& label) {
          if (!label.empty()) QCOMPARE(done, steps.size());
          if (!label.empty()) steps.push_back(label);
          last_total = total;
        });
    QCOMPARE(points.size(), size_t(6));
    // Per resolution: the modes in turn, the second round reversed; then the training steps
    // the same way (softmax, linear, linear, softmax, ...).
    QCOMPARE(last_total, size_t(2 * 3 * 2 * 2));
    QCOMPARE(steps.size(), size_t(24));
    const std::vector<std::string> first_resolution{"32px softmax round 1",
                                                    "32px softmax-chunked round 1",
                                                    "32px linear round 1",
                                                    "32px linear round 2",
                                                    "32px softmax-chunked round 2",
                                                    "32px softmax round 2",
                                                    "32px softmax train step round 1",
                                                    "32px softmax-chunked train step round 1",
                                                    "32px linear train step round 1",
                                                    "32px linear train step round 2",
                                                    "32px softmax-chunked train step round 2",
                                                    "32px softmax train step round 2"};
    for (size_t i = 0; i < first_resolution.size(); ++i) QCOMPARE(steps[i], first_resolution[i]);
    QCOMPARE(steps[12], std::string("64px softmax round 1"));
    // One reading before the first measurement and one after each: 24 measurements.
    QCOMPARE(readings, 25);
    for (const auto& p : points) {
      check_small_scaling_point(p);
      if (QTest::currentTestFailed()) return;
    }
    check_scaling_csv_round_trip(points);
    if (QTest::currentTestFailed()) return;
    const auto table = QString::fromStdString(format_scaling_table(points, o));
    QVERIFY(table.contains("softmax-chunked") && table.contains("training step"));
    QVERIFY(table.contains("min-max ms/img") && table.contains("load"));
    QVERIFY2(table.contains("100.0-100.0 GFLOP/s") && !table.contains("unsteady"),
             qPrintable(table));
  }

  // A round budget the first round overruns: one round per mode.
  void scaling_bench_one_round_past_the_budget() {
    int readings = 0;
    ScalingOptions o = small_scaling_options(readings);
    o.resolutions = {32};
    o.train_step = false;
    o.round_budget_s = 0;
    const auto points = run_scaling_bench(o);
    QCOMPARE(points.size(), size_t(3));
    for (const auto& p : points) QCOMPARE(p.rounds, 1);
  }

  void scaling_bench_skips_what_does_not_fit() {
    int readings = 0;
    ScalingOptions o = small_scaling_options(readings);
    o.train_step = false;
    o.round_budget_s = 0;
    o.resolutions = {2048};
    o.modes = {"softmax"};
    o.preset = "vit_base";
    o.available_bytes = 24LL << 30;  // a 24 GiB machine: plain softmax at 2048^2 does not fit
    const auto points = run_scaling_bench(o);
    QVERIFY(!points[0].ran && !points[0].train_ran);
    QVERIFY2(QString::fromStdString(points[0].note).startsWith("skipped: needs ~"),
             points[0].note.c_str());
  }

  // Rounds visit the modes forward, then backward: softmax, linear, linear, softmax, ...
  void rounds_alternate_the_modes_abba() {
    QCOMPARE(round_order(2, 0), (std::vector<size_t>{0, 1}));
    QCOMPARE(round_order(2, 1), (std::vector<size_t>{1, 0}));
    QCOMPARE(round_order(2, 2), (std::vector<size_t>{0, 1}));
    QCOMPARE(round_order(3, 1), (std::vector<size_t>{2, 1, 0}));
    QVERIFY(round_order(0, 1).empty());
  }

  // One reading between two measurements: each point gets the readings before and after it.
  void rate_probes_bracket_every_measurement() {
    double next = 0;
    RateProbes probes([&] { return next += 10; });
    RateRange first, second, third;
    probes.before();      // 10
    probes.after(first);  // 20
    probes.before();
    probes.after(second);  // 30
    probes.before();
    probes.after(third);  // 40
    // Whole numbers summed and then only copied (min / max): exact.
    ADALA_COMPARE_EXACT(next, 40.0);
    ADALA_COMPARE_EXACT(first.lo, 10.0);
    ADALA_COMPARE_EXACT(first.hi, 20.0);
    ADALA_COMPARE_EXACT(second.lo, 20.0);
    ADALA_COMPARE_EXACT(second.hi, 30.0);
    ADALA_COMPARE_EXACT(third.lo, 30.0);
    ADALA_COMPARE_EXACT(probes.all().lo, 10.0);
    ADALA_COMPARE_EXACT(probes.all().hi, 40.0);
    // A failed reading (NaN) leaves no trace.
    RateProbes failing([] { return std::nan(""); });
    RateRange none;
    failing.before();
    failing.after(none);
    QVERIFY(none.empty() && failing.all().empty());
  }

  // The reference matmul itself, in this process: a positive rate.
  void reference_matmul_reads_a_rate() {
    ReferenceMatmul m;
    m.n = 64;
    m.threads = 1;
    m.min_ms = 0;
    QVERIFY(reference_matmul_gflops(c10::Device(c10::kCPU), m) > 0);
    QVERIFY(QString::fromStdString(reference_matmul_text(c10::Device(c10::kCPU)))
                .contains("1024^3 at::mm, 2 threads"));
  }

  // The run's rate moved 24 %: not flagged; 26 %: flagged in the table and the CSV.
  void scaling_bench_flags_an_unsteady_run() {
    ScalingOptions o;
    o.preset = "vit_tiny";
    o.resolutions = {32};
    o.modes = {"softmax", "linear"};
    o.repeats = 1;
    o.warmup = 0;
    o.rounds = 1;
    o.count_ops = false;
    o.isolate = false;
    for (const double top : {124.0, 126.0}) {
      int reading = 0;
      o.rate_probe = [&] { return reading++ % 2 == 0 ? 100.0 : top; };
      const auto points = run_scaling_bench(o);
      QCOMPARE(reading, 3);
      const RateRange all = scaling_rate_range(points);
      // The probe's readings, kept as they are by min / max.
      ADALA_COMPARE_EXACT(all.lo, 100.0);
      ADALA_COMPARE_EXACT(all.hi, top);
      const bool flagged = top > 125;
      QCOMPARE(all.unsteady(), flagged);
      const auto table = QString::fromStdString(format_scaling_table(points, o));
      QVERIFY2(table.contains("unsteady: matmul rate moved 26 % (100.0-126.0 GFLOP/s)") == flagged,
               qPrintable(table));
      QVERIFY(table.contains("unsteady") == flagged);
      std::ostringstream csv;
      write_scaling_csv(csv, points);
      std::istringstream in(csv.str());
      const auto rows = read_scaling_csv(in, "flag.csv");
      for (const auto& row : rows) {
        QCOMPARE(row.unsteady, flagged);
        // The probe's readings, written as their shortest round-trip text and read back.
        ADALA_COMPARE_EXACT(row.matmul_gflops_min, 100.0);
        ADALA_COMPARE_EXACT(row.matmul_gflops_max, top);
      }
    }
  }

  // Training steps alone, at a batch: the batch reaches the points, the CSV and the table.
  void scaling_bench_train_only_at_a_batch() {
    ScalingOptions o;
    o.preset = "vit_tiny";
    o.resolutions = {32};
    o.modes = {"softmax", "linear"};
    o.batch = 3;
    o.repeats = 1;
    o.warmup = 0;
    o.rounds = 2;
    o.train_only = true;
    o.isolate = false;
    o.rate_probe = [] { return 50.0; };
    std::vector<std::string> steps;
    const auto points = run_scaling_bench(o, [&](size_t, size_t, const std::string& label) {
      if (!label.empty()) steps.push_back(label);
    });
    QCOMPARE(steps, (std::vector<std::string>{
                        "32px softmax train step round 1", "32px linear train step round 1",
                        "32px linear train step round 2", "32px softmax train step round 2"}));
    for (const auto& p : points) {
      QVERIFY(!p.ran && p.train_ran);
      QCOMPARE(p.batch, int64_t(3));
      QCOMPARE(p.train_rounds, 2);
      QCOMPARE(scaling_csv_row(p).batch, int64_t(3));
    }
    const auto table = QString::fromStdString(format_scaling_table(points, o));
    QVERIFY2(table.contains("backward, AdamW), batch 3") && !table.contains("min-max ms/img"),
             qPrintable(table));
  }

  // Stage 2's step per student mode: interleaved rounds, img/s, rates.
  void stage2_bench_small_run() {
    Stage2BenchOptions o;
    o.preset = "vit_tiny";
    o.resolution = 32;
    o.batch = 2;
    o.repeats = 1;
    o.warmup = 1;
    o.rounds = 2;
    int readings = 0;
    o.rate_probe = [&] { return 80.0 + readings++; };
    std::vector<std::string> steps;
    const auto points = run_stage2_bench(o, [&](size_t, size_t, const std::string& label) {
      if (!label.empty()) steps.push_back(label);
    });
    QCOMPARE(steps,
             (std::vector<std::string>{"softmax student round 1", "linear student round 1",
                                       "linear student round 2", "softmax student round 2"}));
    QCOMPARE(readings, 5);
    QCOMPARE(points.size(), size_t(2));
    for (const auto& p : points) {
      QVERIFY2(p.ran, p.note.c_str());
      QCOMPARE(p.rounds, 2);
      QVERIFY(p.step_ms > 0 && p.step_ms_min <= p.step_ms && p.step_ms <= p.step_ms_max);
      QVERIFY(std::abs(p.imgs_per_s - 2000.0 / p.step_ms) < 1e-9);
      QVERIFY(p.peak_alloc_bytes > 0);
    }
    // softmax: rounds 1 and 2 were the first and last measurement; linear the middle two.
    // The probe's whole-number readings, kept as they are by the ranges' min / max.
    ADALA_COMPARE_EXACT(points[0].rates.lo, 80.0);
    ADALA_COMPARE_EXACT(points[0].rates.hi, 84.0);
    ADALA_COMPARE_EXACT(points[1].rates.lo, 81.0);
    ADALA_COMPARE_EXACT(points[1].rates.hi, 83.0);
    const auto table = QString::fromStdString(format_stage2_table(points, o));
    QVERIFY2(table.contains("x softmax") && table.contains("80.0-84.0 GFLOP/s") &&
                 !table.contains("unsteady"),
             qPrintable(table));
    o.modes = {"softmax", "performer"};
    QVERIFY_EXCEPTION_THROWN(run_stage2_bench(o), std::invalid_argument);
  }

  void peer_agrees_with_plain_pytorch() {
    if (::access("/usr/bin/python3", X_OK) != 0) QSKIP("no /usr/bin/python3");
    if (std::system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") != 0)
      QSKIP("python3-torch is not installed");
    PeerOptions o;
    o.preset = "fmnist_micro";  // 28x28, patch 4, with a classifier head (not trained)
    o.script = ADALA_SOURCE_DIR "/scripts/peer_vit.py";
    o.repeats = 1;
    for (int64_t res : {28, 36}) {  // native grid, and bicubic position-embedding resampling
      o.resolution = res;
      const auto r = run_peer_comparison(o);
      const auto text = QString::fromStdString(format_peer_report(r, o));
      QVERIFY2(r.agrees, qPrintable(text));
      QVERIFY(r.softmax_features_rel < 1e-5 && r.linear_features_rel < 1e-5 && r.grads_rel < 1e-5);
      QVERIFY(r.loss_engine > 0 && r.peer_train_ms > 0 && r.engine_train_ms > 0);
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestBenchmarks)
}  // namespace test_benchmarks

#include "test_benchmarks.moc"
