#include "engine/seg/semantic_inference.h"

#include "engine/seg/linear_head.h"

namespace adala {

at::Tensor semantic_scores(const at::Tensor& class_logits, const at::Tensor& mask_logits,
                           int64_t out_h, int64_t out_w) {
  const int64_t c = class_logits.size(-1) - 1;
  auto probs = class_logits.softmax(-1).narrow(-1, 0, c);             // (B, Q, C)
  auto masks = resize_bilinear(mask_logits, out_h, out_w).sigmoid();  // (B, Q, H, W)
  const auto b = masks.size(0), q = masks.size(1);
  auto scores = at::bmm(probs.transpose(1, 2), masks.reshape({b, q, out_h * out_w}));
  return scores.view({b, c, out_h, out_w});
}

at::Tensor semantic_labels(const at::Tensor& class_logits, const at::Tensor& mask_logits,
                           int64_t out_h, int64_t out_w) {
  return semantic_scores(class_logits, mask_logits, out_h, out_w).argmax(1);
}

}  // namespace adala
