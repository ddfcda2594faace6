#pragma once
// The optional "segmentation" block of an experiment: dense Stage 3, a segmentation head
// fine-tuned on the teacher and on the ViT-AdaLA student alike, then compared (mIoU).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/train/stage_config.h"

namespace adala {

struct SegmentationDataConfig {
  std::string dataset = "fashion-mnist-scenes";  // or "ade20k" (an ADE20K-layout folder)
  std::string root;  // ade20k: the folder; scenes: Fashion-MNIST idx folder (default data.root)
  int64_t image_size = 112;
  int64_t train_images = 1000;  // scenes generated / ade20k images used (0: all, ade20k only)
  int64_t val_images = 200;
  // Scenes only.
  int64_t min_garments = 2, max_garments = 4;
  double min_scale = 0.25, max_scale = 0.5, threshold = 0.2;
  double background_min = 0.0, background_max = 0.6;  // texture colour range
  // ade20k only: raw 0 ("other") -> ignore, 1..num_classes -> 0..num_classes-1; false keeps raw.
  bool reduce_zero_label = true;
  int64_t num_classes = 150;
};

struct Mask2FormerConfig {
  int64_t num_queries = 24, hidden_dim = 64, num_heads = 4, num_layers = 3, ffn_dim = 256;
  int64_t num_points = 0;               // 0: mask losses at every pixel
  std::vector<int64_t> feature_blocks;  // 1-based ViT blocks whose outputs feed the decoder
  double class_weight = 2.0, mask_weight = 5.0, dice_weight = 5.0, no_object_weight = 0.1;
};

struct SegmentationConfig {
  bool present = false;  // the experiment has a "segmentation" block
  SegmentationDataConfig data;
  std::string head = "both";           // "linear", "mask2former" or "both"
  bool train_backbone = false;         // false: frozen backbone, cached features (linear probe)
  double backbone_lr_scale = 0.1;      // backbone lr = head lr x this, when it trains
  std::vector<int64_t> linear_blocks;  // 1-based blocks concatenated for the linear head
  Mask2FormerConfig mask2former;
  StageConfig linear_training, mask2former_training;
  int64_t results_images = 64;  // validation images written to the results folder
  int64_t eval_batch_size = 16;
};

}  // namespace adala
