#include "engine/train/batch_sampler.h"
#include "engine/train/classification_step.h"
#include "engine/train/stages.h"

namespace adala {

void TeacherPretrainingStage::run(VisionTransformer& teacher, const ImageDataset& train) {
  const auto& cfg = ctx_.config.teacher;
  teacher->set_attention_mode(AttentionMode::Softmax);
  teacher->train();
  auto images = train.images.to(ctx_.device);
  auto labels = train.labels.to(ctx_.device);
  TrainingLoopSpec spec{stage_name(0), cfg, train.size(), uint64_t(ctx_.config.seed), ctx_.checkpoint_path(stage_name(0))};
  TrainingLoop loop(spec, *teacher, trainable_parameters(teacher, true), ctx_.sink, ctx_.control);
  loop.run([&](const at::Tensor& idx, int64_t step) {
    auto i = idx.to(ctx_.device);
    auto batch = images.index_select(0, i);
    if (cfg.augment) batch = augment_batch(batch, uint64_t(ctx_.config.seed), step);
    return classification_step(teacher, batch, labels.index_select(0, i), cfg.label_smoothing);
  });
  // The linear branch starts as a copy of the trained softmax weights.
  teacher->init_linear_from_softmax();
  teacher->eval();
}

}  // namespace adala
