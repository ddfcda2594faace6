#pragma once
// A ViT backbone with a segmentation head. Features are DINOv2's intermediate layers: the
// patch tokens (prefix tokens dropped) of chosen block outputs, each through the final norm.
#include <torch/nn/module.h>

#include <map>
#include <string>
#include <vector>

#include "engine/model/vision_transformer.h"
#include "engine/seg/linear_head.h"
#include "engine/seg/mask2former_head.h"
#include "engine/seg/mask_classification_loss.h"
#include "engine/train/config/segmentation_config.h"

namespace adala {

enum class SegmentationHeadKind { Linear, Mask2Former };
const char* to_string(SegmentationHeadKind kind);
SegmentationHeadKind segmentation_head_from_string(const std::string& name);

// RGB (B, 3, H, W) in [0, 1] -> what the backbone takes: itself for 3 channels, ITU-R 601
// luminance for 1 channel.
torch::Tensor to_backbone_input(const torch::Tensor& rgb, int64_t in_chans);

// Patch tokens (B, gh * gw, D) of the given 1-based block outputs, after the final norm.
// checkpoint: blocks recompute their activations in the backward pass (block_checkpoint.h).
std::vector<torch::Tensor> backbone_patch_features(VisionTransformer& vit,
                                                   const torch::Tensor& images,
                                                   const std::vector<int64_t>& blocks,
                                                   bool checkpoint = false);

struct SegmentationModelOptions {
  SegmentationHeadKind head = SegmentationHeadKind::Linear;
  int64_t num_classes = 11;
  int64_t ignore_index = 255;
  std::vector<int64_t> blocks;  // 1-based feature blocks (empty: the last)
  int64_t linear_upsample = 1;  // the linear head's sub-patch factor (linear_head.h)
  Mask2FormerConfig mask2former;
};

class SegmentationModelImpl : public torch::nn::Module {
 public:
  SegmentationModelImpl(VisionTransformer backbone, SegmentationModelOptions options);

  // The feature levels of RGB images (grad flows only if the backbone is being trained).
  std::vector<torch::Tensor> features(const torch::Tensor& rgb);
  // Training loss of the head on features of images of size (h, w) against (B, h, w) labels.
  // `extra` receives the loss terms for logging. seed: mask point sampling.
  torch::Tensor loss(const std::vector<torch::Tensor>& features, const torch::Tensor& masks,
                     uint64_t seed, std::map<std::string, double>* extra = nullptr);
  // Per-pixel class scores (B, C, h, w) from features.
  torch::Tensor scores(const std::vector<torch::Tensor>& features, int64_t h, int64_t w);
  // Labels (B, H, W) int64 of RGB images (no grad, eval mode as set by the caller).
  torch::Tensor predict(const torch::Tensor& rgb);

  // Head parameters, plus the backbone's own trainable ones when with_backbone is true.
  std::vector<torch::Tensor> trainable(bool with_backbone);
  std::vector<torch::Tensor> head_parameters();
  const SegmentationModelOptions& options() const { return options_; }
  int64_t patch_size() const { return backbone->config().patch_size; }
  // Gradient checkpointing of the backbone's blocks in features() (training the backbone).
  void set_checkpoint_blocks(bool on) { checkpoint_blocks_ = on; }

  VisionTransformer backbone{nullptr};
  LinearSegmentationHead linear{nullptr};
  Mask2FormerHead mask2former{nullptr};

 private:
  SegmentationModelOptions options_;
  bool checkpoint_blocks_ = false;
};
TORCH_MODULE(SegmentationModel);

}  // namespace adala
