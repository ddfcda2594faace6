#include <ATen/record_function.h>
#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>

#include "engine/kernels/softmax_attention_heads.h"
#include "engine/train/requires_grad_restorer.h"
#include "engine/train/stages.h"

namespace adala {

StepOutput FeatureAlignmentStage::loss(VisionTransformer& teacher, VisionTransformer& student,
                                       const at::Tensor& batch,
                                       const std::vector<int64_t>& align_blocks) {
  const std::vector<int64_t> blocks =
      align_blocks.empty() ? std::vector<int64_t>{student->depth()} : align_blocks;
  std::vector<torch::Tensor> target;
  std::vector<torch::Tensor> target_features;
  {
    RECORD_USER_SCOPE("stage 2: teacher forward");
    torch::NoGradGuard no_grad;
    const SoftmaxHeadsScope softmax_heads;  // the frozen teacher needs no autograd graph
    target = teacher->hidden_states(batch);
    for (const int64_t b : blocks) target_features.push_back(teacher->norm->forward(target.at(b)));
  }
  std::vector<torch::Tensor> states;
  StepOutput out;
  {
    RECORD_USER_SCOPE("stage 2: student forward + loss");
    states = student->hidden_states(batch);
    for (size_t i = 0; i < blocks.size(); ++i) {
      auto term = torch::mse_loss(student->norm->forward(states.at(blocks[i])), target_features[i]);
      out.loss = out.loss.defined() ? out.loss + term : term;
    }
    if (blocks.size() > 1) out.loss = out.loss / double(blocks.size());
  }
  RECORD_USER_SCOPE("stage 2: per-block MSE");
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> per_block;
  for (size_t b = 1; b < states.size(); ++b)
    per_block.push_back(torch::mse_loss(states[b], target[b]));
  // One copy to the host for all blocks, not an item() (a device sync) per block.
  if (!per_block.empty()) {
    auto host = torch::stack(per_block).to(torch::kCPU, torch::kDouble);
    out.per_block_mse.assign(host.data_ptr<double>(), host.data_ptr<double>() + host.numel());
  }
  return out;
}

void FeatureAlignmentStage::run(VisionTransformer& teacher, VisionTransformer& student,
                                const at::Tensor& images) {
  run(teacher, student, in_memory_stage_data(images));
}

void FeatureAlignmentStage::run(VisionTransformer& teacher, VisionTransformer& student,
                                const StageData& images) {
  const auto& cfg = ctx_.config.feature_alignment;
  teacher->eval();
  teacher->set_attention_mode(AttentionMode::Softmax);
  for (auto& p : teacher->parameters()) p.set_requires_grad(false);
  student->set_attention_plan(student_attention_plan(ctx_.config));
  student->train();
  const uint64_t seed = uint64_t(ctx_.config.seed) + 2;
  const TrainingLoopSpec spec = stage_loop_spec(ctx_, stage_name(2), cfg, images.size(), seed);
  const RankSlice slice = rank_slice(cfg.batch_size, spec.parallel,
                                     std::string("stages.") + stage_name(2) + ".batch_size");
  // "qkv": only the linear attention's q/k/v projections learn (the paper's "tuning only QKV").
  const RequiresGradRestorer restore_requires_grad(student->parameters());
  std::vector<at::Tensor> params;
  if (cfg.trainable == "qkv") {
    for (int64_t b = 0; b < student->depth(); ++b)
      for (auto& p : student->block(b)->attn->linear->qkv->parameters()) params.push_back(p);
    train_only(student->parameters(), params);
  } else {
    params = trainable_parameters(student, false);
  }
  TrainingLoop loop(spec, *student, params, ctx_.sink, ctx_.control);
  auto loader = make_training_loader(for_device(images, ctx_.device), cfg.batch_size, seed,
                                     cfg.augment, loop.total_steps(), slice);
  loop.run([&](const at::Tensor&, int64_t step) {
    Batch b = loader->batch(step);
    auto batch = to_device(b.images, ctx_.device);
    if (cfg.augment && images.transform.preprocess == "none")
      batch = augment_batch(batch, seed, step, 2, slice.first);
    StepOutput out = loss(teacher, student, batch, cfg.align_blocks);
    out.data_wait_seconds = b.wait_seconds;
    return out;
  });
  log_skipped_images(ctx_, stage_name(2), *loader);
  for (auto& p : teacher->parameters()) p.set_requires_grad(true);
  student->eval();
}

}  // namespace adala
