#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>

#include <vector>

#include "engine/model/attention_plan.h"
#include "engine/model/block.h"
#include "engine/model/patch_embed.h"
#include "engine/model/vit_config.h"

namespace adala {

// timm's VisionTransformer with per-block softmax/linear attention. Parameter names follow
// timm: cls_token, reg_token, pos_embed, patch_embed.proj.*, blocks.{i}.*, norm.*, head.*.
class VisionTransformerImpl : public torch::nn::Module {
 public:
  explicit VisionTransformerImpl(ViTConfig config);

  // Patch tokens + prefix tokens + position embeddings (interpolated to the input size).
  torch::Tensor prepare_tokens(const torch::Tensor& images);
  // All tokens after the final norm: (B, N, D).
  torch::Tensor forward_features(const torch::Tensor& images);
  // Class-token (or mean-pooled patch) features through the head: (B, num_classes).
  torch::Tensor forward_head(const torch::Tensor& features);
  torch::Tensor forward(const torch::Tensor& images);
  // The hidden state entering each block and the final (pre-norm) state: depth + 1 tensors.
  std::vector<torch::Tensor> hidden_states(const torch::Tensor& images);

  void set_attention_mode(AttentionMode mode);
  void set_attention_mode(int64_t block, AttentionMode mode);
  std::vector<AttentionMode> attention_modes() const;
  // Every block's mode and the window+linear blocks' k (attention_plan.h). Throws
  // std::invalid_argument when the plan's length is not the depth or its window is not odd
  // and >= 1.
  void set_attention_plan(const AttentionPlan& plan);
  // The modes, and the k of the first window+linear block (else the blocks' default).
  AttentionPlan attention_plan() const;
  // The plan's linear paths without switching any block's mode: window+linear blocks get their
  // window (and mixing gamma), the others plain linear attention. Stage 1 trains these while
  // the model runs as the teacher.
  void set_linear_paths(const AttentionPlan& plan);
  void set_softmax_chunk(int64_t chunk);
  void init_linear_from_softmax();
  // Replaces the classifier (fresh init); 0 removes it.
  void reset_head(int64_t num_classes);

  // Parameters of the linear-attention submodules only (what Stage 1 trains): of every block,
  // or of the blocks whose entry in `blocks` is true.
  std::vector<torch::Tensor> linear_attention_parameters();
  std::vector<torch::Tensor> linear_attention_parameters(const std::vector<bool>& blocks);

  const ViTConfig& config() const { return config_; }
  int64_t depth() const { return static_cast<int64_t>(block_list_.size()); }
  Block block(int64_t i) const { return block_list_.at(static_cast<size_t>(i)); }

  PatchEmbed patch_embed{nullptr};
  torch::Tensor cls_token, reg_token, pos_embed;
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear head{nullptr};

 private:
  ViTConfig config_;
  std::vector<Block> block_list_;
};
TORCH_MODULE(VisionTransformer);

// Resamples the patch part of a position embedding (1, prefix + G*G, D) to a new grid,
// bicubically (as DINOv2); prefix slots are kept. Identity when the grid is unchanged.
torch::Tensor interpolate_pos_embed(const torch::Tensor& pos_embed, int64_t num_prefix,
                                    int64_t new_h, int64_t new_w);

// Deep copy of a model (same config, modes, windows and weights), on the given device.
VisionTransformer clone_model(VisionTransformer& model, const torch::Device& device);
// Copies every parameter and buffer of `to` from the tensor of the same name in `from`; throws
// std::invalid_argument naming the tensor when `from` lacks it or its shape differs.
void copy_weights(VisionTransformer& from, VisionTransformer& to);

}  // namespace adala
