#pragma once
// ViT-AdaLA's Stages 1 and 2 on the segmentation images themselves (the training split's
// images, labels unused), so that the student is aligned on the inputs it will segment: the
// teacher is frozen; Stage 1 trains a clone's linear attention per block, Stage 2 the whole
// student against the teacher's final features. Optimisation from the config's
// stages.attention_alignment / stages.feature_alignment.
#include <vector>

#include "engine/model/vision_transformer.h"
#include "engine/train/stage_context.h"

namespace adala {

// images: (N, 3, H, W) RGB in [0, 1] (converted to the backbone's channels here).
// stages: a non-empty subset of {1, 2}. Returns the student in its attention plan.
VisionTransformer adapt_student_on_images(StageContext& ctx, VisionTransformer& teacher,
                                          const at::Tensor& images, const std::vector<int>& stages);

}  // namespace adala
