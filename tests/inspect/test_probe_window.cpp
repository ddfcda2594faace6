// AttentionProbe on a hybrid student (attention_plan.h): a window+linear block's linear row and
// the rollout through it against the block's full N x N attention matrix, read off the kernel
// itself (window_linear_attention with the identity as values gives the matrix), in float64.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>

#include "engine/inspect/attention_probe.h"
#include "engine/kernels/attention_ops.h"
#include "engine/kernels/window_linear_attention.h"
#include "engine/model/vision_transformer.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_probe_window {

using namespace adala;
using M = AttentionMode;

namespace {

VisionTransformer hybrid_model() {
  ViTConfig c = vit_preset("fmnist_micro");
  c.depth = 3;
  torch::manual_seed(21);
  VisionTransformer m(c);
  AttentionPlan plan;
  plan.modes = {M::WindowLinear, M::Softmax, M::WindowLinear};
  plan.window = 3;
  m->set_attention_plan(plan);
  torch::NoGradGuard no_grad;
  for (auto& p : m->parameters()) p.add_(torch::randn_like(p) * 0.2);
  m->eval();
  return m;
}

// Block b's attention matrix (heads, N, N), float64: softmax for a softmax block, else the
// window+linear kernel applied to the identity.
torch::Tensor attention_matrix(VisionTransformer& m, const torch::Tensor& image, int64_t b) {
  torch::NoGradGuard no_grad;
  const auto x = m->hidden_states(image)[size_t(b)];
  Block block = m->block(b);
  const auto h = block->norm1->forward(x);
  if (block->attn->mode() == M::Softmax) {
    const auto s = split_heads(block->attn->qkv->forward(h), block->attn->num_heads());
    auto scores =
        torch::matmul(s.q[0].to(torch::kDouble), s.k[0].to(torch::kDouble).transpose(-2, -1)) *
        block->attn->scale();
    return torch::softmax(scores, -1);
  }
  const auto l = block->attn->linear->project(h);
  auto q = l.q.to(torch::kDouble), k = l.k.to(torch::kDouble);
  const int64_t n = q.size(2), heads = q.size(1);
  WindowLinearAttentionOptions o;
  o.grid_height = image.size(2) / 4;
  o.grid_width = image.size(3) / 4;
  o.prefix_tokens = 1;
  o.window = block->attn->linear->window();
  auto eye = torch::eye(n, torch::kDouble).expand({1, heads, n, n}).contiguous();
  return window_linear_attention(q, k, elu_plus_one(q), elu_plus_one(k), eye, o,
                                 block->attn->linear->window_mixing->gamma().to(torch::kDouble))[0];
}

double max_abs_diff(const std::vector<float>& row, const torch::Tensor& ref) {
  auto r = ref.contiguous();
  double worst = 0.0;
  for (int64_t i = 0; i < r.numel(); ++i)
    worst = std::max(worst, std::abs(double(row[size_t(i)]) - r.data_ptr<double>()[i]));
  return worst;
}

}  // namespace

class TestProbeWindow : public QObject {
  Q_OBJECT
 private slots:
  void window_rows_match_the_kernels_matrix() {
    VisionTransformer m = hybrid_model();
    for (auto [h, w] : {std::pair<int64_t, int64_t>{28, 28}, {20, 28}}) {
      const auto image = torch::rand({1, 1, h, w});
      AttentionProbe probe(m, image);
      const auto a = attention_matrix(m, image, 2);
      for (int64_t head = 0; head < 2; ++head)
        for (int64_t query :
             {int64_t(0), int64_t(1), probe.patch_token(2, 3), probe.num_tokens() - 1}) {
          const auto row = probe.rows(2, head, query).linear;
          const double err = max_abs_diff(row, a[head][query]);
          QVERIFY2(err < 1e-5, qPrintable(QString("%1x%2 head %3 query %4: %5")
                                              .arg(h)
                                              .arg(w)
                                              .arg(head)
                                              .arg(query)
                                              .arg(err)));
        }
      // Rollout through the linear paths: the product of the blocks' 0.5 A + 0.5 I (block 1
      // is softmax, but rollout(linear) reads each block's linear path: build those too).
      std::vector<torch::Tensor> mats;
      for (int64_t b = 0; b < 3; ++b) {
        if (b == 1) {
          // Block 1's linear path is plain linear attention.
          torch::NoGradGuard no_grad;
          Block block = m->block(1);
          const auto x = m->hidden_states(image)[1];
          const auto l = block->attn->linear->project(block->norm1->forward(x));
          auto pq = elu_plus_one(l.q[0].to(torch::kDouble)),
               pk = elu_plus_one(l.k[0].to(torch::kDouble));
          auto a1 = torch::matmul(pq, pk.transpose(-2, -1));
          mats.push_back(a1 / a1.sum(-1, true));  // rollout renormalises the rows
        } else {
          mats.push_back(attention_matrix(m, image, b));
        }
      }
      const int64_t n = probe.num_tokens();
      auto product = torch::eye(n, torch::kDouble);
      for (int64_t b = 0; b < 3; ++b)
        product = torch::matmul(
            product, 0.5 * mats[size_t(2 - b)].mean(0) + 0.5 * torch::eye(n, torch::kDouble));
      // r^T = e_q^T (0.5 A_2 + 0.5 I)(0.5 A_1 + 0.5 I)(0.5 A_0 + 0.5 I)
      for (int64_t query : {int64_t(0), probe.patch_token(1, 1)}) {
        const auto r = probe.rollout(query, true);
        const double err = max_abs_diff(r, product[query]);
        QVERIFY2(err < 1e-5, qPrintable(QString("rollout query %1: %2").arg(query).arg(err)));
      }
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestProbeWindow)
}  // namespace test_probe_window

#include "test_probe_window.moc"
