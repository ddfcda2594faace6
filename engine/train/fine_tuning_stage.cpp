#include "engine/model/vit_lora.h"
#include "engine/train/requires_grad_restorer.h"
#include "engine/train/stages.h"

namespace adala {

void FineTuningStage::run(VisionTransformer& model, const StageData& train) {
  const auto& cfg = ctx_.config.fine_tuning;
  model->train();
  // Offset the seed so Stage 3 does not replay Stage 0's batch order.
  const uint64_t seed = uint64_t(ctx_.config.seed) + 3;
  if (ctx_.config.method != LinearisationMethod::Lolcats) {
    train_classifier(ctx_, stage_, model, train, cfg, seed);
    model->eval();
    return;
  }
  // LoLCATs: LoRA on the linear attention's projections and the head; everything else frozen.
  add_linear_attention_lora(model, ctx_.config.lora_rank, ctx_.config.lora_alpha);
  {
    const RequiresGradRestorer restore_requires_grad(model->parameters());
    std::vector<at::Tensor> params = linear_attention_lora_parameters(model);
    if (model->head)
      for (auto& p : model->head->parameters()) params.push_back(p);
    train_only(model->parameters(), params);
    ctx_.log(stage_ + ": LoRA rank " + std::to_string(ctx_.config.lora_rank) + " on q/k/v and " +
             "proj of " + std::to_string(model->depth()) + " blocks + the head: " +
             std::to_string(params.size()) + " trained tensors, the rest frozen");
    train_classifier(ctx_, stage_, model, train, cfg, seed, std::move(params));
  }
  merge_linear_attention_lora(model);
  model->eval();
}

void FineTuningStage::run(VisionTransformer& model, const ImageDataset& train) {
  run(model, in_memory_stage_data(train.images, train.labels));
}

}  // namespace adala
