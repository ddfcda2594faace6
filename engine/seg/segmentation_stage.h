#pragma once
// Stage 3 for dense prediction: trains a segmentation head on a backbone (teacher or
// ViT-AdaLA student alike) through the shared TrainingLoop. With a frozen backbone
// (segmentation.train_backbone = false, DINOv2's linear-probe protocol) the features of the
// training images are computed once and cached in float16; otherwise every step runs the
// backbone and its own trainable weights update too, at backbone_lr_scale x the head's lr.
#include <string>

#include "engine/data/segmentation_dataset.h"
#include "engine/seg/segmentation_model.h"
#include "engine/train/stage_context.h"

namespace adala {

class SegmentationStage {
 public:
  // stage: the name in events (e.g. "segmentation_linear_teacher").
  SegmentationStage(StageContext& ctx, std::string stage) : ctx_(ctx), stage_(std::move(stage)) {}
  void run(SegmentationModel& model, const SegmentationDataset& train);

 private:
  StageContext& ctx_;
  std::string stage_;
};

// Feature levels of a whole split, float16 on the CPU: one (N, tokens, D) tensor per level.
std::vector<at::Tensor> cache_features(SegmentationModel& model, const at::Tensor& images,
                                       const c10::Device& device, int64_t batch_size);

}  // namespace adala
