#pragma once
// A pretrained model re-cut to a larger patch (and another input size): every weight is kept,
// the patch kernel is spread over the larger patch (each weight repeated r x r times, / r^2)
// and the position embeddings are resampled to the new grid. The re-cut model sees an image
// exactly as the original sees it average-pooled by r, so a patch-4 Fashion-MNIST teacher
// becomes a patch-8 backbone for 112 px scenes that starts from what it learned.
#include "engine/model/vision_transformer.h"

namespace adala {

// `to` must differ from the model's config only in img_size and patch_size, with
// to.patch_size an integer multiple of the model's; throws std::invalid_argument otherwise.
VisionTransformer recut_patches(VisionTransformer& from, const ViTConfig& to);

}  // namespace adala
