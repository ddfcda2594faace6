#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "engine/model/attention_weight_loss.h"
#include "engine/runtime/precision.h"
#include "engine/kernels/softmax_attention_heads.h"
#include "engine/train/attention_weight_alignment.h"
#include "engine/train/requires_grad_restorer.h"
#include "engine/train/stages.h"

namespace adala {

namespace {

// The mean over the aligned blocks' losses, and each aligned block's value (NaN for the others:
// no metric is recorded for them).
StepOutput aligned_block_losses(const std::vector<torch::Tensor>& losses,
                                const std::vector<int64_t>& blocks, int64_t depth) {
  StepOutput out;
  auto per_block = torch::stack(losses);
  out.loss = per_block.mean();
  // One copy to the host for all blocks, not an item() (a device sync) per block.
  auto host = per_block.detach().to(torch::kCPU, torch::kDouble);
  const double* values = host.data_ptr<double>();
  if (int64_t(blocks.size()) == depth) {
    out.per_block_mse.assign(values, values + host.numel());
    return out;
  }
  out.per_block_mse.assign(size_t(depth), std::numeric_limits<double>::quiet_NaN());
  for (size_t i = 0; i < blocks.size(); ++i) out.per_block_mse[size_t(blocks[i])] = values[i];
  return out;
}

bool aligns(const std::vector<bool>& aligned, int64_t block) {
  return aligned.empty() || (size_t(block) < aligned.size() && aligned[size_t(block)]);
}

}  // namespace

StepOutput AttentionAlignmentStage::loss(VisionTransformer& teacher, const at::Tensor& batch,
                                         const std::vector<bool>& aligned) {
  // The teacher's softmax attention (the targets) runs without autograd.
  const SoftmaxHeadsScope softmax_heads;
  torch::Tensor x;
  {
    torch::NoGradGuard no_grad;
    x = teacher->prepare_tokens(batch);
  }
  std::vector<torch::Tensor> losses;
  std::vector<int64_t> blocks;
  for (int64_t b = 0; b < teacher->depth(); ++b) {
    if (!aligns(aligned, b)) {
      torch::NoGradGuard no_grad;
      x = teacher->block(b)->forward_softmax(x);
      continue;
    }
    auto r = teacher->block(b)->forward_alignment(x);
    losses.push_back(torch::mse_loss(r.linear_attn, r.softmax_attn));
    blocks.push_back(b);
    x = r.next;
  }
  if (losses.empty()) throw std::invalid_argument("attention alignment: no block to align");
  return aligned_block_losses(losses, blocks, teacher->depth());
}

StepOutput attention_weight_alignment_loss(VisionTransformer& teacher, const at::Tensor& batch,
                                           int64_t rows, uint64_t seed,
                                           const std::vector<bool>& aligned) {
  torch::Tensor x;
  {
    torch::NoGradGuard no_grad;
    x = teacher->prepare_tokens(batch);
  }
  const std::vector<int64_t> sampled = sample_query_rows(x.size(1), rows, seed);
  std::vector<torch::Tensor> losses;
  std::vector<int64_t> blocks;
  for (int64_t b = 0; b < teacher->depth(); ++b) {
    Block block = teacher->block(b);
    if (aligns(aligned, b)) {
      auto& linear = block->attn->linear;
      if (!linear->feature_map)
        throw std::invalid_argument(
            "the attention-weight loss needs a learned feature map (model.feature_map "
            "\"hedgehog\"); block " +
            std::to_string(b) + " has none");
      HeadProjections h;
      {
        torch::NoGradGuard no_grad;
        h = linear->project(block->attention_input(x));
      }
      {
        const Fp32Region fp32;
        losses.push_back(hedgehog_attention_loss(h.q, h.k, *linear->feature_map, sampled,
                                                 block->attn->scale(), linear->eps()));
      }
      blocks.push_back(b);
    }
    torch::NoGradGuard no_grad;
    x = block->forward_softmax(x);
  }
  if (losses.empty()) throw std::invalid_argument("attention alignment: no block to align");
  return aligned_block_losses(losses, blocks, teacher->depth());
}

std::vector<at::Tensor> feature_map_parameters(VisionTransformer& model,
                                               const std::vector<bool>& blocks) {
  std::vector<at::Tensor> out;
  for (int64_t b = 0; b < model->depth(); ++b)
    if (auto& fm = model->block(b)->attn->linear->feature_map; fm && aligns(blocks, b))
      for (auto& p : fm->parameters()) out.push_back(p);
  return out;
}

void AttentionAlignmentStage::run(VisionTransformer& teacher, const at::Tensor& images) {
  run(teacher, in_memory_stage_data(images));
}

void AttentionAlignmentStage::run(VisionTransformer& teacher, const StageData& images) {
  const auto& cfg = ctx_.config.attention_alignment;
  teacher->eval();
  // The plan's linearised blocks learn, each its linear path as planned (window+linear blocks
  // with their window and mixing gamma); softmax blocks stay as they are.
  const AttentionPlan plan = student_attention_plan(ctx_.config);
  teacher->set_linear_paths(plan);
  const std::vector<bool> aligned = plan.linearised();
  if (std::find(aligned.begin(), aligned.end(), true) == aligned.end())
    throw ConfigError("attention", "every block is softmax: Stage 1 has no block to align");
  if (plan.uses_window() || !std::all_of(aligned.begin(), aligned.end(), [](bool a) { return a; }))
    ctx_.log(std::string(stage_name(1)) + ": the plan's " + describe_attention_plan(plan) +
             "; aligning the blocks that are not softmax");
  // Only the linear-attention modules learn (hedgehog: only their feature maps); the teacher
  // stays exactly as it was.
  const bool attention_weights = ctx_.config.method == LinearisationMethod::Hedgehog;
  const RequiresGradRestorer restore_requires_grad(teacher->parameters());
  auto params = attention_weights ? feature_map_parameters(teacher, aligned)
                                  : teacher->linear_attention_parameters(aligned);
  if (attention_weights && params.empty())
    throw ConfigError("model.feature_map",
                      "method hedgehog trains the feature map in Stage 1, but this model has none");
  train_only(teacher->parameters(), params);
  const uint64_t seed = uint64_t(ctx_.config.seed) + 1;
  const TrainingLoopSpec spec = stage_loop_spec(ctx_, stage_name(1), cfg, images.size(), seed);
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
    StepOutput out = attention_weights ? attention_weight_alignment_loss(
                                             teacher, batch, ctx_.config.attention_rows,
                                             seed * 1000003u + uint64_t(step), aligned)
                                       : loss(teacher, batch, aligned);
    out.data_wait_seconds = b.wait_seconds;
    return out;
  });
  log_skipped_images(ctx_, stage_name(1), *loader);
}

}  // namespace adala
