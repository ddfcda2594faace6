// The fused linear-attention autograd kernel against the batched formula (linear_attention)
// under autograd: its value and every input's gradient, in float64 and float32, and what it
// allocates.
#include <torch/torch.h>

#include <cmath>
#include <set>

#include <QtTest/QtTest>

#include "engine/measure/peak_memory.h"
#include "engine/model/attention.h"
#include "engine/kernels/attention_ops.h"
#include "engine/kernels/linear_attention_autograd.h"
#include "engine/kernels/linear_attention_rows.h"
#include "engine/kernels/linear_training_kernel.h"
#include "engine/kernels/row_major_gemm.h"
#include "engine/kernels/softmax_attention_heads.h"
#include "tests/support/linear_attention_grads.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_linear_attention_autograd {

using namespace adala;
using namespace adala_test;  // rel_error and the kernel comparisons

namespace {

AttentionKernel fused(double eps, int64_t block_rows = kLinearAttentionAutogradBlockRows) {
  return [=](const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v) {
    return linear_attention_autograd(q, k, v, eps, block_rows);
  };
}

void add_shape_rows() {
  QTest::addColumn<int64_t>("batch");
  QTest::addColumn<int64_t>("heads");
  QTest::addColumn<int64_t>("tokens");
  QTest::addColumn<int64_t>("head_dim");
  QTest::addColumn<int64_t>("value_dim");
  QTest::addColumn<int64_t>("block_rows");
  QTest::addColumn<double>("eps");
  const int64_t def = kLinearAttentionAutogradBlockRows;
  // One (batch, head) pair runs on the calling thread; more run head-parallel. With one token
  // the output is v * s / (s + eps): q and k move it through eps alone, so a tiny eps would
  // leave gradients that are all rounding noise.
  QTest::newRow("N=1, one head, eps=0.5") << 1L << 1L << 1L << 8L << 8L << def << 0.5;
  QTest::newRow("N=7, blocks of 3") << 2L << 3L << 7L << 16L << 16L << 3L << 1e-6;
  QTest::newRow("N=197, d=64 (vit 224^2)") << 1L << 6L << 197L << 64L << 64L << def << 1e-6;
  QTest::newRow("N=513, dv != d, eps=3") << 2L << 2L << 513L << 16L << 24L << def << 3.0;
  QTest::newRow("N=1025, d=8, one head") << 1L << 1L << 1025L << 8L << 8L << def << 1e-6;
  QTest::newRow("N=4099, d=32, blocks + rest") << 1L << 3L << 4099L << 32L << 32L << def << 1e-6;
  QTest::newRow("N=5000, d=24") << 1L << 2L << 5000L << 24L << 24L << 1000L << 1e-6;
}

void compare_with_batched(torch::ScalarType type, double tolerance) {
  QFETCH(int64_t, batch);
  QFETCH(int64_t, heads);
  QFETCH(int64_t, tokens);
  QFETCH(int64_t, head_dim);
  QFETCH(int64_t, value_dim);
  QFETCH(int64_t, block_rows);
  QFETCH(double, eps);
  auto opts = torch::TensorOptions().dtype(type);
  auto q = torch::randn({batch, heads, tokens, head_dim}, opts);
  auto k = torch::randn({batch, heads, tokens, head_dim}, opts);
  auto v = torch::randn({batch, heads, tokens, value_dim}, opts);
  auto w = torch::randn({batch, heads, tokens, value_dim}, opts);
  const auto ours = run_with_grads(fused(eps, block_rows), q, k, v, w);
  const auto ref = run_with_grads(batched_formula(eps), q, k, v, w);
  QCOMPARE(ours.out.scalar_type(), type);
  QCOMPARE(ours.dq.scalar_type(), type);
  QCOMPARE(ours.out.sizes(), ref.out.sizes());
  QCOMPARE(ours.dv.sizes(), v.sizes());
  QString detail;
  const double err = worst_error(ours, ref, &detail);
  QVERIFY2(err < tolerance, qPrintable(detail));
}

}  // namespace

class TestLinearAttentionAutograd : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(1234); }

  void float64_matches_batched_formula_data() { add_shape_rows(); }
  void float64_matches_batched_formula() { compare_with_batched(torch::kDouble, 1e-8); }

  void float32_matches_batched_formula_data() { add_shape_rows(); }
  void float32_matches_batched_formula() { compare_with_batched(torch::kFloat, 1e-5); }

  void gradients_match_finite_differences() {
    // Independent of the batched formula's autograd: central differences of a scalar loss.
    const double eps = 0.5;
    auto opts = torch::TensorOptions().dtype(torch::kDouble);
    auto q = torch::randn({1, 2, 5, 3}, opts), k = torch::randn({1, 2, 5, 3}, opts),
         v = torch::randn({1, 2, 5, 3}, opts), w = torch::randn({1, 2, 5, 3}, opts);
    const auto ours = run_with_grads(fused(eps, 2), q, k, v, w);
    auto loss = [&](const torch::Tensor& qq, const torch::Tensor& kk, const torch::Tensor& vv) {
      return (linear_attention_autograd(qq, kk, vv, eps, 2) * w).sum().item<double>();
    };
    const double h = 1e-6;
    const torch::Tensor* inputs[3] = {&q, &k, &v};
    const torch::Tensor* grads[3] = {&ours.dq, &ours.dk, &ours.dv};
    for (int which = 0; which < 3; ++which) {
      auto numeric = torch::zeros_like(q);
      for (int64_t i = 0; i < q.numel(); ++i) {
        torch::Tensor moved[3] = {q.clone(), k.clone(), v.clone()};
        moved[which].view(-1)[i] += h;
        const double up = loss(moved[0], moved[1], moved[2]);
        moved[which].view(-1)[i] -= 2 * h;
        const double down = loss(moved[0], moved[1], moved[2]);
        numeric.view(-1)[i] = (up - down) / (2 * h);
      }
      (void)inputs;
      const double err = rel_error(*grads[which], numeric);
      QVERIFY2(err < 1e-7, qPrintable(QString("input %1: rel err %2").arg(which).arg(err)));
    }
  }

  void eps_enters_the_backward() {
    // Small normalisers (very negative q, k: phi near 0) so that eps changes the gradients.
    auto opts = torch::TensorOptions().dtype(torch::kDouble);
    auto q = torch::randn({1, 2, 9, 4}, opts) - 3, k = torch::randn({1, 2, 9, 4}, opts) - 3;
    auto v = torch::randn({1, 2, 9, 4}, opts), w = torch::randn({1, 2, 9, 4}, opts);
    const auto small = run_with_grads(fused(1e-6, 4), q, k, v, w);
    const auto large = run_with_grads(fused(0.05, 4), q, k, v, w);
    QString detail;
    // The test is not vacuous: eps changes every gradient...
    QVERIFY(rel_error(large.dq, small.dq) > 0.1);
    QVERIFY(rel_error(large.dk, small.dk) > 0.1);
    QVERIFY(rel_error(large.dv, small.dv) > 0.1);
    // ...and the kernel's gradients follow the formula with that eps.
    QVERIFY2(worst_error(large, run_with_grads(batched_formula(0.05), q, k, v, w), &detail) < 1e-8,
             qPrintable(detail));
    QVERIFY2(worst_error(small, run_with_grads(batched_formula(1e-6), q, k, v, w), &detail) < 1e-8,
             qPrintable(detail));
  }

  void non_contiguous_inputs_and_gradient() {
    const int64_t b = 2, heads = 3, n = 301, d = 16;
    auto opts = torch::TensorOptions().dtype(torch::kDouble);
    // q, k, v as the model makes them: permuted views into one (B, N, 3 * H * d) projection.
    auto h = split_heads(torch::randn({b, n, 3 * heads * d}, opts), heads);
    QVERIFY(!h.q.is_contiguous());
    QCOMPARE(h.q.stride(3), int64_t(1));
    // And a q whose rows are not even unit-stride: the transpose of a (B, H, d, N) tensor.
    auto q_t = torch::randn({b, heads, d, n}, opts).transpose(2, 3);
    QVERIFY(q_t.stride(3) != 1);
    // The output's gradient arrives transposed too.
    auto w = torch::randn({b, n, heads, d}, opts).transpose(1, 2);
    QVERIFY(!w.is_contiguous());
    QString detail;
    for (const auto& q : {h.q, q_t}) {
      const auto ours = run_with_grads(fused(1e-6, 64), q, h.k, h.v, w);
      const auto ref = run_with_grads(batched_formula(1e-6), q, h.k, h.v, w);
      QVERIFY2(worst_error(ours, ref, &detail) < 1e-8, qPrintable(detail));
    }
    // A gradient that is one value broadcast everywhere (the backward of out.sum()).
    auto qg = h.q.detach().requires_grad_();
    linear_attention_autograd(qg, h.k, h.v, 1e-6).sum().backward();
    auto qr = h.q.detach().requires_grad_();
    linear_attention(qr, h.k, h.v, 1e-6).sum().backward();
    QVERIFY2(rel_error(qg.grad(), qr.grad()) < 1e-8, "out.sum()");
  }

  void half_inputs_computed_in_float32() {
    auto q = torch::randn({1, 2, 33, 8}).to(torch::kHalf),
         k = torch::randn({1, 2, 33, 8}).to(torch::kHalf);
    auto v = torch::randn({1, 2, 33, 8}).to(torch::kHalf);
    auto out = linear_attention_autograd(q, k, v, 1e-6);
    QCOMPARE(out.scalar_type(), torch::kHalf);
    QVERIFY(rel_error(out, linear_attention(q, k, v, 1e-6)) < 2e-3);
  }

  void shape_errors_name_the_shapes() {
    auto q = torch::randn({1, 2, 5, 4}), v = torch::randn({1, 2, 6, 4});
    try {
      linear_attention_autograd(q, q, v, 1e-6);
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("v (1, 2, 6, 4)"), e.what());
    }
    QVERIFY_EXCEPTION_THROWN(linear_attention_autograd(q, q, q, 1e-6, 0), std::invalid_argument);
  }

  void module_trains_through_the_fused_kernel() {
    // The module's training path gives the batched formula's gradients for its weights.
    LinearAttention attn(48, 4, true, 1e-6);
    auto x = torch::randn({2, 65, 48});
    auto w = torch::randn({2, 65, 48});
    auto out = attn->forward(x);
    auto fused_grads = torch::autograd::grad({(out * w).sum()}, {attn->qkv->weight});
    auto h = attn->project(x);
    auto ref = attn->proj->forward(merge_heads(linear_attention(h.q, h.k, h.v, 1e-6)));
    auto ref_grads = torch::autograd::grad({(ref * w).sum()}, {attn->qkv->weight});
    QVERIFY(rel_error(out, ref) < 1e-5);
    QVERIFY(rel_error(fused_grads[0], ref_grads[0]) < 1e-5);
  }

  // The kernel's products: every transpose pair, alpha and beta (beta = 0 over a C of NaN),
  // padded row strides, an empty inner dimension; through CBLAS (row_major_gemm) and the at::mm
  // fallback, float and double.
  void row_major_gemm_matches_mm() {
    qInfo("products through %s", row_major_gemm_uses_cblas() ? "CBLAS" : "at::mm");
    const int64_t m = 7, n = 5, pad = 3;
    for (const int64_t k : {int64_t(4), int64_t(0)})
      for (const bool ta : {false, true})
        for (const bool tb : {false, true})
          for (const double alpha : {1.0, -2.0})
            for (const double beta : {0.0, 1.0, 0.5})
              for (const auto type : {torch::kFloat, torch::kDouble})
                for (const bool aten : {false, true}) {
                  if (aten && type == torch::kDouble) continue;
                  // Stored with padded rows; op(A) is m x k, op(B) is k x n.
                  auto a_store = torch::randn({ta ? k : m, (ta ? m : k) + pad}, type);
                  auto b_store = torch::randn({tb ? n : k, (tb ? k : n) + pad}, type);
                  auto c_store = torch::randn({m, n + pad}, type);
                  auto a = a_store.narrow(1, 0, ta ? m : k), b = b_store.narrow(1, 0, tb ? k : n);
                  auto op_a = ta ? a.t() : a, op_b = tb ? b.t() : b;
                  // With beta = 0, C's old values are not read: NaN there must not leak.
                  // beta is one of the literals above: exactly 0 is the case meant.
                  const bool beta_zero = std::fpclassify(beta) == FP_ZERO;
                  if (beta_zero) c_store.narrow(1, 0, n).fill_(NAN);
                  auto c_before = c_store.narrow(1, 0, n).clone();
                  auto padding_before = c_store.narrow(1, n, pad).clone();
                  auto expected = alpha * torch::mm(op_a, op_b);
                  if (!beta_zero) expected = expected + beta * c_before;
                  const int64_t lda = a_store.size(1), ldb = b_store.size(1);
                  const int64_t ldc = c_store.size(1);
                  if (type == torch::kDouble)
                    row_major_gemm(ta, tb, m, n, k, alpha, a_store.data_ptr<double>(), lda,
                                   b_store.data_ptr<double>(), ldb, beta,
                                   c_store.data_ptr<double>(), ldc);
                  else if (aten)
                    row_major_gemm_through_aten(ta, tb, m, n, k, float(alpha),
                                                a_store.data_ptr<float>(), lda,
                                                b_store.data_ptr<float>(), ldb, float(beta),
                                                c_store.data_ptr<float>(), ldc);
                  else
                    row_major_gemm(ta, tb, m, n, k, float(alpha), a_store.data_ptr<float>(), lda,
                                   b_store.data_ptr<float>(), ldb, float(beta),
                                   c_store.data_ptr<float>(), ldc);
                  const double err = rel_error(c_store.narrow(1, 0, n), expected);
                  QVERIFY2(err < (type == torch::kDouble ? 1e-14 : 1e-6),
                           qPrintable(QString("k %1 ta %2 tb %3 alpha %4 beta %5 %6%7: %8")
                                          .arg(k)
                                          .arg(ta)
                                          .arg(tb)
                                          .arg(alpha)
                                          .arg(beta)
                                          .arg(type == torch::kDouble ? "double" : "float")
                                          .arg(aten ? " (at::mm)" : "")
                                          .arg(err)));
                  // The padding beyond each row is left alone.
                  QVERIFY(torch::equal(c_store.narrow(1, n, pad), padding_before));
                }
  }

  // --linear-kernel batched: the module trains through the batched formula (no fused node in
  // its graph) with the same value and gradients; the switch is process-wide and reversible.
  void the_batched_formula_can_be_selected_for_training() {
    QCOMPARE(linear_training_kernel(), LinearTrainingKernel::Fused);
    const auto run = train_fused_and("batched");
    QVERIFY(has_node(graph_nodes(run.fused_out), "LinearAttentionFunction"));
    const auto batched_nodes = graph_nodes(run.out);
    std::string batched_names;
    for (const auto& name : batched_nodes) batched_names += name + ";";
    QVERIFY2(!has_node(batched_nodes, "LinearAttentionFunction"), batched_names.c_str());
    QVERIFY(rel_error(run.out, run.fused_out) < 1e-5);
    QVERIFY(rel_error(run.grad, run.fused_grad) < 1e-5);
    QCOMPARE(QString(linear_training_kernel_name(LinearTrainingKernel::Batched)),
             QString("batched"));
    try {
      parse_linear_training_kernel("blocked");
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()),
               QString("linear training kernel \"blocked\": use fused (the default), batched or "
                       "padded"));
    }
  }

  // The teacher's no-grad softmax kernel against the formula: row blocks and their rest,
  // N = 1, strided heads as split_heads makes them, dv != d; and a model forward under the
  // scope against one without it.
  void softmax_heads_match_the_formula() {
    struct Case {
      int64_t b, h, n, d, dv, block;
    };
    for (const Case c : {Case{1, 1, 1, 8, 8, 128}, Case{3, 4, 50, 16, 16, 128},
                         Case{2, 3, 197, 32, 24, 64}, Case{1, 2, 300, 8, 8, 7}}) {
      auto qkv = torch::randn({c.b, c.n, 3, c.h, c.d}) * 2;
      auto q = qkv.select(2, 0).transpose(1, 2), k = qkv.select(2, 1).transpose(1, 2);
      auto v = torch::randn({c.b, c.h, c.n, c.dv});
      const double scale = 1.0 / std::sqrt(double(c.d));
      auto ours = softmax_attention_heads(q, k, v, scale, c.block);
      auto ref = softmax_attention(q.to(torch::kDouble), k.to(torch::kDouble), v.to(torch::kDouble),
                                   scale);
      QCOMPARE(ours.sizes(), ref.sizes());
      QVERIFY2(rel_error(ours, ref) < 1e-5,
               qPrintable(QString("N=%1: %2").arg(c.n).arg(rel_error(ours, ref))));
    }
    QVERIFY_EXCEPTION_THROWN(
        softmax_attention_heads(torch::randn({1, 1, 4, 4}).to(torch::kDouble),
                                torch::randn({1, 1, 4, 4}), torch::randn({1, 1, 4, 4}), 1.0),
        std::invalid_argument);
    Attention attn(48, 4, true, 1e-6);
    attn->set_mode(AttentionMode::Softmax);
    auto x = torch::randn({3, 37, 48});
    torch::NoGradGuard no_grad;
    const auto plain = attn->forward(x);
    QVERIFY(!SoftmaxHeadsScope::active());
    torch::Tensor scoped;
    {
      const SoftmaxHeadsScope scope;
      QVERIFY(SoftmaxHeadsScope::active());
      scoped = attn->forward(x);
    }
    QVERIFY(!SoftmaxHeadsScope::active());
    QVERIFY(rel_error(scoped, plain) < 1e-5);
    QVERIFY(!torch::equal(scoped, plain));  // the other kernel ran
  }

  // The queries' gradient pass: its values against the formula in double precision, and its
  // streamed rows bit for bit equal to ordinarily stored ones. Rows of 70 floats (a chunk of 64,
  // then one of 6: a store of 4 and a tail of 2) at a stride of 80, as one head's rows in a
  // token-major output; the destination 16-byte aligned (streamed) and one float off (ordinary
  // stores, the fallback).
  void streamed_outputs_equal_stored_ones() {
    const int64_t rows = 37, cols = 70, stride = 80, value_cols = 5;
    auto p_in = torch::randn({rows, cols}), phi = torch::rand({rows, cols}) * 2;
    auto z = torch::rand({cols}), inv_den = torch::rand({rows}) + 0.5;
    const auto pd = p_in.to(torch::kDouble), phid = phi.to(torch::kDouble);
    const auto grad_expected = -(phid * pd).sum(1) * inv_den.to(torch::kDouble);
    const auto out_expected =
        (pd + grad_expected.unsqueeze(1) * z.to(torch::kDouble)) * phid.clamp_max(1.0);
    for (int64_t offset : {0, 1}) {
      auto plain = torch::full({rows * stride + 8}, std::nan(""));
      auto streamed = plain.clone();
      float* p = plain.data_ptr<float>() + offset;
      float* t = streamed.data_ptr<float>() + offset;
      QCOMPARE(reinterpret_cast<uintptr_t>(t) % 16, uintptr_t(offset == 0 ? 0 : 4));
      auto e_plain = torch::zeros({rows, value_cols + 1}), e_streamed = e_plain.clone();
      query_gradient_rows(phi.data_ptr<float>(), cols, p_in.data_ptr<float>(), cols,
                          inv_den.data_ptr<float>(), z.data_ptr<float>(), e_plain.data_ptr<float>(),
                          value_cols + 1, p, stride, rows, cols, value_cols, false);
      query_gradient_rows(phi.data_ptr<float>(), cols, p_in.data_ptr<float>(), cols,
                          inv_den.data_ptr<float>(), z.data_ptr<float>(),
                          e_streamed.data_ptr<float>(), value_cols + 1, t, stride, rows, cols,
                          value_cols, true);
      // Bit for bit (the untouched NaN gaps included).
      QVERIFY(torch::equal(plain.view(torch::kInt), streamed.view(torch::kInt)));
      QVERIFY(torch::equal(e_plain, e_streamed));
      // Every row's first cols entries were written, the rest of the stride untouched.
      auto rows_view = streamed.narrow(0, offset, rows * stride).view({rows, stride});
      QVERIFY(torch::isnan(rows_view.narrow(1, cols, stride - cols)).all().item<bool>());
      QVERIFY(rel_error(rows_view.narrow(1, 0, cols), out_expected) < 1e-6);
      QVERIFY(rel_error(e_plain.select(1, value_cols), grad_expected) < 1e-6);
      QVERIFY(torch::equal(e_plain.narrow(1, 0, value_cols), torch::zeros({rows, value_cols})));
    }
  }

  void no_n_by_n_or_n_by_d_intermediates_at_16k_tokens() {
    const int64_t heads = 4, n = 16384, d = 32;
    const int64_t unit = heads * n * d * 4;  // one (1, H, N, d) float32 tensor: 8 MiB
    const int64_t n_by_n = n * n * 4;        // one N x N float32 matrix: 1 GiB
    auto q = torch::randn({1, heads, n, d}).requires_grad_();
    auto k = torch::randn({1, heads, n, d}).requires_grad_();
    auto v = torch::randn({1, heads, n, d}).requires_grad_();
    auto w = torch::randn({1, heads, n, d});
    int64_t forward_peak = 0, total_peak = 0;
    KernelGrads ours;
    {
      AllocatorPeakTracker tracker;
      {
        auto out = linear_attention_autograd(q, k, v, 1e-6);
        forward_peak = tracker.peak_bytes();
        auto grads = torch::autograd::grad({(out * w).sum()}, {q, k, v});
        total_peak = tracker.peak_bytes();
        QCOMPARE(grads[2].sizes(), v.sizes());
        ours = {out.detach(), grads[0], grads[1], grads[2]};
      }
    }
    // Outputs of 4 MiB and more are written with non-temporal stores: these (8 MiB) are.
    QString detail;
    const double err =
        worst_error(ours, run_with_grads(batched_formula(1e-6), q, k, v, w), &detail);
    QVERIFY2(err < 1e-5, qPrintable(detail));
    qInfo("N=%lld: allocator peak %.1f MiB forward, %.1f MiB forward + backward (unit %.1f MiB)",
          (long long)n, forward_peak / double(1 << 20), total_peak / double(1 << 20),
          unit / double(1 << 20));
    // The forward holds the output, the (d x d+1) states and per-thread row buffers; the
    // batched formula would hold about five (N x d+1) intermediates per head on top.
    const int64_t buffers = 4 << 20;
    QVERIFY2(forward_peak <= unit + buffers,
             qPrintable(QString("forward peak %1 MiB").arg(forward_peak / double(1 << 20))));
    // Forward and backward: output, its product with w and its gradient, the three input
    // gradients, and the transients of autograd's bookkeeping; far below one N x N matrix.
    QVERIFY2(total_peak <= 8 * unit + buffers && total_peak < n_by_n / 8,
             qPrintable(QString("peak %1 MiB").arg(total_peak / double(1 << 20))));
  }
};

ADALA_TEST_GUILESS_MAIN(TestLinearAttentionAutograd)
}  // namespace test_linear_attention_autograd

#include "test_linear_attention_autograd.moc"
