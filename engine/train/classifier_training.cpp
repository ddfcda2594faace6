#include "engine/train/batch_sampler.h"
#include "engine/train/classification_step.h"
#include "engine/train/stages.h"

namespace adala {

void train_classifier(StageContext& ctx, const std::string& stage, VisionTransformer& model,
                      const StageData& train, const StageConfig& cfg, uint64_t seed) {
  train_classifier(ctx, stage, model, train, cfg, seed, trainable_parameters(model, true));
}

void train_classifier(StageContext& ctx, const std::string& stage, VisionTransformer& model,
                      const StageData& train, const StageConfig& cfg, uint64_t seed,
                      std::vector<at::Tensor> params) {
  const TrainingLoopSpec spec = stage_loop_spec(ctx, stage, cfg, train.size(), seed);
  const RankSlice slice =
      rank_slice(cfg.batch_size, spec.parallel, "stages." + stage + ".batch_size");
  TrainingLoop loop(spec, *model, std::move(params), ctx.sink, ctx.control);
  auto loader = make_training_loader(for_device(train, ctx.device), cfg.batch_size, seed,
                                     cfg.augment, loop.total_steps(), slice);
  loop.run([&](const at::Tensor&, int64_t step) {
    Batch b = loader->batch(step);
    auto batch = to_device(b.images, ctx.device);
    // Images used as they are get the shift-and-flip augmentation; timm's crops are per sample.
    if (cfg.augment && train.transform.preprocess == "none")
      batch = augment_batch(batch, seed, step, 2, slice.first);
    StepOutput out =
        classification_step(model, batch, to_device(b.labels, ctx.device), cfg.label_smoothing);
    out.data_wait_seconds = b.wait_seconds;
    return out;
  });
  log_skipped_images(ctx, stage, *loader);
}

}  // namespace adala
