// The padded linear-attention form (linear_attention_padded.h, CUDA's training path) against
// the batched formula (linear_attention) under autograd: value and every input's gradient in
// float64 (tight) and float32, on strided heads as split_heads makes them; under bf16 autocast
// it computes in float32 (the result is the float32 computation on the bf16-rounded inputs);
// its autograd graph is smaller than the batched formula's; the model selects it with
// --linear-kernel padded. On a CUDA machine the same comparisons run on the GPU, and the fused
// kernel's CUDA fallback is this form.
#include <torch/torch.h>

#include <functional>
#include <set>

#include <QtTest/QtTest>

#include "engine/model/attention.h"
#include "engine/kernels/attention_ops.h"
#include "engine/kernels/linear_attention_autograd.h"
#include "engine/kernels/linear_attention_blocked.h"
#include "engine/kernels/linear_attention_padded.h"
#include "engine/kernels/linear_training_kernel.h"
#include "engine/runtime/precision.h"
#include "tests/support/linear_attention_grads.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_linear_attention_padded {

using namespace adala;
using namespace adala_test;  // rel_error and the kernel comparisons

namespace {

AttentionKernel padded(double eps) {
  return [=](const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v) {
    return linear_attention_padded(q, k, v, eps);
  };
}

// q, k, v as split_heads leaves them: (B, H, N, d) views into one (B, N, 3 * H * d) tensor.
struct Heads {
  torch::Tensor q, k, v;
};
Heads strided_heads(int64_t b, int64_t h, int64_t n, int64_t d, torch::ScalarType type,
                    const torch::Device& device) {
  auto qkv = torch::randn({b, n, 3 * h * d}, torch::TensorOptions().dtype(type).device(device));
  auto parts = split_heads(qkv, h);
  return {parts.q, parts.k, parts.v};
}

// The comparisons every device runs: float64 tight, float32, strided heads, dv != d, N = 1.
void compare_with_the_batched_formula(const torch::Device& device) {
  const auto f64 = torch::TensorOptions().dtype(torch::kDouble).device(device);
  struct Shape {
    int64_t b, h, n, d, dv;
  };
  for (const Shape s : {Shape{2, 3, 17, 8, 8}, Shape{1, 2, 1, 4, 4}, Shape{2, 2, 65, 16, 5}}) {
    auto q = torch::randn({s.b, s.h, s.n, s.d}, f64), k = torch::randn({s.b, s.h, s.n, s.d}, f64);
    auto v = torch::randn({s.b, s.h, s.n, s.dv}, f64), w = torch::randn({s.b, s.h, s.n, s.dv}, f64);
    for (const double eps : {1e-6, 1e-2}) {
      QString detail;
      const double err64 = worst_error(run_with_grads(padded(eps), q, k, v, w),
                                       run_with_grads(batched_formula(eps), q, k, v, w), &detail);
      // At N = 1 the output is v * a / (a + eps): q's gradient is eps-sized and both forms
      // reach it through a cancellation.
      const double tight = s.n == 1 ? 1e-8 : 1e-12;
      QVERIFY2(err64 < tight, qPrintable(QString("float64 N=%1: %2").arg(s.n).arg(detail)));
      if (s.n == 1) continue;  // in float32 those gradients are all rounding
      const KernelGrads ref =
          run_with_grads(batched_formula(eps), q, k, v, w);  // float64 reference
      const double err32 =
          worst_error(run_with_grads(padded(eps), q.to(torch::kFloat), k.to(torch::kFloat),
                                     v.to(torch::kFloat), w.to(torch::kFloat)),
                      ref, &detail);
      QVERIFY2(err32 < 2e-5, qPrintable(QString("float32 N=%1: %2").arg(s.n).arg(detail)));
    }
  }
  // Strided heads (views of one qkv tensor), float32: the same as on contiguous copies.
  const Heads h = strided_heads(2, 4, 33, 16, torch::kFloat, device);
  QVERIFY(!h.q.is_contiguous());
  auto w = torch::randn({2, 4, 33, 16}, torch::TensorOptions().device(device));
  QString detail;
  const double err = worst_error(run_with_grads(padded(1e-6), h.q, h.k, h.v, w),
                                 run_with_grads(batched_formula(1e-6), h.q.contiguous(),
                                                h.k.contiguous(), h.v.contiguous(), w),
                                 &detail);
  QVERIFY2(err < 1e-5, qPrintable("strided heads: " + detail));
}

}  // namespace

class TestLinearAttentionPadded : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(3); }

  void equals_the_batched_formula_with_gradients() {
    compare_with_the_batched_formula(torch::kCPU);
  }

  // Inputs must be (..., N, d), (..., N, d), (..., N, dv); leading dimensions other than
  // (B, H) work too, and without gradients no graph is built.
  void shapes_and_no_grad() {
    auto q = torch::randn({5, 7, 4}), k = torch::randn({5, 7, 4}), v = torch::randn({5, 7, 3});
    const auto reference =
        linear_attention(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0), 1e-6).squeeze(0);
    QVERIFY(rel_error(linear_attention_padded(q, k, v, 1e-6), reference) < 1e-6);
    QVERIFY_EXCEPTION_THROWN(linear_attention_padded(q, k.narrow(1, 0, 6), v, 1e-6),
                             std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(linear_attention_padded(q, k, v.narrow(1, 0, 6), 1e-6),
                             std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(linear_attention_padded(q[0], k[0], v[0].unsqueeze(0), 1e-6),
                             std::invalid_argument);
    c10::InferenceMode inference;
    auto out = linear_attention_padded(q, k, v, 1e-6);
    QVERIFY(!out.requires_grad());
  }

  // Under bf16 autocast the form computes in float32: its result on bf16 inputs is the float32
  // computation on those (bf16-rounded) values, to float32 rounding, and it stays within the
  // inputs' bf16 rounding of the float32 computation on the unrounded values. A product that
  // accumulated or stored in bf16 would be off by ~1e-2 against the first.
  void bf16_autocast_accumulates_in_float32() {
    const Heads h = strided_heads(2, 3, 200, 16, torch::kFloat, torch::kCPU);
    auto qb = h.q.to(torch::kBFloat16), kb = h.k.to(torch::kBFloat16),
         vb = h.v.to(torch::kBFloat16);
    torch::Tensor under_autocast;
    {
      const AutocastScope autocast(torch::kCPU, Precision::BF16);
      QVERIFY(autocast_active());
      under_autocast = linear_attention_padded(qb, kb, vb, 1e-5);
    }
    QCOMPARE(under_autocast.scalar_type(), torch::kFloat);
    const auto on_rounded = linear_attention_padded(qb.to(torch::kFloat), kb.to(torch::kFloat),
                                                    vb.to(torch::kFloat), 1e-5);
    const double same_computation = rel_error(under_autocast, on_rounded);
    QVERIFY2(same_computation < 1e-6, qPrintable(QString::number(same_computation)));
    const auto exact = linear_attention_padded(h.q.to(torch::kDouble), h.k.to(torch::kDouble),
                                               h.v.to(torch::kDouble), 1e-5);
    const double from_rounding = rel_error(under_autocast, exact);
    QVERIFY2(from_rounding < 2e-2, qPrintable(QString::number(from_rounding)));
    // The same bf16 products outside the float32 region, for scale: far from the float32 one.
    torch::Tensor in_bf16;
    {
      const AutocastScope autocast(torch::kCPU, Precision::BF16);
      auto phi_k = elu_plus_one(kb), phi_q = elu_plus_one(qb);
      auto s = torch::matmul(phi_k.transpose(-2, -1), torch::constant_pad_nd(vb, {0, 1}, 1.0));
      auto nd = torch::matmul(phi_q, s);
      in_bf16 = nd.narrow(-1, 0, 16) / (nd.narrow(-1, 16, 1) + 1e-5);
    }
    QVERIFY2(
        rel_error(in_bf16, on_rounded) > 10 * same_computation,
        qPrintable(QString("%1 vs %2").arg(rel_error(in_bf16, on_rounded)).arg(same_computation)));
    // Gradients flow back to the bf16 inputs in their own type.
    auto qg = qb.detach().requires_grad_(), kg = kb.detach().requires_grad_(),
         vg = vb.detach().requires_grad_();
    torch::Tensor out;
    {
      const AutocastScope autocast(torch::kCPU, Precision::BF16);
      out = linear_attention_padded(qg, kg, vg, 1e-5);
    }
    const auto grads = torch::autograd::grad({out.sum()}, {qg, kg, vg});
    for (const auto& g : grads) QCOMPARE(g.scalar_type(), torch::kBFloat16);
  }

  // Fewer autograd nodes than the batched formula, phi as one node per input.
  void its_graph_is_smaller_than_the_batched_formulas() {
    const Heads h = strided_heads(1, 2, 9, 8, torch::kFloat, torch::kCPU);
    auto q = h.q.detach().requires_grad_(), k = h.k.detach().requires_grad_(),
         v = h.v.detach().requires_grad_();
    const auto padded_nodes = graph_nodes(linear_attention_padded(q, k, v, 1e-6));
    const auto batched_nodes = graph_nodes(linear_attention(q, k, v, 1e-6));
    QVERIFY2(padded_nodes.size() < batched_nodes.size(),
             qPrintable(QString("%1 vs %2").arg(padded_nodes.size()).arg(batched_nodes.size())));
    QVERIFY(has_node(padded_nodes, "PhiFunction"));
    QVERIFY(has_node(padded_nodes, "BmmBackward"));
  }

  // --linear-kernel padded: the module trains through the padded form, same value and gradient.
  void the_model_selects_it_with_linear_kernel_padded() {
    QCOMPARE(linear_training_kernel(), LinearTrainingKernel::Fused);
    const auto run = train_fused_and("padded");
    QVERIFY(has_node(graph_nodes(run.out), "PhiFunction"));
    QVERIFY(!has_node(graph_nodes(run.out), "LinearAttentionFunction"));
    QVERIFY(rel_error(run.out, run.fused_out) < 1e-5);
    QVERIFY(rel_error(run.grad, run.fused_grad) < 1e-5);
    QCOMPARE(QString(linear_training_kernel_name(LinearTrainingKernel::Padded)), QString("padded"));
  }

  // On a GPU: the same comparisons on CUDA tensors; the fused kernel's and the blocked
  // kernel's CUDA fallback is this form; bf16 autocast on CUDA computes in float32 too.
  void on_cuda() {
    if (!torch::cuda::is_available()) QSKIP("no CUDA device");
    const torch::Device cuda(torch::kCUDA, 0);
    compare_with_the_batched_formula(cuda);
    const Heads h = strided_heads(2, 4, 300, 32, torch::kFloat, cuda);
    auto w = torch::randn({2, 4, 300, 32}, torch::TensorOptions().device(cuda));
    QString detail;
    const auto fused_fallback = [](const torch::Tensor& q, const torch::Tensor& k,
                                   const torch::Tensor& v) {
      return linear_attention_autograd(q, k, v, 1e-6);
    };
    QVERIFY2(worst_error(run_with_grads(fused_fallback, h.q, h.k, h.v, w),
                         run_with_grads(batched_formula(1e-6), h.q, h.k, h.v, w), &detail) < 1e-5,
             qPrintable(detail));
    {
      c10::InferenceMode inference;
      QVERIFY(rel_error(linear_attention_blocked(h.q, h.k, h.v, 1e-6),
                        linear_attention(h.q, h.k, h.v, 1e-6)) < 1e-5);
    }
    auto qb = h.q.to(torch::kBFloat16), kb = h.k.to(torch::kBFloat16),
         vb = h.v.to(torch::kBFloat16);
    torch::Tensor under_autocast;
    {
      const AutocastScope autocast(cuda, Precision::BF16);
      under_autocast = linear_attention_padded(qb, kb, vb, 1e-5);
    }
    QCOMPARE(under_autocast.scalar_type(), torch::kFloat);
    const auto on_rounded = linear_attention_padded(qb.to(torch::kFloat), kb.to(torch::kFloat),
                                                    vb.to(torch::kFloat), 1e-5);
    QVERIFY2(rel_error(under_autocast, on_rounded) < 1e-6,
             qPrintable(QString::number(rel_error(under_autocast, on_rounded))));
  }
};

ADALA_TEST_GUILESS_MAIN(TestLinearAttentionPadded)
}  // namespace test_linear_attention_padded

#include "test_linear_attention_padded.moc"
