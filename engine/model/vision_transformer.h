#pragma once
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>

#include <vector>

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
  void set_softmax_chunk(int64_t chunk);
  void init_linear_from_softmax();
  // Replaces the classifier (fresh init); 0 removes it.
  void reset_head(int64_t num_classes);

  // Parameters of the linear-attention submodules only (what Stage 1 trains).
  std::vector<torch::Tensor> linear_attention_parameters();

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

// Deep copy of a model (same config, modes and weights), on the given device.
VisionTransformer clone_model(VisionTransformer& model, const torch::Device& device);
// Copies every parameter and buffer of `to` from the tensor of the same name in `from`; throws
// std::invalid_argument naming the tensor when `from` lacks it or its shape differs.
void copy_weights(VisionTransformer& from, VisionTransformer& to);

}  // namespace adala
