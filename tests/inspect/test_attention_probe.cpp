// AttentionProbe against rows taken from full N x N attention matrices, built here in double
// precision from the model's own hidden states (unchunked forward, no cached projections).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <chrono>
#include <cmath>

#include "engine/inspect/attention_probe.h"
#include "engine/model/vision_transformer.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_attention_probe {

using namespace adala;

namespace {

struct FullMatrices {
  std::vector<torch::Tensor> softmax, linear;  // per block: (heads, N, N) double
};

// Every block's softmax and linear attention matrices of one image, materialised.
FullMatrices full_matrices(VisionTransformer& model, const torch::Tensor& image) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto states = model->hidden_states(image);
  FullMatrices m;
  for (int64_t b = 0; b < model->depth(); ++b) {
    auto block = model->block(b);
    auto h = block->norm1->forward(states[static_cast<size_t>(b)]);
    auto s = split_heads(block->attn->qkv->forward(h), block->attn->num_heads());
    auto scores =
        torch::matmul(s.q[0].to(torch::kDouble), s.k[0].to(torch::kDouble).transpose(-2, -1)) *
        block->attn->scale();
    m.softmax.push_back(torch::softmax(scores, -1));
    auto l = split_heads(block->attn->linear->qkv->forward(h), block->attn->num_heads());
    // The block's feature map as its module defines it (ELU + 1 when it has none).
    FeatureMap map = block->attn->linear->feature_map;
    auto phi_q = map ? map->query_features(l.q)[0].to(torch::kDouble)
                     : torch::elu(l.q[0].to(torch::kDouble)) + 1;
    auto phi_k = map ? map->key_features(l.k)[0].to(torch::kDouble)
                     : torch::elu(l.k[0].to(torch::kDouble)) + 1;
    auto a = torch::matmul(phi_q, phi_k.transpose(-2, -1));
    m.linear.push_back(a / (a.sum(-1, true) + block->attn->linear->eps()));
  }
  return m;
}

double max_abs_diff(const std::vector<float>& row, const torch::Tensor& ref) {
  auto r = ref.contiguous();
  if (int64_t(row.size()) != r.numel()) return INFINITY;
  double worst = 0.0;
  const double* p = r.data_ptr<double>();
  for (size_t i = 0; i < row.size(); ++i) worst = std::max(worst, std::abs(double(row[i]) - p[i]));
  return worst;
}

// The linear branch trained away from the softmax one, so the two rows differ visibly.
void perturb_linear_branch(VisionTransformer& model) {
  torch::NoGradGuard no_grad;
  for (int64_t b = 0; b < model->depth(); ++b) {
    auto& w = model->block(b)->attn->linear->qkv->weight;
    w.add_(torch::randn_like(w) * 0.3);
  }
  // Larger pos/patch weights: sharper softmax rows than the 0.02 init gives.
  model->pos_embed.mul_(20.0);
}

void check_probe_rows(VisionTransformer& model, const torch::Tensor& image, const char* what) {
  auto full = full_matrices(model, image);
  AttentionProbe probe(model, image);
  const int64_t n = probe.num_tokens();
  QCOMPARE(n, full.softmax[0].size(-1));
  for (int64_t b = 0; b < probe.depth(); ++b)
    for (int64_t h = 0; h < probe.num_heads(); ++h)
      for (int64_t q : {int64_t(0), probe.num_prefix_tokens(), n / 2, n - 1}) {
        auto rows = probe.rows(b, h, q);
        const auto ref_s = full.softmax[size_t(b)][h][q];
        const auto ref_l = full.linear[size_t(b)][h][q];
        const double ds = max_abs_diff(rows.softmax, ref_s), dl = max_abs_diff(rows.linear, ref_l);
        QVERIFY2(ds < 2e-5 && dl < 2e-5,
                 qPrintable(QString("%1 block %2 head %3 query %4: softmax err %5, linear err %6")
                                .arg(what)
                                .arg(b)
                                .arg(h)
                                .arg(q)
                                .arg(ds)
                                .arg(dl)));
        // KL and MSE of the reference rows, in double.
        auto p = ref_s.clamp_min(1e-12), r = ref_l.clamp_min(1e-12);
        const double kl = (p * (p / r).log()).sum().item<double>();
        const double mse = (ref_s - ref_l).pow(2).mean().item<double>();
        QVERIFY2(std::abs(rows.kl - kl) <= 1e-4 * std::max(1.0, kl),
                 qPrintable(QString("kl %1 vs %2").arg(rows.kl).arg(kl)));
        QVERIFY2(std::abs(rows.mse - mse) <= 1e-3 * mse + 1e-12,
                 qPrintable(QString("mse %1 vs %2").arg(rows.mse).arg(mse)));
      }
}

// Attention rollout computed the direct way: the product of the full (N x N) matrices
// (0.5 mean_h A_b + 0.5 I), A_b's rows renormalised (the linear path's eps removed).
torch::Tensor full_rollout(const std::vector<torch::Tensor>& blocks) {
  const int64_t n = blocks[0].size(-1);
  auto eye = torch::eye(n, torch::kDouble);
  auto r = eye.clone();
  for (const auto& a : blocks) {
    auto mean = a.mean(0);
    mean = mean / mean.sum(-1, true);
    r = torch::matmul(0.5 * mean + 0.5 * eye, r);
  }
  return r;
}

void check_rollout(VisionTransformer& model, const torch::Tensor& image, const char* what) {
  auto full = full_matrices(model, image);
  const auto soft = full_rollout(full.softmax), lin = full_rollout(full.linear);
  AttentionProbe probe(model, image);
  const int64_t n = probe.num_tokens();
  for (int64_t q : {int64_t(0), probe.num_prefix_tokens() + 3, n / 2, n - 1}) {
    const auto rs = probe.rollout(q, false), rl = probe.rollout(q, true);
    const double ds = max_abs_diff(rs, soft[q]), dl = max_abs_diff(rl, lin[q]);
    QVERIFY2(ds < 1e-5 && dl < 1e-5,
             qPrintable(QString("%1 query %2: softmax rollout err %3, linear %4")
                            .arg(what)
                            .arg(q)
                            .arg(ds)
                            .arg(dl)));
    double sum = 0.0;
    for (float v : rl) sum += v;
    QVERIFY(std::abs(sum - 1.0) < 1e-5);
    // The two paths' rollouts differ (the linear branch is perturbed), and neither is the
    // query's own one-hot row (the residual half keeps it, attention spreads the rest).
    QVERIFY(max_abs_diff(rs, lin[q]) > 1e-4);
    QVERIFY(rs[size_t(q)] > 0.25f);
  }
}

ViTConfig register_config() {
  ViTConfig c;
  c.name = "probe_registers";
  c.img_size = 16;
  c.patch_size = 4;
  c.in_chans = 3;
  c.embed_dim = 24;
  c.depth = 2;
  c.num_heads = 3;
  c.mlp_ratio = 2.0;
  c.class_token = false;
  c.num_register_tokens = 2;
  c.no_embed_class = true;
  c.layer_scale = true;  // the probe's own block forward must apply ls1 / ls2
  c.layer_scale_init = 0.5;
  return c;
}

}  // namespace

class TestAttentionProbe : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    torch::manual_seed(3);
    torch::set_num_threads(2);
  }

  void rows_match_full_matrices_at_native_size() {
    VisionTransformer model(vit_preset("fmnist_micro"));
    perturb_linear_branch(model);
    check_probe_rows(model, torch::rand({1, 1, 28, 28}), "native");
  }

  // A student trained with another feature map is probed with that map, not ELU + 1.
  void rows_use_the_blocks_own_feature_map() {
    for (const char* kind : {"relu", "hedgehog"}) {
      ViTConfig c = vit_preset("fmnist_micro");
      c.feature_map = kind;
      VisionTransformer model(c);
      perturb_linear_branch(model);
      if (std::string(kind) == "hedgehog") {  // away from its identity start
        torch::NoGradGuard no_grad;
        for (auto& p : model->named_parameters())
          if (p.key().find("feature_map") != std::string::npos)
            p.value().add_(torch::randn_like(p.value()) * 0.2);
      }
      check_probe_rows(model, torch::rand({1, 1, 28, 28}), kind);
    }
  }

  void rows_match_at_another_resolution() {
    VisionTransformer model(vit_preset("fmnist_micro"));
    perturb_linear_branch(model);
    auto image = torch::rand({1, 1, 56, 44});
    check_probe_rows(model, image, "56x44");
    AttentionProbe probe(model, image);
    QCOMPARE(probe.grid_height(), int64_t(14));
    QCOMPARE(probe.grid_width(), int64_t(11));
    QCOMPARE(probe.patch_token(2, 3), int64_t(1 + 2 * 11 + 3));
  }

  void rows_follow_linear_mode_hidden_states() {
    // A Stage-2 student propagates through linear attention: the rows must use those states.
    VisionTransformer model(vit_preset("fmnist_micro"));
    perturb_linear_branch(model);
    model->set_attention_mode(AttentionMode::Linear);
    check_probe_rows(model, torch::rand({1, 1, 32, 24}), "linear-mode");
  }

  void rows_with_registers_layer_scale_and_no_class_token() {
    VisionTransformer model(register_config());
    perturb_linear_branch(model);
    check_probe_rows(model, torch::rand({1, 3, 20, 12}), "registers");
    AttentionProbe probe(model, torch::rand({3, 20, 12}));  // (C, H, W) is accepted too
    QCOMPARE(probe.num_prefix_tokens(), int64_t(2));
    QCOMPARE(probe.num_tokens(), int64_t(2 + 5 * 3));
  }

  void rows_sum_to_one_and_all_heads_agree() {
    VisionTransformer model(vit_preset("fmnist_micro"));
    perturb_linear_branch(model);
    AttentionProbe probe(model, torch::rand({1, 1, 28, 28}));
    auto heads = probe.all_heads(1, 5, true);
    QCOMPARE(int64_t(heads.size()), probe.num_heads());
    for (int64_t h = 0; h < probe.num_heads(); ++h) {
      const auto one = probe.rows(1, h, 5);
      // all_heads() calls rows() itself: the same plain loops on the same cached buffers.
      ADALA_COMPARE_EXACT(heads[size_t(h)].softmax, one.softmax);
      ADALA_COMPARE_EXACT(heads[size_t(h)].kl, one.kl);
      double s = 0, l = 0;
      for (float v : one.softmax) s += v;
      for (float v : one.linear) l += v;
      QVERIFY(std::abs(s - 1.0) < 1e-5);
      QVERIFY(std::abs(l - 1.0) < 1e-4);
      QVERIFY(one.kl > 0.0);
    }
    QVERIFY(probe.all_heads(0, 0).front().softmax.empty());
  }

  // Rollout of both paths equals the explicit matrix product, for a softmax-propagating model,
  // a linear-mode student, a learned feature map, and chunked softmax (a tiny chunk budget is
  // not settable, so a 56 x 56 input gives N = 197 rows per block in one or more chunks).
  void rollout_matches_the_full_matrix_product() {
    VisionTransformer model(vit_preset("fmnist_micro"));
    perturb_linear_branch(model);
    check_rollout(model, torch::rand({1, 1, 28, 28}), "softmax model");
    check_rollout(model, torch::rand({1, 1, 56, 56}), "softmax model at 56");
    model->set_attention_mode(AttentionMode::Linear);
    check_rollout(model, torch::rand({1, 1, 28, 28}), "linear model");
    ViTConfig c = vit_preset("fmnist_micro");
    c.feature_map = "hedgehog";
    VisionTransformer hedgehog(c);
    perturb_linear_branch(hedgehog);
    {
      torch::NoGradGuard no_grad;
      for (auto& p : hedgehog->named_parameters())
        if (p.key().find("feature_map") != std::string::npos)
          p.value().add_(torch::randn_like(p.value()) * 0.2);
    }
    check_rollout(hedgehog, torch::rand({1, 1, 28, 28}), "hedgehog");
    AttentionProbe probe(model, torch::rand({1, 1, 28, 28}));
    int calls = 0;
    QVERIFY_THROWS_EXCEPTION(ProbeCancelled,
                             probe.rollout(3, false, [&](double) { return ++calls < 1; }));
    QCOMPARE(calls, 1);  // stopped at the first check, inside block 1's first head
    // Progress: once per softmax chunk (here one per head) and once per block, rising to 1.
    std::vector<double> seen;
    probe.rollout(3, false, [&](double f) {
      seen.push_back(f);
      return true;
    });
    QCOMPARE(int(seen.size()), int(probe.depth() * (probe.num_heads() + 1)));
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    // The last report is double(depth) / double(depth): exactly 1.
    ADALA_COMPARE_EXACT(seen.back(), 1.0);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, probe.rollout(probe.num_tokens(), true));
  }

  void bad_arguments_are_refused() {
    VisionTransformer model(vit_preset("fmnist_micro"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             AttentionProbe(model, torch::rand({1, 1, 30, 28})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             AttentionProbe(model, torch::rand({1, 3, 28, 28})));
    AttentionProbe probe(model, torch::rand({1, 1, 28, 28}));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, probe.rows(2, 0, 0));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, probe.rows(0, 2, 0));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, probe.rows(0, 0, probe.num_tokens()));
  }

  void progress_is_reported_and_cancel_stops() {
    VisionTransformer model(vit_preset("fmnist_micro"));
    std::vector<double> seen;
    ProbeOptions options;
    options.progress = [&](double f) {
      seen.push_back(f);
      return true;
    };
    AttentionProbe probe(model, torch::rand({1, 1, 64, 64}), options);
    QVERIFY(seen.size() >= 3);
    // Progress counts whole chunks and blocks in doubles: it starts at 0 / total and ends at
    // total / total (both integer-valued), then min(1, .): exactly 0 and 1.
    ADALA_COMPARE_EXACT(seen.front(), 0.0);
    ADALA_COMPARE_EXACT(seen.back(), 1.0);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    int calls = 0;
    options.progress = [&](double) { return ++calls < 2; };
    QVERIFY_THROWS_EXCEPTION(ProbeCancelled,
                             AttentionProbe(model, torch::rand({1, 1, 64, 64}), options));
    QCOMPARE(calls, 2);
  }

  void large_image_rows_are_cheap() {
    // 1024 x 1024 at patch 16: N = 4097. One forward, then rows on demand in O(N d).
    ViTConfig c = vit_preset("vit_tiny");
    c.embed_dim = 64;
    c.num_heads = 2;
    c.depth = 2;
    VisionTransformer model(c);
    perturb_linear_branch(model);
    auto image = torch::rand({1, 3, 1024, 1024});
    AttentionProbe probe(model, image);
    QCOMPARE(probe.num_tokens(), int64_t(1 + 64 * 64));
    const int64_t cache_after_forward = probe.cache_bytes();
    const auto t0 = std::chrono::steady_clock::now();
    const int calls = 50;
    for (int i = 0; i < calls; ++i) {
      auto rows = probe.rows(i % 2, i % 2, (i * 97) % probe.num_tokens());
      QCOMPARE(int64_t(rows.softmax.size()), probe.num_tokens());
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
        calls;
    qInfo("1024x1024: forward %.2f s, %.2f ms per row pair, cache %.1f MB", probe.forward_seconds(),
          ms, probe.cache_bytes() / 1e6);
    // Rows come from the one forward's cache (how fast belongs in the benchmarks, above).
    QCOMPARE(probe.cache_bytes(), cache_after_forward);
    // One row against the direct formula on this block's own q and k.
    torch::NoGradGuard no_grad;
    auto states = model->hidden_states(image);
    auto block = model->block(1);
    auto s = split_heads(block->attn->qkv->forward(block->norm1->forward(states[1])), c.num_heads);
    const int64_t q = 2049;
    auto ref =
        torch::softmax(torch::mv(s.k[0][1].to(torch::kDouble), s.q[0][1][q].to(torch::kDouble)) *
                           block->attn->scale(),
                       0);
    QVERIFY(max_abs_diff(probe.rows(1, 1, q).softmax, ref) < 1e-5);
  }

  void fashion_mnist_model_at_1024_benchmark() {
    // Not a check: how long the one forward pass takes for a patch-4 model at 1024 x 1024
    // (N = 65537 tokens). ADALA_BENCH=1 runs it.
    if (qEnvironmentVariableIntValue("ADALA_BENCH") != 1) QSKIP("set ADALA_BENCH=1 to run");
    for (auto mode : {AttentionMode::Linear, AttentionMode::Softmax}) {
      VisionTransformer model(vit_preset("fmnist_micro"));
      model->set_attention_mode(mode);
      AttentionProbe probe(model, torch::rand({1, 1, 1024, 1024}));
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 20; ++i) probe.rows(1, 1, i * 3001);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
          20;
      qInfo(
          "fmnist_micro 1024x1024 (%s propagation): forward %.2f s, %.2f ms per row pair, cache "
          "%.1f MB",
          to_string(mode), probe.forward_seconds(), ms, probe.cache_bytes() / 1e6);
    }
  }
};

ADALA_TEST_GUILESS_MAIN(TestAttentionProbe)
}  // namespace test_attention_probe

#include "test_attention_probe.moc"
