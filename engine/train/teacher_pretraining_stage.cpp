#include "engine/train/batch_sampler.h"
#include "engine/train/classification_step.h"
#include "engine/train/stages.h"

namespace adala {

void TeacherPretrainingStage::run(VisionTransformer& teacher, const StageData& train) {
  const auto& cfg = ctx_.config.teacher;
  teacher->set_attention_mode(AttentionMode::Softmax);
  teacher->train();
  const uint64_t seed = uint64_t(ctx_.config.seed);
  TrainingLoopSpec spec{stage_name(0), cfg, train.size(), seed,
                        ctx_.checkpoint_path(stage_name(0))};
  TrainingLoop loop(spec, *teacher, trainable_parameters(teacher, true), ctx_.sink, ctx_.control);
  auto loader = make_training_loader(train, cfg.batch_size, seed, cfg.augment, loop.total_steps());
  loop.run([&](const at::Tensor&, int64_t step) {
    Batch b = loader->batch(step);
    auto batch = b.images.to(ctx_.device);
    // Images used as they are get the shift-and-flip augmentation; timm's crops are per sample.
    if (cfg.augment && train.transform.preprocess == "none")
      batch = augment_batch(batch, seed, step);
    StepOutput out =
        classification_step(teacher, batch, b.labels.to(ctx_.device), cfg.label_smoothing);
    out.data_wait_seconds = b.wait_seconds;
    return out;
  });
  log_skipped_images(ctx_, stage_name(0), *loader);
  // The linear branch starts as a copy of the trained softmax weights.
  teacher->init_linear_from_softmax();
  teacher->eval();
}

void TeacherPretrainingStage::run(VisionTransformer& teacher, const ImageDataset& train) {
  run(teacher, in_memory_stage_data(train.images, train.labels));
}

}  // namespace adala
