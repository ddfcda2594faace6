#include "engine/train/classification_step.h"

#include <torch/nn/functional/loss.h>

namespace adala {

StepOutput classification_step(VisionTransformer& model, const at::Tensor& images,
                               const at::Tensor& labels, double label_smoothing) {
  namespace F = torch::nn::functional;
  auto logits = model->forward(images);
  StepOutput out;
  out.loss = F::cross_entropy(logits, labels,
                              F::CrossEntropyFuncOptions().label_smoothing(label_smoothing));
  out.extra["train_acc"] = logits.argmax(1).eq(labels).to(at::kFloat).mean().item<double>();
  return out;
}

}  // namespace adala
