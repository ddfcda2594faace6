#include "engine/train/stages.h"

namespace adala {

void FineTuningStage::run(VisionTransformer& model, const StageData& train) {
  const auto& cfg = ctx_.config.fine_tuning;
  model->train();
  // Offset the seed so Stage 3 does not replay Stage 0's batch order.
  const uint64_t seed = uint64_t(ctx_.config.seed) + 3;
  train_classifier(ctx_, stage_, model, train, cfg, seed);
  model->eval();
}

void FineTuningStage::run(VisionTransformer& model, const ImageDataset& train) {
  run(model, in_memory_stage_data(train.images, train.labels));
}

}  // namespace adala
