// Segmentation heads: the linear probe, Mask2Former (shapes, matching, loss falling when it
// overfits one batch), semantic inference, backbone features and position-embedding
// interpolation to the larger segmentation resolution.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>

#include "engine/model/vision_transformer.h"
#include "engine/data/fashion_mnist.h"
#include "engine/data/segmentation_scenes.h"
#include "engine/seg/linear_head.h"
#include "engine/seg/mask2former_head.h"
#include "engine/seg/mask_classification_loss.h"
#include "engine/seg/segmentation_model.h"
#include "engine/seg/semantic_inference.h"
#include "engine/train/training_loop.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_seg_heads {

using namespace adala;

namespace {

// PyTorch's bicubic kernel (A = -0.75, align_corners = false), written out independently.
double cubic_weight(double x) {
  const double a = -0.75;
  x = std::fabs(x);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

// (in, D) samples on a line -> (out, D).
std::vector<std::vector<double>> resample(const std::vector<std::vector<double>>& in, int64_t out) {
  const int64_t n = int64_t(in.size());
  std::vector<std::vector<double>> r(size_t(out), std::vector<double>(in[0].size(), 0.0));
  const double scale = double(n) / double(out);
  for (int64_t o = 0; o < out; ++o) {
    const double src = (double(o) + 0.5) * scale - 0.5;
    const auto base = int64_t(std::floor(src));
    for (int64_t k = -1; k <= 2; ++k) {
      const double w = cubic_weight(src - double(base + k));
      const int64_t i = std::clamp<int64_t>(base + k, 0, n - 1);
      for (size_t d = 0; d < in[0].size(); ++d) r[size_t(o)][d] += w * in[size_t(i)][d];
    }
  }
  return r;
}

double rel_error(const torch::Tensor& a, const torch::Tensor& b) {
  return ((a - b).norm() / (b.norm() + 1e-12)).item<double>();
}

}  // namespace

class SegHeadsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { torch::manual_seed(0); }

  void pos_embed_interpolation_is_bicubic() {
    const int64_t g = 3, oh = 5, ow = 7, d = 2;
    auto pos = torch::randn({1, 1 + g * g, d}, torch::kDouble);
    auto got = interpolate_pos_embed(pos, 1, oh, ow);
    QCOMPARE(got.sizes(), (torch::IntArrayRef{1, 1 + oh * ow, d}));
    QVERIFY(torch::equal(got.narrow(1, 0, 1), pos.narrow(1, 0, 1)));
    // Separable reference: along x for each row, then along y for each column.
    std::vector<std::vector<std::vector<double>>> rows;  // [gy][ox][d]
    for (int64_t y = 0; y < g; ++y) {
      std::vector<std::vector<double>> line;
      for (int64_t x = 0; x < g; ++x) {
        std::vector<double> v;
        for (int64_t k = 0; k < d; ++k) v.push_back(pos[0][1 + y * g + x][k].item<double>());
        line.push_back(v);
      }
      rows.push_back(resample(line, ow));
    }
    double worst = 0;
    for (int64_t x = 0; x < ow; ++x) {
      std::vector<std::vector<double>> column;
      for (int64_t y = 0; y < g; ++y) column.push_back(rows[size_t(y)][size_t(x)]);
      auto col = resample(column, oh);
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t k = 0; k < d; ++k)
          worst = std::max(worst, std::fabs(col[size_t(y)][size_t(k)] -
                                            got[0][1 + y * ow + x][k].item<double>()));
    }
    QVERIFY2(worst < 1e-5, qPrintable(QString("max deviation %1").arg(worst)));
  }

  void vit_uses_interpolated_pos_embed_at_segmentation_size() {
    VisionTransformer vit(vit_preset("fmnist_micro"));  // 28 px, patch 4: 7 x 7 grid
    vit->eval();
    torch::NoGradGuard g;
    auto x = torch::rand({2, 1, 56, 56});
    auto tokens = vit->prepare_tokens(x);
    QCOMPARE(tokens.sizes(), (torch::IntArrayRef{2, 1 + 14 * 14, 32}));
    auto patches = vit->patch_embed->forward(x);
    auto pos = interpolate_pos_embed(vit->pos_embed, 1, 14, 14);
    QVERIFY(rel_error(tokens.narrow(1, 1, 196) - patches,
                      pos.narrow(1, 1, 196).expand({2, -1, -1})) < 1e-5);
    QVERIFY(
        rel_error(tokens.select(1, 0),
                  (vit->cls_token + vit->pos_embed.narrow(1, 0, 1)).squeeze(1).expand({2, -1})) <
        1e-6);
  }

  void backbone_features_are_normed_block_outputs() {
    VisionTransformer vit(vit_preset("fmnist_micro"));
    vit->eval();
    torch::NoGradGuard g;
    auto x = torch::rand({2, 1, 32, 32});
    auto feats = backbone_patch_features(vit, x, {1, 2});
    QCOMPARE(feats.size(), size_t(2));
    QCOMPARE(feats[1].sizes(), (torch::IntArrayRef{2, 64, 32}));
    auto full = vit->forward_features(x).narrow(1, 1, 64);
    QVERIFY(rel_error(feats[1], full) < 1e-6);  // the last block: forward_features' patches
    auto hidden = vit->hidden_states(x);
    QVERIFY(rel_error(feats[0], vit->norm->forward(hidden[1]).narrow(1, 1, 64)) < 1e-6);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, backbone_patch_features(vit, x, {3}));
    // RGB -> one channel by luminance.
    auto rgb = torch::zeros({1, 3, 2, 2});
    rgb[0][1].fill_(1.0);
    QVERIFY(torch::allclose(to_backbone_input(rgb, 1), torch::full({1, 1, 2, 2}, 0.587)));
  }

  void linear_head_shapes_and_upsampling() {
    LinearSegmentationHead head(16, 5);
    head->eval();
    auto tokens = torch::randn({2, 7 * 7, 16});
    auto logits = head->forward(tokens, 7, 7, 28, 28);
    QCOMPARE(logits.sizes(), (torch::IntArrayRef{2, 5, 28, 28}));
    auto grid = head->grid_logits(tokens, 7, 7);
    QVERIFY(rel_error(logits, resize_bilinear(grid, 28, 28)) < 1e-6);
    // tokens_to_grid: token r * gw + c lands at (r, c).
    auto t = torch::arange(2 * 6 * 3, torch::kFloat).view({2, 6, 3});
    auto gmap = tokens_to_grid(t, 2, 3);
    ADALA_COMPARE_EXACT(gmap[1][2][1][0].item<float>(), t[1][3][2].item<float>());  // a copy
  }

  // With upsample u, token (r, c)'s conv outputs c * u^2 + i * u + j land at pixel
  // (r u + i, c u + j) of class c: checked against the 1x1 convolution written out by hand.
  void linear_head_draws_sub_patch_logits() {
    const int64_t d = 6, classes = 3, u = 2, gh = 2, gw = 3;
    LinearSegmentationHead head(d, classes, u);
    head->eval();
    {
      torch::NoGradGuard g;
      head->conv->weight.normal_();
      head->conv->bias.normal_();
    }
    auto tokens = torch::randn({1, gh * gw, d});
    auto grid = head->grid_logits(tokens, gh, gw);
    QCOMPARE(grid.sizes(), (torch::IntArrayRef{1, classes, gh * u, gw * u}));
    auto normed = head->bn->forward(tokens_to_grid(tokens, gh, gw))[0];  // (d, gh, gw)
    auto w = head->conv->weight.view({classes * u * u, d});
    for (int64_t r = 0; r < gh; ++r)
      for (int64_t c = 0; c < gw; ++c)
        for (int64_t k = 0; k < classes; ++k)
          for (int64_t i = 0; i < u; ++i)
            for (int64_t j = 0; j < u; ++j) {
              const int64_t ch = k * u * u + i * u + j;
              const double expected =
                  (w[ch] * normed.select(1, r).select(1, c)).sum().item<double>() +
                  head->conv->bias[ch].item<double>();
              QVERIFY(std::abs(grid[0][k][r * u + i][c * u + j].item<double>() - expected) < 1e-4);
            }
    QCOMPARE(head->forward(tokens, gh, gw, 16, 24).sizes(),
             (torch::IntArrayRef{1, classes, 16, 24}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LinearSegmentationHead(d, classes, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             LinearSegmentationHead(d, classes, kMaxHeadUpsample + 1));
  }

  void semantic_inference_sums_queries() {
    auto cls = torch::randn({1, 3, 3});  // 3 queries, 2 classes + no-object
    auto masks = torch::randn({1, 3, 2, 2});
    auto scores = semantic_scores(cls, masks, 2, 2);
    QCOMPARE(scores.sizes(), (torch::IntArrayRef{1, 2, 2, 2}));
    auto p = cls.softmax(-1), m = masks.sigmoid();
    for (int64_t c = 0; c < 2; ++c)
      for (int64_t y = 0; y < 2; ++y)
        for (int64_t x = 0; x < 2; ++x) {
          double want = 0;
          for (int64_t q = 0; q < 3; ++q)
            want += p[0][q][c].item<double>() * m[0][q][y][x].item<double>();
          QVERIFY(std::fabs(scores[0][c][y][x].item<double>() - want) < 1e-6);
        }
    QVERIFY(torch::equal(semantic_labels(cls, masks, 2, 2), scores.argmax(1)));
  }

  void targets_from_a_semantic_mask() {
    auto m = torch::tensor({0, 0, 3, 255, 3, 1, 2, 2, 2, 2, 2, 255}, torch::kByte).view({2, 2, 3});
    auto t = segment_targets(m, 4);
    QCOMPARE(t.semantic.sizes(), (torch::IntArrayRef{2, 2, 3}));
    QCOMPARE(t.num_classes(), int64_t(4));
    QVERIFY(torch::equal(t.labels(0), torch::tensor({0, 1, 3}, torch::kLong)));
    QVERIFY(torch::equal(t.labels(1), torch::tensor({2}, torch::kLong)));
    QVERIFY(torch::equal(
        t.present,
        torch::tensor({true, true, false, true, false, false, true, false}).view({2, 4})));
    auto masks = t.masks(torch::tensor({0, 1}, torch::kLong), torch::tensor({3, 0}, torch::kLong));
    QVERIFY(torch::equal(masks[0], torch::tensor({0.f, 0.f, 1.f, 0.f, 1.f, 0.f}).view({2, 3})));
    QVERIFY(torch::equal(masks[1], torch::zeros({2, 3})));  // absent class: empty mask
    QVERIFY(torch::equal(t.valid[0], torch::tensor({1.f, 1.f, 1.f, 0.f, 1.f, 1.f}).view({2, 3})));
    QVERIFY(torch::equal(t.valid[1], torch::tensor({1.f, 1.f, 1.f, 1.f, 1.f, 0.f}).view({2, 3})));
  }

  void matching_pairs_each_target_with_its_mask() {
    // Query q predicts target perm[q] perfectly (query 3 predicts nothing).
    const int64_t p = 64;
    auto targets = torch::zeros({3, p});
    targets[0].narrow(0, 0, 20).fill_(1);
    targets[1].narrow(0, 20, 20).fill_(1);
    targets[2].narrow(0, 40, 24).fill_(1);
    const int64_t perm[] = {2, 0, 1};
    auto pred = torch::full({4, p}, -8.0);
    for (int64_t q = 0; q < 3; ++q) pred[q] = targets[perm[q]] * 16 - 8;
    auto labels = torch::tensor({4, 7, 9}, torch::kLong);
    auto cls = torch::zeros({4, 11});
    MaskLossOptions o;
    auto probs = cls.softmax(-1).index_select(1, labels);  // (Q, K)
    auto cost = matching_cost(probs.unsqueeze(0), pred.unsqueeze(0), targets.unsqueeze(0),
                              torch::ones({1, p}), o)[0];
    auto match = assign_queries(cost.t().to(torch::kDouble));
    QCOMPARE(match, (std::vector<int64_t>{1, 2, 0}));  // target k -> query with perm[q] == k
  }

  void mask_loss_equals_a_pixel_by_pixel_reference() {
    // Two 2 x 2 images (one pixel ignored), 3 queries, 3 classes; masks at the target size.
    const int64_t b = 2, q = 3, c = 3, hw = 4;
    auto semantic = torch::tensor({0, 1, 1, 255, 2, 2, 0, 2}, torch::kByte).view({b, 2, 2});
    torch::manual_seed(3);
    Mask2FormerOutput out;
    for (int round = 0; round < 2; ++round) {
      out.class_logits.push_back(torch::randn({b, q, c + 1}) * 2);
      out.mask_logits.push_back(torch::randn({b, q, 2, 2}) * 3);
    }
    MaskLossOptions o;
    o.no_object_weight = 0.25;
    auto value = mask_classification_loss(out, segment_targets(semantic, c), o);

    // Reference: every assignment tried, every term summed pixel by pixel in double.
    auto sig = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
    double want = 0;
    for (int round = 0; round < 2; ++round) {
      auto cls = out.class_logits[size_t(round)].to(torch::kDouble).softmax(-1);
      auto masks = out.mask_logits[size_t(round)].to(torch::kDouble).view({b, q, hw});
      double ce_sum = 0, ce_weight = 0, bce = 0, dice = 0;
      int64_t num_masks = 0;
      for (int64_t i = 0; i < b; ++i) {
        std::vector<int64_t> pixel(hw), labels;
        for (int64_t p = 0; p < hw; ++p)
          pixel[size_t(p)] = semantic[i].flatten()[p].item<int64_t>();
        for (int64_t k = 0; k < c; ++k)
          if (std::count(pixel.begin(), pixel.end(), k)) labels.push_back(k);
        num_masks += int64_t(labels.size());
        auto terms = [&](int64_t query, int64_t label, double* bce_out, double* dice_out) {
          double l = 0, n = 0, inter = 0, psum = 0, tsum = 0;
          for (int64_t p = 0; p < hw; ++p) {
            if (pixel[size_t(p)] == 255) continue;
            const double x = masks[i][query][p].item<double>(), s = sig(x);
            const double t = pixel[size_t(p)] == label ? 1 : 0;
            l -= t * std::log(s) + (1 - t) * std::log(1 - s);
            n += 1, inter += s * t, psum += s, tsum += t;
          }
          *bce_out = l / n;
          *dice_out = 1 - (2 * inter + 1) / (psum + tsum + 1);
        };
        // Brute-force the cheapest injective assignment of labels to queries.
        std::vector<int64_t> queries = {0, 1, 2}, best;
        double best_cost = 1e300;
        do {
          double cost = 0;
          for (size_t k = 0; k < labels.size(); ++k) {
            double pb = 0, pd = 0;
            terms(queries[k], labels[k], &pb, &pd);
            cost += -o.class_weight * cls[i][queries[k]][labels[k]].item<double>() +
                    o.mask_weight * pb + o.dice_weight * pd;
          }
          if (cost < best_cost - 1e-12) best_cost = cost, best = queries;
        } while (std::next_permutation(queries.begin(), queries.end()));
        for (int64_t query = 0; query < q; ++query) {
          int64_t target = c;  // no object
          for (size_t k = 0; k < labels.size(); ++k)
            if (best[k] == query) target = labels[k];
          const double w = target == c ? o.no_object_weight : 1.0;
          ce_sum -= w * std::log(cls[i][query][target].item<double>());
          ce_weight += w;
        }
        for (size_t k = 0; k < labels.size(); ++k) {
          double pb = 0, pd = 0;
          terms(best[k], labels[k], &pb, &pd);
          bce += pb, dice += pd;
        }
      }
      const double ce = ce_sum / ce_weight;
      bce /= double(num_masks), dice /= double(num_masks);
      want += o.class_weight * ce + o.mask_weight * bce + o.dice_weight * dice;
      if (round == 1) {
        QVERIFY(std::fabs(value.ce - ce) < 1e-5);
        QVERIFY(std::fabs(value.bce - bce) < 1e-5);
        QVERIFY(std::fabs(value.dice - dice) < 1e-5);
      }
    }
    const double got = value.total.item<double>();
    QVERIFY2(std::fabs(got - want) < 1e-4 * std::fabs(want),
             qPrintable(QString("loss %1, reference %2").arg(got).arg(want)));
    // A target set of another class count is refused by name.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             mask_classification_loss(out, segment_targets(semantic, c + 1), o));
  }

  void matching_on_the_mask_grid_equals_matching_at_the_pixels() {
    // Logits constant over each 2 x 2 cell: the grid's counts give the pixels' cost exactly.
    const int64_t b = 2, q = 4, c = 3;
    torch::manual_seed(5);
    auto semantic = torch::randint(0, c, {b, 6, 6}).to(torch::kByte);
    semantic[0][1][4] = 255;  // ignored pixels
    semantic[1][5][0] = 255;
    auto targets = segment_targets(semantic, c);
    auto coarse = torch::randn({b, q, 3, 3}) * 3;
    auto fine = coarse.repeat_interleave(2, 2).repeat_interleave(2, 3);  // (B, Q, 6, 6)
    auto probs = torch::rand({b, q, c});
    MaskLossOptions o;
    auto [grid_masks, grid_valid] = targets_on_grid(targets, 3, 3);
    QCOMPARE(grid_masks.sizes(), (torch::IntArrayRef{b, c, 9}));
    // Counts of valid pixels (scatter_add of 0/1 values) held in a float: exact.
    ADALA_COMPARE_EXACT(grid_valid[0][2].item<float>(), 3.f);  // cell (0, 2) holds pixel (1, 4)
    ADALA_COMPARE_EXACT(grid_valid[1][6].item<float>(), 3.f);  // cell (2, 0) holds pixel (5, 0)
    QVERIFY(torch::allclose(grid_masks.sum(1), grid_valid));
    auto on_grid = matching_cost(probs, coarse.reshape({b, q, 9}), grid_masks, grid_valid, o);
    // A grid of the targets' own size counts each pixel: the one-hot masks and valid.
    auto [pixel_masks, pixel_valid] = targets_on_grid(targets, 6, 6);
    QVERIFY(torch::equal(pixel_valid, targets.valid.reshape({b, 36})));
    QVERIFY(torch::equal(
        pixel_masks[1][2],
        targets.masks(torch::tensor({1}, torch::kLong), torch::tensor({2}, torch::kLong))
            .reshape({36})));
    auto at_pixels = matching_cost(probs, fine.reshape({b, q, 36}), pixel_masks, pixel_valid, o);
    QCOMPARE(on_grid.sizes(), (torch::IntArrayRef{b, q, c}));
    QVERIFY2(
        torch::allclose(on_grid, at_pixels, 1e-5, 1e-5),
        qPrintable(
            QString("max difference %1").arg((on_grid - at_pixels).abs().max().item<double>())));
  }

  void mask2former_shapes_and_masked_attention() {
    Mask2FormerOptions o;
    o.embed_dim = 16;
    o.num_levels = 2;
    o.num_classes = 4;
    o.num_queries = 6;
    o.hidden_dim = 32;
    o.num_heads = 4;
    o.num_layers = 3;
    o.ffn_dim = 64;
    o.mask_dim = 32;
    Mask2FormerHead head(o);
    auto out = head->forward({torch::randn({2, 20, 16}), torch::randn({2, 20, 16})}, 4, 5);
    QCOMPARE(out.class_logits.size(), size_t(4));  // init + 3 layers
    QCOMPARE(out.mask_logits.size(), size_t(4));
    QCOMPARE(out.class_logits.back().sizes(), (torch::IntArrayRef{2, 6, 5}));
    QCOMPARE(out.mask_logits.back().sizes(), (torch::IntArrayRef{2, 6, 4, 5}));
    for (const auto& m : out.mask_logits) QVERIFY(torch::isfinite(m).all().item<bool>());
    // A fully blocked row would give NaN: the head unblocks it, so the attention stays finite.
    DecoderAttention attn(8, 2);
    auto blocked = torch::ones({1, 3, 5}, torch::kBool);
    blocked[0][0][2] = false;
    auto q = torch::randn({1, 3, 8}), kv = torch::randn({1, 5, 8});
    auto partly = attn->forward(q, kv, kv, blocked);
    QVERIFY(
        torch::isnan(partly[0][1]).all().item<bool>());  // raw module: an all-blocked row is NaN
    QVERIFY(torch::isfinite(partly[0][0]).all().item<bool>());
    QCOMPARE(sine_position_encoding(4, 5, 32).sizes(), (torch::IntArrayRef{20, 32}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             head->forward({torch::randn({2, 20, 16})}, 4, 5));
    // Upsampled masks: 2x the grid; the cross-attention still sees the grid's tokens.
    o.upsample = 2;
    Mask2FormerHead fine(o);
    auto up = fine->forward({torch::randn({2, 20, 16}), torch::randn({2, 20, 16})}, 4, 5);
    QCOMPARE(up.mask_logits.back().sizes(), (torch::IntArrayRef{2, 6, 8, 10}));
    for (const auto& m : up.mask_logits) QVERIFY(torch::isfinite(m).all().item<bool>());
    o.upsample = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Mask2FormerHead{o});
  }

  void mask2former_loss_falls_when_overfitting_one_batch() {
    // Two 32 x 32 scenes through a frozen random backbone; only the head learns.
    SceneOptions so;
    so.image_size = 32;
    so.min_garments = 2;
    so.max_garments = 3;
    SceneGenerator gen(load_fashion_mnist(default_fashion_mnist_root(), "test", 50), so, 11);
    auto batch = gen.generate(2);
    VisionTransformer vit(vit_preset("fmnist_micro"));
    SegmentationModelOptions mo;
    mo.head = SegmentationHeadKind::Mask2Former;
    mo.num_classes = 11;
    mo.blocks = {1, 2};
    mo.mask2former.num_queries = 12;
    mo.mask2former.hidden_dim = 32;
    mo.mask2former.num_heads = 4;
    mo.mask2former.num_layers = 2;
    mo.mask2former.ffn_dim = 64;
    mo.mask2former.num_points = 256;
    SegmentationModel model(vit, mo);
    model->backbone->eval();
    std::vector<torch::Tensor> feats;
    {
      torch::NoGradGuard g;
      feats = model->features(batch.images);
    }
    torch::optim::AdamW opt(model->trainable(false),
                            torch::optim::AdamWOptions(2e-3).weight_decay(0.0));
    double first = 0, last = 0;
    std::map<std::string, double> extra;
    for (int step = 0; step < 150; ++step) {
      opt.zero_grad();
      auto loss = model->loss(feats, batch.masks, uint64_t(step), &extra);
      QVERIFY(std::isfinite(loss.item<double>()));
      loss.backward();
      opt.step();
      if (step == 0) first = loss.item<double>();
      last = loss.item<double>();
    }
    qInfo("mask2former overfit: loss %.4f -> %.4f", first, last);
    QVERIFY(extra.count("dice") && extra.count("ce") && extra.count("bce"));
    QVERIFY2(last < 0.5 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
    // The overfitted head predicts the two scenes.
    model->eval();
    auto labels = model->predict(batch.images);
    QCOMPARE(labels.sizes(), (torch::IntArrayRef{2, 32, 32}));
    const double acc =
        labels.eq(batch.masks.to(torch::kLong)).to(torch::kFloat).mean().item<double>();
    qInfo("mask2former overfit pixel accuracy %.4f", acc);
    QVERIFY2(acc > 0.9, qPrintable(QString("overfit pixel accuracy %1").arg(acc)));
  }

  void training_loop_scales_the_learning_rate_per_set() {
    // Two parameter sets: the frozen one (scale 0) must not move, the other must.
    torch::nn::Linear a(3, 1), b(3, 1);
    torch::nn::Sequential both(a, b);
    StageConfig c;
    c.epochs = 1;
    c.batch_size = 2;
    c.lr = 0.1;
    c.weight_decay = 0.5;
    TrainingLoopSpec spec{"scaled", c, 8, 0, ""};
    NullSink sink;
    JobControl control;
    auto a0 = a->weight.detach().clone(), b0 = b->weight.detach().clone();
    TrainingLoop loop(spec, *both,
                      TrainingLoop::ScaledParams{{a->parameters(), 0.0}, {b->parameters(), 1.0}},
                      sink, control);
    QCOMPARE(loop.total_steps(), int64_t(4));
    auto x = torch::randn({8, 3});
    loop.run([&](const torch::Tensor& idx, int64_t) {
      StepOutput out;
      auto xi = x.index_select(0, idx);
      out.loss = (a->forward(xi) + b->forward(xi)).pow(2).mean();
      return out;
    });
    QVERIFY(torch::equal(a->weight, a0));
    QVERIFY(!torch::allclose(b->weight, b0));
  }

  void linear_probe_loss_falls() {
    SceneOptions so;
    so.image_size = 32;
    SceneGenerator gen(load_fashion_mnist(default_fashion_mnist_root(), "test", 50), so, 12);
    auto batch = gen.generate(4);
    SegmentationModelOptions mo;
    mo.num_classes = 11;
    SegmentationModel model(VisionTransformer(vit_preset("fmnist_micro")), mo);
    model->train();
    model->backbone->eval();
    std::vector<torch::Tensor> feats;
    {
      torch::NoGradGuard g;
      feats = model->features(batch.images);
    }
    QCOMPARE(model->trainable(false).size(), size_t(4));  // bn weight/bias, conv weight/bias
    QVERIFY(model->trainable(true).size() > 10);
    torch::optim::AdamW opt(model->trainable(false),
                            torch::optim::AdamWOptions(1e-2).weight_decay(0.0));
    double first = 0, last = 0;
    for (int step = 0; step < 60; ++step) {
      opt.zero_grad();
      auto loss = model->loss(feats, batch.masks, 0);
      loss.backward();
      opt.step();
      if (step == 0) first = loss.item<double>();
      last = loss.item<double>();
    }
    qInfo("linear probe: loss %.4f -> %.4f", first, last);
    QVERIFY2(std::fabs(first - std::log(11.0)) < 0.3,
             qPrintable(QString("initial CE %1").arg(first)));
    QVERIFY2(last < 0.6 * first, qPrintable(QString("loss %1 -> %2").arg(first).arg(last)));
  }
};

ADALA_TEST_GUILESS_MAIN(SegHeadsTest)
}  // namespace test_seg_heads

#include "test_seg_heads.moc"
