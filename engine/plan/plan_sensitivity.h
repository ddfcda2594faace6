#pragma once
// How much each block's linearisation costs, measured on the held-out slice with the Stage-1
// student (its linear paths aligned, its softmax paths and head the teacher's): the block's
// attention MSE (linear path against softmax, the Stage-1 loss) and the top-1 drop when that
// block alone runs linear (every other block softmax, the teacher's head, before Stage 2).
#include <cstdint>
#include <vector>

#include <c10/core/Device.h>

#include "engine/model/attention_plan.h"
#include "engine/model/vision_transformer.h"
#include "engine/train/stage_data.h"

namespace adala::plan {

struct BlockSensitivity {
  int64_t block = 0;
  double attention_mse = 0;  // held-out mean of the Stage-1 loss of this block
  double held_out_top1 = 0;  // 0..1, this block alone linear
  double drop_points = 0;    // 100 * (teacher held-out top-1 - held_out_top1)
};

struct Sensitivity {
  double teacher_top1 = 0;  // held-out, every block softmax
  std::vector<BlockSensitivity> blocks;
  std::vector<double> drops() const;
  std::vector<double> mses() const;
};

// Held-out top-1 (0..1) of `model` run as `plan` (its modes and window set on the model).
double plan_held_out_top1(VisionTransformer& model, const AttentionPlan& plan,
                          const StageData& held_out, const c10::Device& device);

// Each block's mean attention MSE over `held_out`: the model's linear paths (as its modes set
// them) against its softmax paths on the teacher's hidden states.
std::vector<double> per_block_attention_mse(VisionTransformer& model, const StageData& held_out,
                                            const c10::Device& device, int64_t batch_size = 250);

// The teacher's held-out top-1 and each block's MSE and single-block drop; `mode` is the
// linearised blocks' (linear; window+linear with the model's window). Leaves the model in
// `mode` everywhere.
Sensitivity measure_sensitivity(VisionTransformer& stage1, const StageData& held_out,
                                const c10::Device& device,
                                AttentionMode mode = AttentionMode::Linear);

}  // namespace adala::plan
