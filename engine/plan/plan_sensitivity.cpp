#include "engine/plan/plan_sensitivity.h"

#include <torch/torch.h>

#include "engine/train/stages.h"

namespace adala::plan {

std::vector<double> Sensitivity::drops() const {
  std::vector<double> out;
  for (const auto& b : blocks) out.push_back(b.drop_points);
  return out;
}

std::vector<double> Sensitivity::mses() const {
  std::vector<double> out;
  for (const auto& b : blocks) out.push_back(b.attention_mse);
  return out;
}

double plan_held_out_top1(VisionTransformer& model, const AttentionPlan& plan,
                          const StageData& held_out, const c10::Device& device) {
  model->set_attention_plan(plan);
  return evaluate_top1(model, held_out, device);
}

std::vector<double> per_block_attention_mse(VisionTransformer& model, const StageData& held_out,
                                            const c10::Device& device, int64_t batch_size) {
  torch::NoGradGuard no_grad;
  model->eval();
  const int64_t depth = model->depth();
  std::vector<double> sum(size_t(depth), 0.0);
  int64_t images = 0;
  auto loader = make_evaluation_loader(for_device(held_out, device), batch_size);
  for (int64_t step = 0; step < evaluation_steps(held_out, batch_size); ++step) {
    Batch b = loader->batch(step);
    const at::Tensor batch = to_device(b.images, device);
    const int64_t n = batch.size(0);
    const StepOutput out = AttentionAlignmentStage::loss(model, batch);
    for (int64_t i = 0; i < depth && size_t(i) < out.per_block_mse.size(); ++i)
      sum[size_t(i)] += out.per_block_mse[size_t(i)] * double(n);
    images += n;
  }
  for (auto& s : sum) s = images > 0 ? s / double(images) : 0.0;
  return sum;
}

Sensitivity measure_sensitivity(VisionTransformer& stage1, const StageData& held_out,
                                const c10::Device& device, AttentionMode mode) {
  const int64_t depth = stage1->depth();
  const int64_t window = stage1->attention_plan().window;
  Sensitivity s;
  s.teacher_top1 = plan_held_out_top1(
      stage1, uniform_attention_plan(depth, AttentionMode::Softmax, window), held_out, device);
  stage1->set_attention_plan(uniform_attention_plan(depth, mode, window));
  const std::vector<double> mse = per_block_attention_mse(stage1, held_out, device);
  for (int64_t b = 0; b < depth; ++b) {
    AttentionPlan alone = uniform_attention_plan(depth, AttentionMode::Softmax, window);
    alone.modes[size_t(b)] = mode;
    BlockSensitivity bs;
    bs.block = b;
    bs.attention_mse = mse[size_t(b)];
    bs.held_out_top1 = plan_held_out_top1(stage1, alone, held_out, device);
    bs.drop_points = 100.0 * (s.teacher_top1 - bs.held_out_top1);
    s.blocks.push_back(bs);
  }
  stage1->set_attention_plan(uniform_attention_plan(depth, mode, window));
  return s;
}

}  // namespace adala::plan
