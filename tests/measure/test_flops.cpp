// The analytic FLOP model against operation counts measured from the operators that ran, and
// against the ViT-AdaLA paper's ViT-L 1024^2 figures.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "engine/measure/flop_model.h"
#include "engine/measure/op_counter.h"
#include "engine/kernels/linear_attention_blocked.h"
#include "engine/model/vision_transformer.h"
#include "tests/support/test_suite.h"

#include <mutex>
#include <set>
#include <thread>

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_flops {

using namespace adala;

namespace {

// MACs of one forward_features pass per image, counted from the operators that ran.
double measured_macs(const ViTConfig& config, AttentionMode mode, int64_t res, int64_t batch,
                     int64_t chunk = 0) {
  torch::manual_seed(0);
  VisionTransformer model(config);
  model->eval();
  model->set_attention_mode(mode);
  model->set_softmax_chunk(chunk);
  auto x = torch::randn({batch, config.in_chans, res, res});
  torch::NoGradGuard no_grad;
  return count_ops([&] { model->forward_features(x); }).macs / double(batch);
}

double model_macs_without_head(const ViTConfig& c, AttentionMode mode, int64_t res) {
  auto f = model_flops(c, mode, res, res);
  return f.total() - f.head;  // forward_features stops before the classifier
}

}  // namespace

class TestFlops : public QObject {
  Q_OBJECT
 private slots:
  // Counts do not depend on threads; one thread keeps this quick on a shared, busy machine
  // (two spinning OpenMP threads competing with other processes for 2 cores are slower).
  void initTestCase() { at::set_num_threads(1); }

  void paper_vit_large_1024_figures() {
    const auto c = vit_preset("vit_large");
    const auto s = model_flops(c, AttentionMode::Softmax, 1024, 1024);
    const auto l = model_flops(c, AttentionMode::Linear, 1024, 1024);
    QCOMPARE(s.tokens, int64_t(4097));
    const double gs = s.attention_only() * 1e-9, gl = l.attention_only() * 1e-9;
    QVERIFY2(std::abs(gs - 1240.7) <= 0.5, qPrintable(QString("softmax %1").arg(gs)));
    QVERIFY2(std::abs(gl - 428.7) <= 0.5, qPrintable(QString("linear %1").arg(gl)));
    // Within 0.2% of the paper's printed 1241.0 -> 429.35.
    QVERIFY(std::abs(gs / kPaperViTL1024SoftmaxGFlops - 1.0) < 2e-3);
    QVERIFY(std::abs(gl / kPaperViTL1024LinearGFlops - 1.0) < 2e-3);
    // What `adala bench flops --preset vit_large --res 1024` prints.
    const auto report = QString::fromStdString(format_flops_report(c, 1024, 1024));
    QVERIFY2(report.contains("1240.68") && report.contains("428.73"), qPrintable(report));
    QVERIFY(report.contains("1241.0 -> 429.35"));
    QVERIFY(report.contains("1 multiply-add (MAC) = 1 FLOP"));
  }

  void measured_count_matches_model() {
    // softmax, chunked softmax and linear at two resolutions (197 and 401 tokens); batch 2
    // once, to check that counts are per image.
    const auto c = vit_preset("vit_small");
    struct Case {
      AttentionMode mode;
      int64_t chunk, res, batch;
    };
    for (Case k :
         {Case{AttentionMode::Softmax, 0, 224, 2}, Case{AttentionMode::Linear, 0, 224, 1},
          Case{AttentionMode::Softmax, 0, 320, 1}, Case{AttentionMode::Softmax, 100, 320, 1},
          Case{AttentionMode::Linear, 0, 320, 1}}) {
      {
        const int64_t res = k.res;
        const double model = model_macs_without_head(c, k.mode, res);
        const double measured = measured_macs(c, k.mode, res, k.batch, k.chunk);
        const double rel = std::abs(measured - model) / model;
        QVERIFY2(rel < 0.01, qPrintable(QString("%1 chunk %2 at %3: measured %4 vs model %5 GMACs")
                                            .arg(to_string(k.mode))
                                            .arg(k.chunk)
                                            .arg(res)
                                            .arg(measured * 1e-9)
                                            .arg(model * 1e-9)));
      }
    }
  }

  void measured_count_with_register_tokens_and_layer_scale() {
    auto c = vit_preset("dinov2_vits14_reg");  // 4 registers, no pos slot for prefix
    c.img_size = 224;                          // native grid: no pos-embed resampling
    for (auto mode : {AttentionMode::Linear}) {
      const double model = model_macs_without_head(c, mode, 224);
      const double measured = measured_macs(c, mode, 224, 1);
      QVERIFY2(std::abs(measured - model) / model < 0.01,
               qPrintable(QString("%1: %2 vs %3").arg(to_string(mode)).arg(measured).arg(model)));
    }
  }

  void counter_agrees_with_libtorch_profiler() {
    // LibTorch's legacy profiler (record_shapes + with_flops) counts 2 FLOPs per MAC for the
    // matmul operators; our observer must see the same operators with the same shapes.
    auto c = vit_preset("vit_tiny");
    torch::manual_seed(0);
    VisionTransformer model(c);
    model->set_attention_mode(AttentionMode::Linear);
    auto x = torch::randn({1, 3, 96, 96});
    torch::NoGradGuard no_grad;
    auto run = [&] { model->forward_features(x); };
    const auto ops = count_ops(run);
    double matmul_macs = 0;
    // The profiler rates only functional matmuls: not convolution, not in-place addmm_ (the
    // blocked linear kernel's phi(K)^T V accumulation).
    for (const auto& [name, stat] : ops.by_op)
      if (name != "aten::convolution" && name.back() != '_') matmul_macs += stat.macs;
    const double profiler = profiler_matmul_flops(run);
    QVERIFY(profiler > 0);
    QVERIFY2(std::abs(profiler - 2.0 * matmul_macs) / profiler < 1e-9,
             qPrintable(QString("profiler %1 vs 2 x %2").arg(profiler).arg(matmul_macs)));
    QVERIFY(ops.by_op.count("aten::convolution") == 1);  // the patch embedding, counted once
  }

  void counter_counts_each_operator_once() {
    torch::NoGradGuard no_grad;
    // 4-D matmul goes through expand/reshape/bmm: B*H*N*K*M MACs, no double count.
    auto a = torch::randn({2, 3, 17, 8}), b = torch::randn({2, 3, 8, 5});
    // MAC counts are products and sums of tensor sizes (whole numbers far below 2^53) held in
    // doubles: exact.
    auto ops = count_ops([&] { torch::matmul(a, b); });
    ADALA_COMPARE_EXACT(ops.macs, 2.0 * 3 * 17 * 8 * 5);
    // Strided, padded convolution: output positions x C_in/groups x kernel.
    auto img = torch::randn({2, 4, 20, 20}), w = torch::randn({6, 2, 3, 3});
    ops = count_ops([&] {
      torch::conv2d(img, w, {}, /*stride=*/2, /*padding=*/1, /*dilation=*/1, /*groups=*/2);
    });
    ADALA_COMPARE_EXACT(ops.macs, 2.0 * 6 * 10 * 10 * 2 * 3 * 3);
    // Linear layer on 3-D input: addmm (or matmul -> mm) counted once either way.
    auto lin = torch::nn::Linear(16, 32);
    auto x = torch::randn({3, 7, 16});
    ops = count_ops([&] { lin->forward(x); });
    ADALA_COMPARE_EXACT(ops.macs, 3.0 * 7 * 16 * 32);
    // In-place accumulation (addmm_) counts like addmm.
    auto acc = torch::zeros({8, 5}), m1 = torch::randn({8, 11}), m2 = torch::randn({11, 5});
    ops = count_ops([&] { acc.addmm_(m1, m2); });
    ADALA_COMPARE_EXACT(ops.macs, 8.0 * 11 * 5);
    // Elementwise work is not counted.
    ops = count_ops([&] { torch::softmax(a, -1).exp(); });
    ADALA_COMPARE_EXACT(ops.macs, 0.0);  // no counted operator ran: nothing added
    QVERIFY(ops.operator_calls > 0);
  }

  void counter_sees_head_parallel_worker_threads() {
    // The blocked linear kernel runs heads on OpenMP workers that take the caller's
    // thread-local state; their matmuls must count too. Per head it does phi(K)^T V
    // (n d dv, addmm_ per row block) and phi(Q) [kv | ksum] (n d (dv + 1), mm per block).
    at::set_num_threads(2);
    const int64_t bh = 6, n = 300, d = 16;
    auto q = torch::randn({1, bh, n, d}), k = torch::randn({1, bh, n, d}),
         v = torch::randn({1, bh, n, d});
    std::set<std::thread::id> threads;
    std::mutex mutex;
    const auto ops = count_ops([&] {
      linear_attention_blocked(q, k, v, 1e-6, /*block_rows=*/128);
      at::parallel_for(0, 2, 1, [&](int64_t, int64_t) {
        std::lock_guard<std::mutex> lock(mutex);
        threads.insert(std::this_thread::get_id());
      });
    });
    at::set_num_threads(1);
    // A sum of whole-number operator counts (far below 2^53): exact whichever thread adds first.
    ADALA_COMPARE_EXACT(ops.macs, double(bh) * n * d * (2 * d + 1));
    QVERIFY(ops.by_op.at("aten::addmm_").calls == bh * 3);  // 3 row blocks of 128, 128, 44
    QVERIFY2(threads.size() == 2, "the kernel's parallel_for ran on one thread only");
  }

  void kernel_macs_formulas() {
    // Products of whole numbers far below 2^53: exact in any order.
    ADALA_COMPARE_EXACT(attention_kernel_macs(AttentionMode::Softmax, 6, 100, 64),
                        2.0 * 6 * 100 * 100 * 64);
    ADALA_COMPARE_EXACT(attention_kernel_macs(AttentionMode::Linear, 6, 100, 64),
                        2.0 * 6 * 100 * 64 * 65);
  }
};

ADALA_TEST_GUILESS_MAIN(TestFlops)
}  // namespace test_flops

#include "test_flops.moc"
