#pragma once
// Mask2Former's set-prediction loss for semantic segmentation. Each image's ground truth is
// one binary mask per class present. Queries are matched one-to-one to those masks by the
// Hungarian method on cost = class_weight * (-p(class)) + mask_weight * BCE + dice_weight * dice;
// then loss = class_weight * CE (unmatched queries -> "no object", weighted no_object_weight)
// + mask_weight * BCE + dice_weight * dice over matched pairs, averaged over the batch's masks,
// summed over every prediction round (deep supervision). Masks are compared at sampled points
// (uniform, shared by matching and loss) or, with num_points = 0, at every pixel. Ignored
// pixels count for no mask.
#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "engine/seg/mask2former_head.h"

namespace adala {

struct SegmentTargets {
  at::Tensor labels;  // (K) int64 class ids
  at::Tensor masks;   // (K, H, W) float {0, 1}
  at::Tensor valid;   // (H, W) float {0, 1}: 0 where the ground truth is ignored
};

// One target set per image of a (B, H, W) semantic mask.
std::vector<SegmentTargets> segment_targets(const at::Tensor& semantic, int64_t num_classes,
                                            int64_t ignore_index = 255);

struct MaskLossOptions {
  double class_weight = 2.0, mask_weight = 5.0, dice_weight = 5.0;
  double no_object_weight = 0.1;
  int64_t num_points = 0;  // 0: every pixel of the target
  bool deep_supervision = true;
};

struct MaskLossValue {
  at::Tensor total;                  // scalar with a graph
  double ce = 0, bce = 0, dice = 0;  // final round's terms (unweighted)
};

// Per target, its query (or -1 when there are more targets than queries).
// class_logits (Q, C + 1); mask_points (Q, P) logits; target_points (K, P); valid (P).
std::vector<int64_t> match_queries(const at::Tensor& class_logits, const at::Tensor& mask_points,
                                   const at::Tensor& target_points, const at::Tensor& valid,
                                   const at::Tensor& labels, const MaskLossOptions& options);

// seed fixes the sampled points (ignored when num_points = 0).
MaskLossValue mask_classification_loss(const Mask2FormerOutput& output,
                                       const std::vector<SegmentTargets>& targets,
                                       const MaskLossOptions& options, uint64_t seed = 0);

}  // namespace adala
