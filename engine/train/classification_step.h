#pragma once
#include <ATen/ATen.h>

#include "engine/model/vision_transformer.h"
#include "engine/train/training_loop.h"

namespace adala {

// Cross-entropy (with label smoothing) of one labelled batch; reports the batch accuracy.
StepOutput classification_step(VisionTransformer& model, const at::Tensor& images,
                               const at::Tensor& labels, double label_smoothing);

}  // namespace adala
