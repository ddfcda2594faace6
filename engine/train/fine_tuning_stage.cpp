#include "engine/train/batch_sampler.h"
#include "engine/train/classification_step.h"
#include "engine/train/stages.h"

namespace adala {

void FineTuningStage::run(VisionTransformer& model, const StageData& train) {
  const auto& cfg = ctx_.config.fine_tuning;
  model->train();
  // Offset the seed so Stage 3 does not replay Stage 0's batch order.
  const uint64_t seed = uint64_t(ctx_.config.seed) + 3;
  TrainingLoopSpec spec{stage_, cfg, train.size(), seed, ctx_.checkpoint_path(stage_)};
  TrainingLoop loop(spec, *model, trainable_parameters(model, true), ctx_.sink, ctx_.control);
  auto loader = make_training_loader(train, cfg.batch_size, seed, cfg.augment, loop.total_steps());
  loop.run([&](const at::Tensor&, int64_t step) {
    Batch b = loader->batch(step);
    auto batch = b.images.to(ctx_.device);
    if (cfg.augment && train.transform.preprocess == "none")
      batch = augment_batch(batch, seed, step);
    StepOutput out =
        classification_step(model, batch, b.labels.to(ctx_.device), cfg.label_smoothing);
    out.data_wait_seconds = b.wait_seconds;
    return out;
  });
  log_skipped_images(ctx_, stage_, *loader);
  model->eval();
}

void FineTuningStage::run(VisionTransformer& model, const ImageDataset& train) {
  run(model, in_memory_stage_data(train.images, train.labels));
}

}  // namespace adala
