// Attention kernels and the ViT modules against direct computations of the same formulas.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "engine/kernels/attention_ops.h"
#include "engine/kernels/elu_plus_one_kernel.h"
#include "engine/kernels/linear_attention_blocked.h"
#include "engine/model/vision_transformer.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_attention {

using namespace adala;
using adala_test::rel_error;

namespace {

// out_i = sum_j phi(q_i).phi(k_j) v_j / (sum_j phi(q_i).phi(k_j) + eps), with the full matrix.
torch::Tensor direct_linear_attention(const torch::Tensor& q, const torch::Tensor& k,
                                      const torch::Tensor& v, double eps) {
  auto qd = q.to(torch::kDouble), kd = k.to(torch::kDouble), vd = v.to(torch::kDouble);
  auto phi = [](const torch::Tensor& x) { return torch::elu(x) + 1; };
  auto a = torch::matmul(phi(qd), phi(kd).transpose(-2, -1));  // (B, H, N, N)
  return torch::matmul(a, vd) / (a.sum(-1, true) + eps);
}

torch::Tensor handwritten_softmax_attention(const torch::Tensor& q, const torch::Tensor& k,
                                            const torch::Tensor& v) {
  auto qd = q.to(torch::kDouble), kd = k.to(torch::kDouble), vd = v.to(torch::kDouble);
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  auto s = torch::matmul(qd, kd.transpose(-2, -1)) * scale;
  auto e = torch::exp(s - std::get<0>(s.max(-1, true)));
  return torch::matmul(e / e.sum(-1, true), vd);
}

}  // namespace

class TestAttention : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(1234); }

  void linear_matches_direct_quadratic_formula() {
    for (int64_t n : {1, 7, 50, 197, 1000}) {
      auto q = torch::randn({2, 3, n, 16}), k = torch::randn({2, 3, n, 16}),
           v = torch::randn({2, 3, n, 16});
      auto out = linear_attention(q, k, v, 1e-6);
      QCOMPARE(out.sizes(), q.sizes());
      const double err = rel_error(out, direct_linear_attention(q, k, v, 1e-6));
      QVERIFY2(err < 1e-5, qPrintable(QString("N=%1 rel err %2").arg(n).arg(err)));
    }
  }

  void softmax_matches_handwritten() {
    for (int64_t n : {1, 13, 197, 600}) {
      auto q = torch::randn({1, 4, n, 32}), k = torch::randn({1, 4, n, 32}),
           v = torch::randn({1, 4, n, 32});
      const double scale = 1.0 / std::sqrt(32.0);
      auto ref = handwritten_softmax_attention(q, k, v);
      QVERIFY(rel_error(softmax_attention(q, k, v, scale), ref) < 1e-5);
      QVERIFY(rel_error(softmax_attention_chunked(q, k, v, scale, 64), ref) < 1e-5);
    }
  }

  void rows_match_full_matrices() {
    const int64_t n = 120, d = 24;
    auto q = torch::randn({n, d}), k = torch::randn({n, d});
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    auto full_softmax = torch::softmax(torch::matmul(q, k.t()) * scale, -1);
    auto phi_q = torch::elu(q.to(torch::kDouble)) + 1, phi_k = torch::elu(k.to(torch::kDouble)) + 1;
    auto full_linear = torch::matmul(phi_q, phi_k.t());
    full_linear = full_linear / (full_linear.sum(-1, true) + 1e-6);
    for (int64_t row : {0, 1, 57, 119}) {
      QVERIFY(rel_error(softmax_attention_row(q[row], k, scale), full_softmax[row]) < 1e-6);
      QVERIFY(rel_error(linear_attention_row(q[row], k, 1e-6), full_linear[row]) < 1e-6);
      QVERIFY(std::abs(softmax_attention_row(q[row], k, scale).sum().item<double>() - 1.0) < 1e-5);
    }
  }

  void phi_never_zero_in_half_precision() {
    // elu(x) + 1 computed as written rounds to exactly 0 in half precision near x = -8.
    auto x = torch::tensor({-12.0f, -8.0f, -1.0f, 0.0f, 2.0f}).to(torch::kHalf);
    auto y = elu_plus_one(x).to(torch::kFloat);
    QVERIFY(y.min().item<float>() > 0.0f);
    QVERIFY(std::abs(y[1].item<float>() - std::exp(-8.0f)) < 1e-5f);
    // x >= 0 takes the x + 1 branch: 0 + 1 and 2 + 1 are exact in half precision.
    ADALA_COMPARE_EXACT(y[3].item<float>(), 1.0f);
    ADALA_COMPARE_EXACT(y[4].item<float>(), 3.0f);
    // A normaliser accumulated in float32 stays positive even for very negative keys.
    auto q = torch::full({1, 1, 4, 8}, -9.0).to(torch::kHalf);
    auto out = linear_attention(q, q, torch::ones({1, 1, 4, 8}).to(torch::kHalf), 1e-6);
    QVERIFY(torch::isfinite(out).all().item<bool>());
  }

  // The blocked kernel's own phi against std::expm1 on special values: NaN stays NaN, -inf
  // gives 0, the clamp at -87 and the branch at 0 hold (the sanitizer build once found a
  // float-to-int of NaN here).
  void elu_plus_one_kernel_special_values() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> x = {nan,   -inf,   -1000.0f, -87.5f, -87.0f, -20.0f,
                                  -1.0f, -1e-8f, 0.0f,     1e-8f,  3.0f,   inf};
    std::vector<float> y(x.size(), -1.0f);
    elu_plus_one_rows(x.data(), 0, y.data(), 0, 1, static_cast<int64_t>(x.size()));
    QVERIFY(std::isnan(y[0]));
    for (size_t i = 1; i < x.size(); ++i) {
      const double expected = x[i] < 0 ? std::exp(static_cast<double>(x[i])) : x[i] + 1.0;
      // +inf must come out as +inf itself (inf - inf is NaN, so no tolerance can say it).
      QVERIFY2(std::abs(y[i] - expected) <= 2e-7 * std::max(1.0, std::abs(expected)) ||
                   (std::isinf(expected) && std::equal_to<double>()(y[i], expected)),
               qPrintable(QString("x=%1: got %2, expected %3").arg(x[i]).arg(y[i]).arg(expected)));
    }
  }

  void attention_module_linear_path_uses_its_own_weights() {
    Attention attn(48, 4, true, 1e-6);
    attn->init_linear_from_softmax();
    auto x = torch::randn({2, 10, 48});
    auto h = attn->project_softmax(x);
    auto expected = attn->proj->forward(
        merge_heads(direct_linear_attention(h.q, h.k, h.v, 1e-6).to(torch::kFloat)));
    attn->set_mode(AttentionMode::Linear);
    QVERIFY(rel_error(attn->forward(x), expected) < 1e-5);
    // Changing the linear weights changes the linear path but not the softmax one.
    auto softmax_before = attn->forward_softmax(x);
    {
      torch::NoGradGuard g;
      attn->linear->qkv->weight.mul_(0.5);
    }
    QVERIFY(rel_error(attn->forward_softmax(x), softmax_before) < 1e-7);
    QVERIFY(rel_error(attn->forward(x), expected) > 1e-3);
  }

  void inference_and_training_paths_give_the_formulas_value_data() {
    QTest::addColumn<int64_t>("tokens");
    QTest::newRow("short (vit 224^2)") << int64_t(197);
    QTest::newRow("long, several row blocks") << int64_t(2048 + 2048 + 7);
  }
  void inference_and_training_paths_give_the_formulas_value() {
    // At inference the module runs the head-parallel blocked kernel; with gradients, the
    // batched one. Both must give the formula's value.
    QFETCH(int64_t, tokens);
    LinearAttention attn(32, 4, true, 1e-6);
    auto x = torch::randn({1, tokens, 32});
    auto h = attn->project(x);
    auto expected = attn->proj->forward(
        merge_heads(direct_linear_attention(h.q, h.k, h.v, 1e-6).to(torch::kFloat)));
    torch::Tensor inference_out;
    {
      c10::InferenceMode inference;
      inference_out = attn->forward(x);
    }
    auto training_out = attn->forward(x);
    QVERIFY(training_out.requires_grad());
    QVERIFY(rel_error(inference_out, expected) < 1e-5);
    QVERIFY(rel_error(training_out, expected) < 1e-5);
  }
  void timm_parameter_names() {
    ViTConfig c = vit_preset("vit_tiny");
    c.depth = 4;
    c.num_classes = 5;
    VisionTransformer vit(c);
    auto params = vit->named_parameters();
    for (const char* name :
         {"cls_token", "pos_embed", "patch_embed.proj.weight", "patch_embed.proj.bias",
          "blocks.3.norm1.weight", "blocks.3.attn.qkv.weight", "blocks.3.attn.qkv.bias",
          "blocks.3.attn.proj.weight", "blocks.3.mlp.fc1.weight", "blocks.3.mlp.fc2.bias",
          "blocks.3.norm2.bias", "norm.weight", "head.weight", "head.bias",
          "blocks.3.attn.linear.qkv.weight"})
      QVERIFY2(params.find(name) != nullptr, name);
    QCOMPARE(params["pos_embed"].sizes(), (torch::IntArrayRef{1, 197, 192}));
    QCOMPARE(params["blocks.0.attn.qkv.weight"].sizes(), (torch::IntArrayRef{576, 192}));
    ViTConfig d = vit_preset("dinov2_vits14_reg");
    d.depth = 1;
    VisionTransformer dino(d);
    auto dp = dino->named_parameters();
    QVERIFY(dp.find("blocks.0.ls1.gamma") != nullptr);
    QCOMPARE(dp["reg_token"].sizes(), (torch::IntArrayRef{1, 4, 384}));
    QCOMPARE(dp["pos_embed"].sizes(), (torch::IntArrayRef{1, 37 * 37, 384}));
  }

  void pos_embed_interpolation() {
    auto pos = torch::randn({1, 1 + 14 * 14, 32});
    // Native size: exactly the same tensor.
    QVERIFY(torch::equal(interpolate_pos_embed(pos, 1, 14, 14), pos));
    // Bicubic resampling onto the same grid through the interpolation kernel is also identity.
    auto grid = pos.narrow(1, 1, 196).reshape({1, 14, 14, 32}).permute({0, 3, 1, 2});
    namespace F = torch::nn::functional;
    auto same = F::interpolate(grid, F::InterpolateFuncOptions()
                                         .size(std::vector<int64_t>{14, 14})
                                         .mode(torch::kBicubic)
                                         .align_corners(false));
    QVERIFY(rel_error(same, grid) < 1e-6);
    auto bigger = interpolate_pos_embed(pos, 1, 20, 28);
    QCOMPARE(bigger.sizes(), (torch::IntArrayRef{1, 1 + 20 * 28, 32}));
    QVERIFY(torch::equal(bigger.narrow(1, 0, 1), pos.narrow(1, 0, 1)));  // cls slot untouched
    // A constant field stays constant under bicubic resampling.
    auto flat = torch::ones({1, 1 + 16, 4});
    QVERIFY(rel_error(interpolate_pos_embed(flat, 1, 7, 9), torch::ones({1, 1 + 63, 4})) < 1e-6);
  }

  void forward_at_any_resolution() {
    ViTConfig c = vit_preset("fmnist_micro");
    VisionTransformer vit(c);
    vit->eval();
    torch::NoGradGuard g;
    QCOMPARE(vit->forward_features(torch::randn({2, 1, 28, 28})).sizes(),
             (torch::IntArrayRef{2, 50, 32}));
    QCOMPARE(vit->forward_features(torch::randn({1, 1, 56, 40})).sizes(),
             (torch::IntArrayRef{1, 1 + 14 * 10, 32}));
    QCOMPARE(vit->forward(torch::randn({3, 1, 28, 28})).sizes(), (torch::IntArrayRef{3, 10}));
    auto x = torch::randn({2, 1, 28, 28});
    auto soft = vit->forward_features(x);
    vit->set_attention_mode(AttentionMode::Linear);
    auto lin = vit->forward_features(x);
    QCOMPARE(lin.sizes(), soft.sizes());
    QVERIFY(!torch::allclose(lin, soft));
    // Chunked softmax gives the same features as plain softmax.
    vit->set_attention_mode(AttentionMode::Softmax);
    vit->set_softmax_chunk(7);
    QVERIFY(rel_error(vit->forward_features(x), soft) < 1e-5);
  }

  void copy_weights_copies_parameters_and_buffers() {
    VisionTransformer from(vit_preset("fmnist_micro")), to(vit_preset("fmnist_micro"));
    from->register_buffer("running_scale", torch::full({3}, 2.5));
    to->register_buffer("running_scale", torch::zeros({3}));
    copy_weights(from, to);
    auto dst = to->named_parameters();
    for (const auto& p : from->named_parameters())
      QVERIFY2(torch::equal(p.value(), dst[p.key()]), qPrintable(QString::fromStdString(p.key())));
    QVERIFY(torch::equal(to->named_buffers()["running_scale"], torch::full({3}, 2.5)));

    VisionTransformer without_buffer(vit_preset("fmnist_micro"));
    try {
      copy_weights(without_buffer, to);
      QFAIL("copy_weights accepted a source without the buffer");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()), QString("copy_weights: source has no tensor running_scale"));
    }
  }

  void block_alignment_grads_reach_linear_path_only() {
    ViTConfig c = vit_preset("fmnist_micro");
    Block block(c);
    auto x = torch::randn({2, 50, 32});
    auto out = block->forward_alignment(x);
    QVERIFY(!out.softmax_attn.requires_grad());
    QVERIFY(!out.next.requires_grad());
    torch::mse_loss(out.linear_attn, out.softmax_attn).backward();
    for (const auto& p : block->named_parameters()) {
      const bool is_linear = p.key().rfind("attn.linear.", 0) == 0;
      const bool has_grad =
          p.value().grad().defined() && p.value().grad().abs().sum().item<double>() > 0;
      QVERIFY2(is_linear == has_grad, qPrintable(QString::fromStdString(p.key())));
    }
    // The softmax target equals the block's own softmax attention on norm1(x).
    torch::NoGradGuard g;
    QVERIFY(rel_error(out.softmax_attn, block->attn->forward_softmax(block->norm1->forward(x))) <
            1e-7);
    QVERIFY(rel_error(out.next, block->forward(x)) < 1e-7);
  }
};

ADALA_TEST_GUILESS_MAIN(TestAttention)
}  // namespace test_attention

#include "test_attention.moc"
