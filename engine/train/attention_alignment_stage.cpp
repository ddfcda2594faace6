#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>

#include <utility>
#include <vector>

#include "engine/train/stages.h"

namespace adala {

StepOutput AttentionAlignmentStage::loss(VisionTransformer& teacher, const at::Tensor& batch) {
  StepOutput out;
  torch::Tensor x;
  {
    torch::NoGradGuard no_grad;
    x = teacher->prepare_tokens(batch);
  }
  std::vector<torch::Tensor> losses;
  for (int64_t b = 0; b < teacher->depth(); ++b) {
    auto r = teacher->block(b)->forward_alignment(x);
    losses.push_back(torch::mse_loss(r.linear_attn, r.softmax_attn));
    x = r.next;
  }
  auto per_block = torch::stack(losses);
  out.loss = per_block.mean();
  // One copy to the host for all blocks, not an item() (a device sync) per block.
  auto host = per_block.detach().to(torch::kCPU, torch::kDouble);
  out.per_block_mse.assign(host.data_ptr<double>(), host.data_ptr<double>() + host.numel());
  return out;
}

namespace {

// Puts every parameter's requires_grad back as it was when the scope opened, however the scope
// ends: done, cancelled (JobCancelled) or failed.
class RequiresGradRestorer {
 public:
  explicit RequiresGradRestorer(std::vector<torch::Tensor> parameters)
      : parameters_(std::move(parameters)) {
    for (const auto& p : parameters_) saved_.push_back(p.requires_grad());
  }
  ~RequiresGradRestorer() {
    for (size_t i = 0; i < parameters_.size(); ++i) parameters_[i].set_requires_grad(saved_[i]);
  }
  RequiresGradRestorer(const RequiresGradRestorer&) = delete;
  RequiresGradRestorer& operator=(const RequiresGradRestorer&) = delete;

 private:
  std::vector<torch::Tensor> parameters_;
  std::vector<bool> saved_;
};

}  // namespace

void AttentionAlignmentStage::run(VisionTransformer& teacher, const at::Tensor& images) {
  run(teacher, in_memory_stage_data(images));
}

void AttentionAlignmentStage::run(VisionTransformer& teacher, const StageData& images) {
  const auto& cfg = ctx_.config.attention_alignment;
  teacher->eval();
  // Only the linear-attention modules learn; the teacher stays exactly as it was.
  const RequiresGradRestorer restore_requires_grad(teacher->parameters());
  for (auto& p : teacher->parameters()) p.set_requires_grad(false);
  auto params = teacher->linear_attention_parameters();
  for (auto& p : params) p.set_requires_grad(true);
  const uint64_t seed = uint64_t(ctx_.config.seed) + 1;
  TrainingLoopSpec spec{stage_name(1), cfg, images.size(), seed,
                        ctx_.checkpoint_path(stage_name(1))};
  spec.parallel = ctx_.parallel.get();
  const RankSlice slice = rank_slice(cfg.batch_size, spec.parallel,
                                     std::string("stages.") + stage_name(1) + ".batch_size");
  TrainingLoop loop(spec, *teacher, params, ctx_.sink, ctx_.control);
  auto loader = make_training_loader(for_device(images, ctx_.device), cfg.batch_size, seed,
                                     cfg.augment, loop.total_steps(), slice);
  loop.run([&](const at::Tensor&, int64_t step) {
    Batch b = loader->batch(step);
    auto batch = to_device(b.images, ctx_.device);
    if (cfg.augment && images.transform.preprocess == "none")
      batch = augment_batch(batch, seed, step, 2, slice.first);
    StepOutput out = loss(teacher, batch);
    out.data_wait_seconds = b.wait_seconds;
    return out;
  });
  log_skipped_images(ctx_, stage_name(1), *loader);
}

}  // namespace adala
