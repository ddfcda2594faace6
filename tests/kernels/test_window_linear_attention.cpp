// Local-window softmax + linear attention (window_linear_attention.h) against the quadratic
// form written out with an N x N window mask: the value and the gradients of q, k, phi(q),
// phi(k), v and the per-head linear factor, in float64 over grids, windows and prefix tokens;
// the limits (a window over the whole grid is softmax attention, a 1 x 1 window without prefix
// tokens is the query's own key and linear attention over the rest); float32 against the
// float64 reference (and at N = 16385 against the float64 kernel); autocast; the cost counts;
// the bench row; the argument checks.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <limits>
#include <vector>

#include "engine/bench/attention_bench.h"
#include "engine/kernels/attention_ops.h"
#include "engine/runtime/precision.h"
#include "engine/kernels/window_linear_attention.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_window_linear_attention {

using namespace adala;
using adala_test::rel_error;

namespace {

const auto kDouble = torch::TensorOptions().dtype(torch::kDouble);

// The window written from its definition, pair by pair: prefix tokens are in every window and
// every token is in a prefix token's window; patches (y, x), (y', x') are in each other's
// window when |y - y'| <= r and |x - x'| <= r, r = (window - 1) / 2.
torch::Tensor window_mask(const WindowLinearAttentionOptions& o) {
  const int64_t p = o.prefix_tokens, n = p + o.grid_height * o.grid_width;
  const int64_t r = (o.window - 1) / 2;
  auto mask = torch::zeros({n, n}, torch::kBool);
  auto m = mask.accessor<bool, 2>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (i < p || j < p) {
        m[i][j] = true;
        continue;
      }
      const int64_t yi = (i - p) / o.grid_width, xi = (i - p) % o.grid_width;
      const int64_t yj = (j - p) / o.grid_width, xj = (j - p) % o.grid_width;
      m[i][j] = std::abs(yi - yj) <= r && std::abs(xi - xj) <= r;
    }
  return mask;
}

// Every weight formed: exp(s - m) in the window (m its maximum), gamma phi(q) . phi(k) outside,
// one normaliser.
torch::Tensor quadratic_reference(const torch::Tensor& q, const torch::Tensor& k,
                                  const torch::Tensor& pq, const torch::Tensor& pk,
                                  const torch::Tensor& v, const torch::Tensor& gamma,
                                  const torch::Tensor& mask, double scale) {
  auto s = torch::matmul(q, k.transpose(-2, -1)) * scale;
  auto masked = s.masked_fill(~mask, -std::numeric_limits<double>::infinity());
  auto e = torch::exp(masked - masked.amax(-1, true));
  auto l =
      torch::matmul(pq, pk.transpose(-2, -1)).masked_fill(mask, 0.0) * gamma.view({1, -1, 1, 1});
  auto w = e + l;
  return torch::matmul(w, v) / w.sum(-1, true);
}

struct Inputs {
  torch::Tensor q, k, pq, pk, v, gamma, w;  // w: the output gradient's weights
};

// q, k, v ~ N(0, 1); phi(q), phi(k) positive and sized so that the window's and the linear
// weights both count (a linear weight is about F / (4 F^2), the window's at most 1); gamma in
// [0.5, 2].
Inputs make_inputs(int64_t batch, int64_t heads, int64_t n, int64_t d, int64_t f, int64_t dv,
                   uint64_t seed) {
  torch::manual_seed(seed);
  Inputs in;
  in.q = torch::randn({batch, heads, n, d}, kDouble);
  in.k = torch::randn({batch, heads, n, d}, kDouble);
  in.pq = torch::rand({batch, heads, n, f}, kDouble) / double(f);
  in.pk = torch::rand({batch, heads, n, f}, kDouble) * 2.0;
  in.v = torch::randn({batch, heads, n, dv}, kDouble);
  in.gamma = 0.5 + 1.5 * torch::rand({heads}, kDouble);
  in.w = torch::randn({batch, heads, n, dv}, kDouble);
  return in;
}

struct Result {
  torch::Tensor out, dq, dk, dpq, dpk, dv, dgamma;
};

// The output and the gradients of sum(out * w); with_gamma false: no linear factor (gamma 1).
template <typename Fn>
Result run(const Fn& fn, const Inputs& in, bool with_gamma, torch::ScalarType type) {
  auto leaf = [&](const torch::Tensor& t) { return t.detach().to(type).requires_grad_(); };
  auto q = leaf(in.q), k = leaf(in.k), pq = leaf(in.pq), pk = leaf(in.pk), v = leaf(in.v);
  auto gamma = with_gamma ? leaf(in.gamma) : torch::Tensor();
  auto out = fn(q, k, pq, pk, v, gamma);
  std::vector<torch::Tensor> wrt{q, k, pq, pk, v};
  if (with_gamma) wrt.push_back(gamma);
  // allow_unused: a softmax reference leaves phi(q) and phi(k) out.
  auto g = torch::autograd::grad({(out * in.w.to(type)).sum()}, wrt, {}, {}, false, true);
  Result r{out.detach(), g[0], g[1], g[2], g[3], g[4], with_gamma ? g[5] : torch::Tensor()};
  return r;
}

Result run_kernel(const Inputs& in, const WindowLinearAttentionOptions& o, bool with_gamma,
                  torch::ScalarType type = torch::kDouble) {
  return run([&](auto& q, auto& k, auto& pq, auto& pk, auto& v,
                 auto& gamma) { return window_linear_attention(q, k, pq, pk, v, o, gamma); },
             in, with_gamma, type);
}

Result run_reference(const Inputs& in, const WindowLinearAttentionOptions& o, bool with_gamma) {
  const auto mask = window_mask(o);
  const double scale = 1.0 / std::sqrt(double(in.q.size(3)));
  return run(
      [&](auto& q, auto& k, auto& pq, auto& pk, auto& v, auto& gamma) {
        auto g = gamma.defined() ? gamma : torch::ones({q.size(1)}, kDouble);
        return quadratic_reference(q, k, pq, pk, v, g, mask, scale);
      },
      in, with_gamma, torch::kDouble);
}

double max_abs(const torch::Tensor& a, const torch::Tensor& b) {
  return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

// The largest of the max abs errors, and each of them in `detail`.
double compare(const Result& a, const Result& ref, QString* detail) {
  const std::vector<std::pair<const char*, double>> errs{
      {"out", max_abs(a.out, ref.out)},    {"dq", max_abs(a.dq, ref.dq)},
      {"dk", max_abs(a.dk, ref.dk)},       {"dphi_q", max_abs(a.dpq, ref.dpq)},
      {"dphi_k", max_abs(a.dpk, ref.dpk)}, {"dv", max_abs(a.dv, ref.dv)}};
  double worst = 0;
  *detail = "max abs error:";
  for (const auto& [name, e] : errs) {
    *detail += QString(" %1 %2").arg(name).arg(e, 0, 'e', 2);
    worst = std::max(worst, e);
  }
  if (a.dgamma.defined()) {
    const double e = max_abs(a.dgamma, ref.dgamma);
    *detail += QString(" dgamma %1").arg(e, 0, 'e', 2);
    worst = std::max(worst, e);
  }
  return worst;
}

WindowLinearAttentionOptions options(int64_t gh, int64_t gw, int64_t prefix, int64_t window) {
  WindowLinearAttentionOptions o;
  o.grid_height = gh;
  o.grid_width = gw;
  o.prefix_tokens = prefix;
  o.window = window;
  return o;
}

}  // namespace

class TestWindowLinearAttention : public QObject {
  Q_OBJECT

 private slots:
  void float64_matches_the_quadratic_form_data() {
    QTest::addColumn<int64_t>("batch");
    QTest::addColumn<int64_t>("heads");
    QTest::addColumn<int64_t>("grid_height");
    QTest::addColumn<int64_t>("grid_width");
    QTest::addColumn<int64_t>("prefix");
    QTest::addColumn<int64_t>("window");
    QTest::addColumn<int64_t>("head_dim");
    QTest::addColumn<int64_t>("features");
    QTest::addColumn<int64_t>("value_dim");
    QTest::addColumn<bool>("gamma");
    // features = 2 x head_dim: hedgehog's [softmax(Wx), softmax(-Wx)].
    QTest::newRow("5x7 k=1 no prefix (self only)")
        << 1L << 2L << 5L << 7L << 0L << 1L << 8L << 8L << 8L << true;
    QTest::newRow("5x7 k=1 cls") << 2L << 2L << 5L << 7L << 1L << 1L << 8L << 16L << 8L << true;
    QTest::newRow("5x7 k=3 no prefix")
        << 2L << 3L << 5L << 7L << 0L << 3L << 8L << 8L << 8L << true;
    QTest::newRow("5x7 k=3 cls, gamma 1")
        << 1L << 2L << 5L << 7L << 1L << 3L << 8L << 8L << 8L << false;
    QTest::newRow("5x7 k=5 cls + 4 registers")
        << 1L << 3L << 5L << 7L << 5L << 5L << 8L << 16L << 12L << true;
    QTest::newRow("7x5 k=3 cls") << 1L << 1L << 7L << 5L << 1L << 3L << 16L << 16L << 16L << true;
    QTest::newRow("9x4 k=3 2 prefix") << 2L << 2L << 9L << 4L << 2L << 3L << 8L << 8L << 6L << true;
    QTest::newRow("1x11 k=5 no prefix")
        << 1L << 2L << 1L << 11L << 0L << 5L << 4L << 8L << 4L << true;
    QTest::newRow("5x7 k=7 cls (some windows cover the grid)")
        << 1L << 2L << 5L << 7L << 1L << 7L << 8L << 8L << 8L << true;
    QTest::newRow("3x3 k=5 cls (every window covers the grid)")
        << 1L << 2L << 3L << 3L << 1L << 5L << 8L << 8L << 8L << true;
    QTest::newRow("5x7 k=15 (wider than the grid)")
        << 1L << 2L << 5L << 7L << 0L << 15L << 8L << 8L << 8L << true;
    QTest::newRow("15x13 k=5 cls + 4 registers, d=32")
        << 1L << 3L << 15L << 13L << 5L << 5L << 32L << 64L << 32L << true;
    QTest::newRow("16x16 k=3 cls, 6 heads")
        << 1L << 6L << 16L << 16L << 1L << 3L << 16L << 16L << 16L << true;
  }

  void float64_matches_the_quadratic_form() {
    QFETCH(int64_t, batch);
    QFETCH(int64_t, heads);
    QFETCH(int64_t, grid_height);
    QFETCH(int64_t, grid_width);
    QFETCH(int64_t, prefix);
    QFETCH(int64_t, window);
    QFETCH(int64_t, head_dim);
    QFETCH(int64_t, features);
    QFETCH(int64_t, value_dim);
    QFETCH(bool, gamma);
    const auto o = options(grid_height, grid_width, prefix, window);
    const int64_t n = prefix + grid_height * grid_width;
    const auto in = make_inputs(batch, heads, n, head_dim, features, value_dim, 11);
    const auto ours = run_kernel(in, o, gamma);
    const auto ref = run_reference(in, o, gamma);
    QCOMPARE(ours.out.scalar_type(), torch::kDouble);
    QCOMPARE(ours.out.sizes(), in.v.sizes());
    QString detail;
    const double worst = compare(ours, ref, &detail);
    qInfo("N=%lld: %s", (long long)n, qPrintable(detail));
    QVERIFY2(worst < 1e-12, qPrintable(detail));
    // The reference's values are of order 1: the comparison is not vacuous.
    QVERIFY(ref.out.abs().max().item<double>() > 0.1);
    const bool all_softmax = window >= 2 * std::max(grid_height, grid_width) - 1;
    QVERIFY(all_softmax || ref.dpq.abs().max().item<double>() > 1e-3);
  }

  // Every window covers the grid: softmax attention exactly, no linear term at all.
  void window_over_the_whole_grid_is_softmax_attention() {
    for (int64_t window : {5L, 7L, 21L}) {
      const auto o = options(3, 3, 1, window);
      const auto in = make_inputs(2, 3, 10, 8, 8, 8, 5);
      const auto ours = run_kernel(in, o, true);
      const auto ref = run([&](auto& q, auto& k, auto&, auto&, auto& v,
                               auto&) { return softmax_attention(q, k, v, 1.0 / std::sqrt(8.0)); },
                           in, false, torch::kDouble);
      const double errs[4] = {max_abs(ours.out, ref.out), max_abs(ours.dq, ref.dq),
                              max_abs(ours.dk, ref.dk), max_abs(ours.dv, ref.dv)};
      qInfo(
          "3x3 + cls, k=%lld vs softmax_attention: max abs error out %.2e dq %.2e dk %.2e dv "
          "%.2e",
          (long long)window, errs[0], errs[1], errs[2], errs[3]);
      for (double e : errs) QVERIFY(e < 1e-13);
      // No query has linear terms: the kernel's h_lin is filled with zeros, and phi's and
      // gamma's gradients are products with it (finite values times zero) and no window
      // correction, so exactly 0.
      ADALA_COMPARE_EXACT(ours.dpq.abs().max().item<double>(), 0.0);
      ADALA_COMPARE_EXACT(ours.dpk.abs().max().item<double>(), 0.0);
      ADALA_COMPARE_EXACT(ours.dgamma.abs().max().item<double>(), 0.0);
    }
  }

  // k = 1 without prefix tokens: each query's window is its own key, whose weight is exp(0) = 1
  // whatever q and k are. So out_i = (v_i + gamma sum_{j != i} l_ij v_j) / (1 + gamma sum l_ij)
  // and q, k have no gradient at all.
  void self_only_window_is_linear_attention_plus_own_value() {
    const auto o = options(5, 7, 0, 1);
    const auto in = make_inputs(1, 2, 35, 8, 8, 8, 7);
    const auto ours = run_kernel(in, o, true);
    auto l = torch::matmul(in.pq, in.pk.transpose(-2, -1)) * in.gamma.view({1, -1, 1, 1});
    l = l * (1 - torch::eye(35, kDouble));
    const auto expected = (in.v + torch::matmul(l, in.v)) / (1 + l.sum(-1, true));
    const double err = max_abs(ours.out, expected);
    qInfo("5x7, k=1, no prefix vs v_i + linear attention over the others: max abs error %.2e", err);
    QVERIFY(err < 1e-14);
    // One score per window, its own maximum: the kernel's ds is e c - e c = 0 exactly, and dq,
    // dk start at zero and only gain scale * 0 times finite rows.
    ADALA_COMPARE_EXACT(ours.dq.abs().max().item<double>(), 0.0);
    ADALA_COMPARE_EXACT(ours.dk.abs().max().item<double>(), 0.0);
  }

  // The kernel in float32 (inputs rounded to float32) against the float64 quadratic form of
  // the same rounded values.
  void float32_against_the_float64_reference() {
    struct Case {
      int64_t heads, gh, gw, prefix, window, d;
    };
    for (const Case& c :
         {Case{3, 5, 7, 1, 3, 16}, Case{6, 16, 16, 1, 3, 64}, Case{2, 15, 13, 5, 5, 32}}) {
      const auto o = options(c.gh, c.gw, c.prefix, c.window);
      const int64_t n = c.prefix + c.gh * c.gw;
      auto in = make_inputs(1, c.heads, n, c.d, c.d, c.d, 3);
      for (auto* t : {&in.q, &in.k, &in.pq, &in.pk, &in.v, &in.gamma, &in.w})
        *t = t->to(torch::kFloat).to(torch::kDouble);
      const auto ours = run_kernel(in, o, true, torch::kFloat);
      const auto ref = run_reference(in, o, true);
      QCOMPARE(ours.out.scalar_type(), torch::kFloat);
      QString detail;
      const double worst = compare(ours, ref, &detail);
      const double rel[3] = {rel_error(ours.out, ref.out), rel_error(ours.dq, ref.dq),
                             rel_error(ours.dpk, ref.dpk)};
      qInfo(
          "float32 %lldx%lld+%lld k=%lld H=%lld d=%lld: %s; rel error out %.2e dq %.2e "
          "dphi_k %.2e",
          (long long)c.gh, (long long)c.gw, (long long)c.prefix, (long long)c.window,
          (long long)c.heads, (long long)c.d, qPrintable(detail), rel[0], rel[1], rel[2]);
      QVERIFY2(worst < 1e-4, qPrintable(detail));
      for (double r : rel) QVERIFY(r < 1e-5);
    }
  }

  // At N = 16385 (128 x 128 patches + cls) the linear part is phi(q_i) S over 16384 patches
  // minus a 3 x 3 window's terms: float32 against the same kernel in float64 (validated above
  // against the quadratic form, which is too large to form here).
  void float32_at_large_n_against_float64() {
    const auto o = options(128, 128, 1, 3);
    const auto in = make_inputs(1, 2, 16385, 32, 32, 32, 9);
    auto rounded = in;
    for (auto* t :
         {&rounded.q, &rounded.k, &rounded.pq, &rounded.pk, &rounded.v, &rounded.gamma, &rounded.w})
      *t = t->to(torch::kFloat).to(torch::kDouble);
    const auto ours = run_kernel(rounded, o, true, torch::kFloat);
    const auto ref = run_kernel(rounded, o, true, torch::kDouble);
    QString detail;
    const double worst = compare(ours, ref, &detail);
    const double rel[4] = {rel_error(ours.out, ref.out), rel_error(ours.dq, ref.dq),
                           rel_error(ours.dpq, ref.dpq), rel_error(ours.dgamma, ref.dgamma)};
    qInfo(
        "float32 128x128+1 k=3 H=2 d=32 vs the float64 kernel: %s; rel error out %.2e dq %.2e "
        "dphi_q %.2e dgamma %.2e",
        qPrintable(detail), rel[0], rel[1], rel[2], rel[3]);
    QVERIFY(rel[0] < 1e-5 && rel[1] < 1e-5 && rel[2] < 1e-5);
    // gamma's gradient is one sum per head over 16384 queries of (phi(q_i) S) . h_i less the
    // window's terms: float32 accumulation over that many terms, in an order that depends on the
    // BLAS's threads (1.1e-4 with 2 OpenBLAS threads, 8.8e-5 with one); a wrong term is off by
    // 1e-2 or more.
    QVERIFY2(rel[3] < 5e-4, qPrintable(QString::number(rel[3])));
    QVERIFY2(worst < 1e-5, qPrintable(detail));
  }

  // Under bf16 autocast the kernel still computes in float32: the same values as without.
  void autocast_leaves_the_kernel_in_float32() {
    const auto o = options(5, 7, 1, 3);
    auto in = make_inputs(1, 2, 36, 16, 16, 16, 4);
    auto f = [&](const torch::Tensor& t) { return t.to(torch::kFloat); };
    const auto plain = window_linear_attention(f(in.q), f(in.k), f(in.pq), f(in.pk), f(in.v), o);
    torch::Tensor under_autocast;
    {
      AutocastScope scope(c10::Device(c10::kCPU), Precision::BF16);
      under_autocast = window_linear_attention(f(in.q), f(in.k), f(in.pq), f(in.pk), f(in.v), o);
    }
    QCOMPARE(under_autocast.scalar_type(), torch::kFloat);
    // The same float32 computation on the same inputs in this process: the same bits.
    ADALA_COMPARE_EXACT(max_abs(under_autocast, plain), 0.0);
  }

  // The bench's window-linear row (attention_bench.h): its token layout, and the kernel it
  // times is window_linear_attention with phi = ELU + 1.
  void bench_row_runs_the_kernel() {
    auto o = window_bench_layout(1024, 3);
    QCOMPARE(o.prefix_tokens, int64_t(0));
    QCOMPARE(o.grid_height, int64_t(32));
    QCOMPARE(o.grid_width, int64_t(32));
    o = window_bench_layout(197, 5);
    QCOMPARE(o.prefix_tokens, int64_t(1));
    QCOMPARE(o.grid_height * 100 + o.grid_width, int64_t(1414));
    QCOMPARE(o.window, int64_t(5));
    o = window_bench_layout(97, 3);  // prime, and 96 is not a square
    QCOMPARE(o.prefix_tokens, int64_t(0));
    QCOMPARE(o.grid_height * 100 + o.grid_width, int64_t(197));
    o = window_bench_layout(1000, 3);
    QCOMPARE(o.grid_height * 100 + o.grid_width, int64_t(25 * 100 + 40));
    torch::manual_seed(2);
    auto q = torch::randn({1, 2, 197, 16}), k = torch::randn({1, 2, 197, 16}),
         v = torch::randn({1, 2, 197, 16});
    const auto row = run_attention_kernel("window-linear", q, k, v, 0, 1e-6, 5);
    const auto direct = window_linear_attention(q, k, elu_plus_one(q), elu_plus_one(k), v,
                                                window_bench_layout(197, 5));
    // The bench row calls window_linear_attention on these very inputs: the same bits.
    ADALA_COMPARE_EXACT(max_abs(row, direct), 0.0);
    // Counts held in doubles: integers far below 2^53, exact.
    ADALA_COMPARE_EXACT(
        attention_point_macs("window-linear", 2, 197, 16, true, 5),
        3.0 * 2 * window_linear_attention_macs(window_bench_layout(197, 5), 16, 16, 16));
    AttentionBenchPoint p;
    p.kernel = "window-linear";
    p.window = 3;
    QCOMPARE(attention_point_label(p), std::string("window-linear k=3"));
  }

  // phi computed from q and k under autograd (elu + 1), q, k, v as views of one qkv projection
  // (timm's layout, last stride 1, rows 3 H d apart): gradients reach q and k through both
  // paths; the result is a (B, N, H, dv) tensor seen as (B, H, N, dv).
  void feature_map_chain_and_strided_inputs() {
    const int64_t b = 2, h = 3, d = 8, gh = 4, gw = 5, p = 1, n = p + gh * gw;
    const auto o = options(gh, gw, p, 3);
    torch::manual_seed(21);
    auto qkv = torch::randn({b, n, 3, h, d}, kDouble).requires_grad_();
    auto w = torch::randn({b, h, n, d}, kDouble);
    auto grad_of = [&](bool ours) {
      auto parts = qkv.permute({2, 0, 3, 1, 4});
      auto q = parts[0], k = parts[1], v = parts[2];
      auto pq = elu_plus_one(q), pk = elu_plus_one(k);
      auto out = ours ? window_linear_attention(q, k, pq, pk, v, o)
                      : quadratic_reference(q, k, pq, pk, v, torch::ones({h}, kDouble),
                                            window_mask(o), 1.0 / std::sqrt(double(d)));
      auto g = torch::autograd::grad({(out * w).sum()}, {qkv});
      return std::make_pair(out.detach(), g[0]);
    };
    const auto [out, grad] = grad_of(true);
    const auto [ref_out, ref_grad] = grad_of(false);
    QCOMPARE(out.stride(3), int64_t(1));
    QCOMPARE(out.stride(2), h * d);  // token-major storage
    const double e_out = max_abs(out, ref_out), e_grad = max_abs(grad, ref_grad);
    qInfo("elu+1 chained, strided qkv views: max abs error out %.2e dqkv %.2e", e_out, e_grad);
    QVERIFY(e_out < 1e-12 && e_grad < 1e-12);
  }

  // Keys counted over the windows: 5 x 7, k = 3: clipped extents 2,3,3,3,2 rows by
  // 2,3,3,3,3,3,2 columns, 13 x 19 = 247 window patches over the 35 queries.
  void cost_counts() {
    auto c = window_linear_attention_counts(options(5, 7, 0, 3));
    QCOMPARE(c.window_keys, int64_t(247));
    QCOMPARE(c.subtracted_keys, int64_t(247));
    QCOMPARE(c.linear_queries, int64_t(35));
    // With a class token: its row is all 36 keys, each patch's window gains it.
    c = window_linear_attention_counts(options(5, 7, 1, 3));
    QCOMPARE(c.window_keys, int64_t(36 + 247 + 35));
    QCOMPARE(c.subtracted_keys, int64_t(247));
    // Every window over the whole grid: softmax's N^2 keys and nothing linear.
    c = window_linear_attention_counts(options(3, 3, 1, 5));
    QCOMPARE(c.window_keys, int64_t(100));
    QCOMPARE(c.linear_queries, int64_t(0));
    // MACs: keys x (d + dv) + 2 x patches x F x (dv + 1) + subtracted x (F + dv).
    // A count held in a double: integers far below 2^53, exact.
    ADALA_COMPARE_EXACT(window_linear_attention_macs(options(5, 7, 0, 3), 8, 16, 4),
                        247.0 * 12 + 2.0 * 35 * 16 * 5 + 247.0 * 20);
  }

  void invalid_arguments_are_refused() {
    const auto in = make_inputs(1, 2, 36, 8, 8, 8, 1);
    auto call = [&](const WindowLinearAttentionOptions& o, const torch::Tensor& gamma = {}) {
      return window_linear_attention(in.q, in.k, in.pq, in.pk, in.v, o, gamma);
    };
    QVERIFY_EXCEPTION_THROWN(call(options(5, 7, 1, 2)), std::invalid_argument);   // even
    QVERIFY_EXCEPTION_THROWN(call(options(5, 7, 1, 0)), std::invalid_argument);   // < 1
    QVERIFY_EXCEPTION_THROWN(call(options(5, 7, 0, 3)), std::invalid_argument);   // 35 != 36
    QVERIFY_EXCEPTION_THROWN(call(options(0, 7, 36, 3)), std::invalid_argument);  // no grid
    QVERIFY_EXCEPTION_THROWN(call(options(5, 7, 1, 3), torch::ones({3}, kDouble)),
                             std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(window_linear_attention(in.q, in.k.narrow(3, 0, 4), in.pq, in.pk, in.v,
                                                     options(5, 7, 1, 3)),
                             std::invalid_argument);
    QVERIFY_EXCEPTION_THROWN(window_linear_attention(in.q, in.k, in.pq, in.pk.narrow(3, 0, 4), in.v,
                                                     options(5, 7, 1, 3)),
                             std::invalid_argument);
    try {
      call(options(5, 7, 0, 3));
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("36 tokens"), e.what());
    }
    QCOMPARE(call(options(5, 7, 1, 3)).sizes(), in.v.sizes());
  }
};

ADALA_TEST_GUILESS_MAIN(TestWindowLinearAttention)
}  // namespace test_window_linear_attention

#include "test_window_linear_attention.moc"
