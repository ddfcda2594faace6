#pragma once
// Mask2Former's set-prediction loss for semantic segmentation. Each image's ground truth is
// one binary mask per class present. Queries are matched one-to-one to those masks by the
// Hungarian method on cost = class_weight * (-p(class)) + mask_weight * BCE + dice_weight * dice;
// then loss = class_weight * CE (unmatched queries -> "no object", weighted no_object_weight)
// + mask_weight * BCE + dice_weight * dice over matched pairs, averaged over the batch's masks,
// summed over every prediction round (deep supervision). The matching compares masks on the
// predicted mask grid (the targets' pixel counts per cell); the loss compares the matched masks
// at sampled points (uniform) or, with num_points = 0, at every pixel. Ignored pixels count
// for no mask. The batch is compared at once; only the assignment is solved per image.
#include <ATen/ATen.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/seg/mask2former_head.h"

namespace adala {

// A batch's ground truth: one mask per class present in an image, kept as the semantic map
// (a one-hot copy would take C x the map's memory: 2.5 GB for ADE20K's 150 classes at 512 px
// and batch 16).
struct SegmentTargets {
  at::Tensor semantic;  // (B, H, W) int64 class ids, ignore_index where ignored
  at::Tensor present;   // (B, C) bool, CPU: class c has a mask in image b (read on the host)
  at::Tensor valid;     // (B, H, W) float {0, 1}: 0 where the ground truth is ignored

  int64_t num_classes() const { return present.size(1); }
  // Image b's classes with a mask, ascending (its targets, in matching order).
  at::Tensor labels(int64_t b) const;
  // (M, H, W) float {0, 1}: the mask of class classes[m] in image images[m].
  at::Tensor masks(const at::Tensor& images, const at::Tensor& classes) const;
};

// The targets of a (B, H, W) semantic mask.
SegmentTargets segment_targets(const at::Tensor& semantic, int64_t num_classes,
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

// (B, Q, K) matching cost of every query against every target: class_weight * -p(class)
// + mask_weight * mean BCE over valid pixels + dice_weight * dice. class_probs (B, Q, K):
// each query's probability of each target's class; pred (B, Q, P) logits; target (B, K, P)
// and valid (B, P) count the target's and the valid pixels at each point: 0/1 per pixel, or
// the pixel counts of the cells of a coarser grid (then the cost is the pixels' cost wherever
// a logit is constant over its cell). target must be 0 wherever valid is.
at::Tensor matching_cost(const at::Tensor& class_probs, const at::Tensor& pred,
                         const at::Tensor& target, const at::Tensor& valid,
                         const MaskLossOptions& options);

// Each class's and the valid pixels' counts per cell of an (h, w) grid laid over the targets
// (pixel (y, x) in cell (y h / H, x w / W)): (B, C, h w) and (B, h w).
std::pair<at::Tensor, at::Tensor> targets_on_grid(const SegmentTargets& targets, int64_t h,
                                                  int64_t w);

// Per target (row of cost, K x Q, CPU double), the query of the cheapest one-to-one
// assignment, or -1 when there are more targets than queries.
std::vector<int64_t> assign_queries(const at::Tensor& cost);

// seed fixes the sampled points (ignored when num_points = 0).
MaskLossValue mask_classification_loss(const Mask2FormerOutput& output,
                                       const SegmentTargets& targets,
                                       const MaskLossOptions& options, uint64_t seed = 0);

}  // namespace adala
