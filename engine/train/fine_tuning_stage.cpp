#include "engine/train/batch_sampler.h"
#include "engine/train/classification_step.h"
#include "engine/train/stages.h"

namespace adala {

void FineTuningStage::run(VisionTransformer& model, const ImageDataset& train) {
  const auto& cfg = ctx_.config.fine_tuning;
  model->train();
  auto images = train.images.to(ctx_.device);
  auto labels = train.labels.to(ctx_.device);
  // Offset the seed so Stage 3 does not replay Stage 0's batch order.
  const uint64_t seed = uint64_t(ctx_.config.seed) + 3;
  TrainingLoopSpec spec{stage_, cfg, train.size(), seed, ctx_.checkpoint_path(stage_)};
  TrainingLoop loop(spec, *model, trainable_parameters(model, true), ctx_.sink, ctx_.control);
  loop.run([&](const at::Tensor& idx, int64_t step) {
    auto i = idx.to(ctx_.device);
    auto batch = images.index_select(0, i);
    if (cfg.augment) batch = augment_batch(batch, seed, step);
    return classification_step(model, batch, labels.index_select(0, i), cfg.label_smoothing);
  });
  model->eval();
}

}  // namespace adala
