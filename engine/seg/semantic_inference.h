#pragma once
// Mask2Former's semantic inference: per-pixel class scores = sum over queries of
// softmax(class logits)[:C] (no-object dropped) x sigmoid(mask logits), then argmax.
#include <ATen/ATen.h>

namespace adala {

// class_logits (B, Q, C + 1), mask_logits (B, Q, h, w) -> (B, C, out_h, out_w) scores; the
// masks are resized bilinearly to (out_h, out_w) before the sigmoid.
at::Tensor semantic_scores(const at::Tensor& class_logits, const at::Tensor& mask_logits,
                           int64_t out_h, int64_t out_w);
// argmax over C: (B, out_h, out_w) int64.
at::Tensor semantic_labels(const at::Tensor& class_logits, const at::Tensor& mask_logits,
                           int64_t out_h, int64_t out_w);

}  // namespace adala
