#include "engine/seg/mask_classification_loss.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/functional/vision.h>

#include "engine/seg/hungarian.h"
#include "engine/seg/linear_head.h"

namespace adala {

namespace {

namespace F = torch::nn::functional;

// The P points of every image (B, P, 2) in [0, 1): num_points uniform ones drawn from
// (seed, image), so that they do not depend on the batch an image is in.
at::Tensor sample_uv(int64_t batch, int64_t num_points, uint64_t seed, const at::Device& device) {
  std::vector<at::Tensor> uv;
  for (int64_t i = 0; i < batch; ++i) {
    at::Generator g = at::detail::createCPUGenerator(seed * 1000003ull + uint64_t(i));
    uv.push_back(at::rand({num_points, 2}, g, at::TensorOptions().dtype(at::kFloat)));
  }
  return at::stack(uv).to(device);
}

// Where matched masks are compared: predictions (M, P) logits, targets (M, P), valid (M, P).
struct PointSet {
  at::Tensor pred, target, valid;
};

// masks (M, h, w): the matched queries' logits; target (M, H, W): their targets' masks;
// valid (M, H, W) and uv (M, P, 2) of their images (uv undefined: every pixel).
PointSet compare_at(const at::Tensor& masks, const at::Tensor& target, const at::Tensor& valid,
                    const at::Tensor& uv) {
  const int64_t m = masks.size(0), h = target.size(1), w = target.size(2);
  PointSet s;
  if (!uv.defined()) {  // every target pixel: the predictions resized to the target size
    s.pred = resize_bilinear(masks.unsqueeze(1), h, w).reshape({m, h * w});
    s.target = target.reshape({m, h * w});
    s.valid = valid.reshape({m, h * w});
    return s;
  }
  const int64_t p = uv.size(1);
  // Bilinear sampling of the prediction at the point, nearest pixel of the target.
  auto grid = (uv * 2 - 1).view({m, 1, p, 2});
  s.pred = F::grid_sample(masks.unsqueeze(1), grid,
                          F::GridSampleFuncOptions().mode(torch::kBilinear).align_corners(false))
               .view({m, p});
  auto px = (uv.select(2, 0) * float(w)).floor().clamp(0, w - 1).to(at::kLong);
  auto py = (uv.select(2, 1) * float(h)).floor().clamp(0, h - 1).to(at::kLong);
  auto flat = py * w + px;  // (M, P)
  s.target = target.reshape({m, h * w}).gather(1, flat);
  s.valid = valid.reshape({m, h * w}).gather(1, flat);
  return s;
}

// Each class's valid pixels per cell: (B, C * cells), pixel p of image b in cell[p].
// An ignored pixel adds 0 (to the last class).
at::Tensor class_counts(const at::Tensor& semantic, const at::Tensor& valid, int64_t num_classes,
                        const at::Tensor& cell, int64_t cells) {
  const int64_t b = semantic.size(0);
  auto cls = semantic.reshape({b, -1}).clamp(0, num_classes - 1);
  return at::zeros({b, num_classes * cells}, valid.options())
      .scatter_add_(1, cls * cells + cell.expand({b, -1}), valid.reshape({b, -1}));
}

}  // namespace

at::Tensor matching_cost(const at::Tensor& class_probs, const at::Tensor& pred,
                         const at::Tensor& target, const at::Tensor& valid,
                         const MaskLossOptions& o) {
  auto v = valid.unsqueeze(1);                             // (B, 1, P)
  auto n = valid.sum(-1).clamp_min(1.0).view({-1, 1, 1});  // (B, 1, 1)
  auto tt = target.transpose(1, 2);                        // (B, P, K)
  // BCE against t is softplus(x) - x t: summed over points, one softplus and one product.
  auto bce = (F::softplus(pred).mul(v).sum(-1, true) - at::bmm(pred, tt)) / n;
  auto p = pred.sigmoid();
  auto dice = 1 - (2 * at::bmm(p, tt) + 1) /
                      (p.mul(v).sum(-1).unsqueeze(2) + target.sum(-1).unsqueeze(1) + 1);
  return -o.class_weight * class_probs + o.mask_weight * bce + o.dice_weight * dice;
}

std::pair<at::Tensor, at::Tensor> targets_on_grid(const SegmentTargets& t, int64_t h, int64_t w) {
  const int64_t b = t.semantic.size(0), c = t.num_classes();
  const int64_t th = t.semantic.size(1), tw = t.semantic.size(2);
  const auto long_on = t.semantic.options().dtype(at::kLong);
  auto rows = at::arange(th, long_on).mul(h).div(th, "floor");
  auto cols = at::arange(tw, long_on).mul(w).div(tw, "floor");
  auto cell = (rows.view({th, 1}) * w + cols.view({1, tw})).view({1, th * tw});  // (1, H W)
  auto valid = t.valid.reshape({b, th * tw});
  auto valid_counts =
      at::zeros({b, h * w}, valid.options()).scatter_add_(1, cell.expand({b, -1}), valid);
  auto counts = class_counts(t.semantic, valid, c, cell, h * w);
  return {counts.view({b, c, h * w}), valid_counts};
}

std::vector<int64_t> assign_queries(const at::Tensor& cost_kq) {
  const int64_t k = cost_kq.size(0), q = cost_kq.size(1);
  if (k == 0) return {};
  auto rows = cost_kq.contiguous();
  std::vector<double> c(rows.data_ptr<double>(), rows.data_ptr<double>() + k * q);
  return solve_assignment(c, k, q);
}

at::Tensor SegmentTargets::labels(int64_t b) const { return present[b].nonzero().view({-1}); }

at::Tensor SegmentTargets::masks(const at::Tensor& images, const at::Tensor& classes) const {
  return semantic.index_select(0, images).eq(classes.view({-1, 1, 1})).to(at::kFloat);
}

SegmentTargets segment_targets(const at::Tensor& semantic, int64_t num_classes,
                               int64_t ignore_index) {
  if (semantic.dim() != 3) throw std::invalid_argument("segment_targets: expected (B, H, W) masks");
  SegmentTargets t;
  t.semantic = semantic.to(at::kLong);
  t.valid = t.semantic.ne(ignore_index).to(at::kFloat);
  auto every_pixel_in_one_cell = at::zeros({1, t.semantic[0].numel()}, t.semantic.options());
  // One copy to the host for the batch, not one per image when the loss asks for its labels.
  t.present =
      class_counts(t.semantic, t.valid, num_classes, every_pixel_in_one_cell, 1).gt(0).cpu();
  return t;
}

MaskLossValue mask_classification_loss(const Mask2FormerOutput& output,
                                       const SegmentTargets& targets, const MaskLossOptions& o,
                                       uint64_t seed) {
  if (output.class_logits.empty())
    throw std::invalid_argument("mask_classification_loss: no predictions");
  const int64_t b = output.class_logits.back().size(0), q = output.class_logits.back().size(1);
  const int64_t c = output.class_logits.back().size(2) - 1;
  if (targets.semantic.size(0) != b)
    throw std::invalid_argument("mask_classification_loss: batch size mismatch");
  if (targets.num_classes() != c)
    throw std::invalid_argument("mask_classification_loss: the targets have " +
                                std::to_string(targets.num_classes()) +
                                " classes, the predictions " + std::to_string(c));
  auto device = output.class_logits.back().device();
  auto weight = at::ones({c + 1}, at::TensorOptions().dtype(at::kFloat).device(device));
  weight[c] = o.no_object_weight;
  const double norm = double(std::max<int64_t>(targets.present.sum().item<int64_t>(), 1));
  std::vector<at::Tensor> labels;
  for (int64_t i = 0; i < b; ++i) labels.push_back(targets.labels(i));
  const int64_t h = output.mask_logits.back().size(2), w = output.mask_logits.back().size(3);
  const int64_t th = targets.valid.size(1), tw = targets.valid.size(2);
  // Queries are matched on the mask grid (the targets' pixel counts per cell), which costs
  // 1/16 of matching at the pixels of a 4x finer target; the loss is taken at the pixels. A
  // grid not coarser than the targets: matched at the pixels, the masks resized to them.
  const bool coarser = h < th || w < tw;
  const int64_t gh = coarser ? h : th, gw = coarser ? w : tw;
  const auto [grid_masks, grid_valid] = targets_on_grid(targets, gh, gw);
  const at::Tensor uv = o.num_points > 0 ? sample_uv(b, o.num_points, seed, device) : at::Tensor();
  const auto long_on = at::TensorOptions().dtype(at::kLong);

  const size_t rounds = output.class_logits.size();
  const size_t first = o.deep_supervision ? 0 : rounds - 1;
  MaskLossValue value;
  at::Tensor total;
  for (size_t r = first; r < rounds; ++r) {
    const auto& cls = output.class_logits[r];
    const auto& masks = output.mask_logits[r];
    at::Tensor cost;  // (B, C, Q) on the CPU: the targets pick queries
    {
      torch::NoGradGuard no_grad;
      auto probs = cls.detach().softmax(-1).narrow(2, 0, c);
      auto pred = coarser ? masks.detach() : resize_bilinear(masks.detach(), gh, gw);
      cost = matching_cost(probs, pred.reshape({b, q, gh * gw}), grid_masks, grid_valid, o)
                 .transpose(1, 2)
                 .to(at::kDouble)
                 .cpu();
    }
    // Matched pairs: rows of the flattened (B Q) predictions, their images and classes.
    std::vector<int64_t> query_rows, classes, images;
    auto target_classes = at::full({b * q}, c, long_on);
    auto* tc = target_classes.data_ptr<int64_t>();
    for (int64_t i = 0; i < b; ++i) {
      const auto& l = labels[size_t(i)];
      auto match = assign_queries(cost[i].index_select(0, l));
      for (size_t k = 0; k < match.size(); ++k) {
        if (match[k] < 0) continue;
        const int64_t cls_id = l[int64_t(k)].item<int64_t>();
        query_rows.push_back(i * q + match[k]);
        classes.push_back(cls_id);
        images.push_back(i);
        tc[i * q + match[k]] = cls_id;
      }
    }
    auto ce = F::cross_entropy(cls.reshape({b * q, c + 1}), target_classes.to(device),
                               F::CrossEntropyFuncOptions().weight(weight));
    at::Tensor bce = at::zeros({}, ce.options()), dice = at::zeros({}, ce.options());
    if (!query_rows.empty()) {
      auto rows = [&](const std::vector<int64_t>& v) { return at::tensor(v, long_on).to(device); };
      const auto image_rows = rows(images);
      PointSet s = compare_at(masks.reshape({b * q, h, w}).index_select(0, rows(query_rows)),
                              targets.masks(image_rows, rows(classes)),
                              targets.valid.index_select(0, image_rows),
                              uv.defined() ? uv.index_select(0, image_rows) : uv);
      auto per_point = F::binary_cross_entropy_with_logits(
          s.pred, s.target, F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kNone));
      bce = ((per_point * s.valid).sum(1) / s.valid.sum(1).clamp_min(1.0)).sum() / norm;
      auto prob = s.pred.sigmoid() * s.valid;
      auto d = 1 - (2 * (prob * s.target).sum(1) + 1) / (prob.sum(1) + s.target.sum(1) + 1);
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
