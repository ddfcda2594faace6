#include "engine/train/stages.h"

namespace adala {

void TeacherPretrainingStage::run(VisionTransformer& teacher, const StageData& train) {
  const auto& cfg = ctx_.config.teacher;
  teacher->set_attention_mode(AttentionMode::Softmax);
  teacher->train();
  const uint64_t seed = uint64_t(ctx_.config.seed);
  train_classifier(ctx_, stage_name(0), teacher, train, cfg, seed);
  // The linear branch starts as a copy of the trained softmax weights.
  teacher->init_linear_from_softmax();
  teacher->eval();
}

void TeacherPretrainingStage::run(VisionTransformer& teacher, const ImageDataset& train) {
  run(teacher, in_memory_stage_data(train.images, train.labels));
}

}  // namespace adala
