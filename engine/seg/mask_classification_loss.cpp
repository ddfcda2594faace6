#include "engine/seg/mask_classification_loss.h"

#include <stdexcept>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/vision.h>

#include "engine/seg/hungarian.h"
#include "engine/seg/linear_head.h"

namespace adala {

namespace {

namespace F = torch::nn::functional;

// Where one image's masks are compared: predictions (Q, P) logits, targets (K, P), valid (P).
struct PointSet {
  at::Tensor pred, target, valid;
};

PointSet sample_points(const at::Tensor& mask_logits, const SegmentTargets& t, int64_t num_points,
                       at::Generator& gen) {
  const int64_t h = t.valid.size(0), w = t.valid.size(1), k = t.labels.size(0);
  const int64_t q = mask_logits.size(0);
  PointSet s;
  if (num_points <= 0) {  // every target pixel: the predictions resized to the target size
    s.pred = resize_bilinear(mask_logits.unsqueeze(0), h, w).reshape({q, h * w});
    s.target = t.masks.reshape({k, h * w});
    s.valid = t.valid.reshape({h * w});
    return s;
  }
  auto uv = at::rand({num_points, 2}, gen, at::TensorOptions().dtype(at::kFloat))
                .to(mask_logits.device());
  // Bilinear sampling of the prediction at the point, nearest pixel of the target.
  auto grid = (uv * 2 - 1).view({1, 1, num_points, 2});
  s.pred = F::grid_sample(mask_logits.unsqueeze(0), grid,
                          F::GridSampleFuncOptions().mode(torch::kBilinear).align_corners(false))
               .view({q, num_points});
  auto px = (uv.select(1, 0) * float(w)).floor().clamp(0, w - 1).to(at::kLong);
  auto py = (uv.select(1, 1) * float(h)).floor().clamp(0, h - 1).to(at::kLong);
  auto flat = py * w + px;
  s.target = t.masks.reshape({k, h * w}).index_select(1, flat);
  s.valid = t.valid.reshape({h * w}).index_select(0, flat);
  return s;
}

// (Q, K) mean BCE over valid points between every prediction and every target.
at::Tensor pairwise_bce(const at::Tensor& pred, const at::Tensor& target, const at::Tensor& valid) {
  auto pos = F::softplus(-pred) * valid;  // -log sigmoid(x): loss against 1
  auto neg = F::softplus(pred) * valid;   // -log(1 - sigmoid(x)): loss against 0
  auto n = valid.sum().clamp_min(1.0);
  return (at::matmul(pos, target.t()) + at::matmul(neg, (1 - target).t())) / n;
}

at::Tensor pairwise_dice(const at::Tensor& pred, const at::Tensor& target,
                         const at::Tensor& valid) {
  auto p = pred.sigmoid() * valid;
  auto num = 2 * at::matmul(p, target.t());
  auto den = p.sum(-1).unsqueeze(1) + target.sum(-1).unsqueeze(0);
  return 1 - (num + 1) / (den + 1);
}

}  // namespace

std::vector<SegmentTargets> segment_targets(const at::Tensor& semantic, int64_t num_classes,
                                            int64_t ignore_index) {
  if (semantic.dim() != 3) throw std::invalid_argument("segment_targets: expected (B, H, W) masks");
  std::vector<SegmentTargets> out;
  auto classes = at::arange(num_classes, semantic.options().dtype(at::kLong));
  for (int64_t b = 0; b < semantic.size(0); ++b) {
    auto m = semantic[b].to(at::kLong);
    SegmentTargets t;
    t.valid = m.ne(ignore_index).to(at::kFloat);
    auto onehot = m.unsqueeze(0).eq(classes.view({num_classes, 1, 1}));  // (C, H, W)
    auto present = onehot.flatten(1).any(1).nonzero().view({-1});
    t.labels = present;
    t.masks = onehot.index_select(0, present).to(at::kFloat);
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<int64_t> match_queries(const at::Tensor& class_logits, const at::Tensor& mask_points,
                                   const at::Tensor& target_points, const at::Tensor& valid,
                                   const at::Tensor& labels, const MaskLossOptions& o) {
  torch::NoGradGuard no_grad;
  const int64_t k = labels.size(0), q = class_logits.size(0);
  if (k == 0) return {};
  auto pred = mask_points.to(at::kFloat), tgt = target_points.to(at::kFloat),
       val = valid.to(at::kFloat);
  auto class_cost = -class_logits.softmax(-1).index_select(1, labels);  // (Q, K)
  auto cost = o.class_weight * class_cost + o.mask_weight * pairwise_bce(pred, tgt, val) +
              o.dice_weight * pairwise_dice(pred, tgt, val);
  auto rows = cost.t().contiguous().to(at::kDouble).cpu();  // (K, Q): targets pick queries
  std::vector<double> c(rows.data_ptr<double>(), rows.data_ptr<double>() + k * q);
  return solve_assignment(c, k, q);
}

MaskLossValue mask_classification_loss(const Mask2FormerOutput& output,
                                       const std::vector<SegmentTargets>& targets,
                                       const MaskLossOptions& o, uint64_t seed) {
  if (output.class_logits.empty())
    throw std::invalid_argument("mask_classification_loss: no predictions");
  const int64_t b = output.class_logits.back().size(0), q = output.class_logits.back().size(1);
  const int64_t c = output.class_logits.back().size(2) - 1;
  if (int64_t(targets.size()) != b)
    throw std::invalid_argument("mask_classification_loss: batch size mismatch");
  auto device = output.class_logits.back().device();
  auto weight = at::ones({c + 1}, at::TensorOptions().dtype(at::kFloat).device(device));
  weight[c] = o.no_object_weight;
  int64_t num_masks = 0;
  for (const auto& t : targets) num_masks += t.labels.size(0);
  const double norm = double(std::max<int64_t>(num_masks, 1));

  const size_t rounds = output.class_logits.size();
  const size_t first = o.deep_supervision ? 0 : rounds - 1;
  MaskLossValue value;
  at::Tensor total;
  for (size_t r = first; r < rounds; ++r) {
    const auto& cls = output.class_logits[r];
    const auto& masks = output.mask_logits[r];
    auto target_classes = at::full({b, q}, c, at::TensorOptions().dtype(at::kLong).device(device));
    std::vector<at::Tensor> pred_pts, tgt_pts, val_pts;
    for (int64_t i = 0; i < b; ++i) {
      const auto& t = targets[size_t(i)];
      if (t.labels.size(0) == 0) continue;
      // Same points for every round of one image: re-seed from (seed, image).
      at::Generator g = at::detail::createCPUGenerator(seed * 1000003ull + uint64_t(i));
      PointSet s = sample_points(masks[i], t, o.num_points, g);
      auto match = match_queries(cls[i].detach(), s.pred.detach(), s.target, s.valid, t.labels, o);
      std::vector<int64_t> qi, ti;
      for (size_t k = 0; k < match.size(); ++k)
        if (match[k] >= 0) qi.push_back(match[k]), ti.push_back(int64_t(k));
      if (qi.empty()) continue;
      auto qidx = at::tensor(qi, at::kLong).to(device), tidx = at::tensor(ti, at::kLong).to(device);
      target_classes[i].index_put_({qidx}, t.labels.index_select(0, tidx));
      pred_pts.push_back(s.pred.index_select(0, qidx));
      tgt_pts.push_back(s.target.index_select(0, tidx));
      val_pts.push_back(s.valid.unsqueeze(0).expand({int64_t(qi.size()), -1}));
    }
    auto ce = F::cross_entropy(cls.reshape({b * q, c + 1}), target_classes.view({-1}),
                               F::CrossEntropyFuncOptions().weight(weight));
    at::Tensor bce = at::zeros({}, ce.options()), dice = at::zeros({}, ce.options());
    if (!pred_pts.empty()) {
      auto p = at::cat(pred_pts), t = at::cat(tgt_pts), v = at::cat(val_pts);
      auto per_point = F::binary_cross_entropy_with_logits(
          p, t, F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kNone));
      bce = ((per_point * v).sum(1) / v.sum(1).clamp_min(1.0)).sum() / norm;
      auto prob = p.sigmoid() * v;
      auto d = 1 - (2 * (prob * t).sum(1) + 1) / (prob.sum(1) + t.sum(1) + 1);
      dice = d.sum() / norm;
    }
    auto round_loss = o.class_weight * ce + o.mask_weight * bce + o.dice_weight * dice;
    total = total.defined() ? total + round_loss : round_loss;
    if (r + 1 == rounds) {
      value.ce = ce.item<double>();
      value.bce = bce.item<double>();
      value.dice = dice.item<double>();
    }
  }
  value.total = total;
  return value;
}

}  // namespace adala
