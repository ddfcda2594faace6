#pragma once
// The optional "segmentation" block of an experiment: dense Stage 3, a segmentation head
// fine-tuned on the teacher and on the ViT-AdaLA student alike, then compared (mIoU).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/train/config/stage_config.h"

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
  int64_t upsample = 1;                 // mask resolution: this x the patch grid
  int64_t probe_epochs = 0;             // frozen-backbone epochs before fine-tuning (LP-FT)
  std::vector<int64_t> feature_blocks;  // 1-based ViT blocks whose outputs feed the decoder
  double class_weight = 2.0, mask_weight = 5.0, dice_weight = 5.0, no_object_weight = 0.1;
};

// The most epochs a head may train on the frozen backbone before fine-tuning (probe_epochs).
inline constexpr int64_t kMaxProbeEpochs = 1000;

// When blocks recompute their activations in the backward pass instead of keeping them.
enum class GradientCheckpointing { Auto, On, Off };
// Auto: on where a training image has at least this many tokens (softmax attention keeps
// heads x N^2 floats per block for the backward pass: 64 MiB a head at 4096 tokens).
inline constexpr int64_t kCheckpointTokensThreshold = 4096;

// The scene teacher (segmentation.pretrain): a classification checkpoint, re-cut to the
// experiment's model (its patch size and image size), then trained end to end with a dense
// per-pixel objective on a stream of scenes disjoint from the segmentation splits.
struct ScenePretrainConfig {
  bool present = false;
  std::string init;               // the classification checkpoint it starts from
  int64_t images = 4000;          // training scenes of the pretraining stream
  int64_t first_scene = 1000000;  // the stream's first scene index (the splits use 0..)
  // The pretraining scenes (default: segmentation.data): e.g. smaller scenes of one garment at
  // the task's garment pixel size, several times cheaper per garment than the task's scenes.
  SegmentationDataConfig data;
  StageConfig training;
};

struct SegmentationConfig {
  bool present = false;  // the experiment has a "segmentation" block
  SegmentationDataConfig data;
  // The softmax backbone the job compares (default: teacher.weights); it need not exist until
  // the job runs (`adala segment --pretrain-teacher` writes it from `pretrain`).
  std::string teacher;
  std::string head = "both";  // "linear", "mask2former" or "both"
  // Scenes the student is adapted on (Stages 1-2, labels unused) when the job adapts one: the
  // first this many of the training stream, the training split's scenes among them. 0: the
  // training split alone. Scenes only (an ade20k folder has only its training images).
  int64_t adaptation_images = 0;
  bool train_backbone = false;     // false: frozen backbone, cached features (linear probe)
  double backbone_lr_scale = 0.1;  // backbone lr = head lr x this, when it trains
  // Layer-wise lr decay (BEiT / DINOv2 fine-tuning): block i of D gets decay^(D - i) of the
  // backbone lr, the patch and position embeddings decay^(D + 1); 1: one lr for the backbone.
  double layer_decay = 1.0;
  GradientCheckpointing gradient_checkpointing = GradientCheckpointing::Auto;
  // Extra evaluation resolutions (`adala segment --res-sweep`): heads trained at image_size are
  // evaluated at each on scenes with the garments' pixel size kept (more garments per image).
  std::vector<int64_t> sweep_resolutions;
  int64_t sweep_val_images = 16;  // validation scenes per sweep resolution
  ScenePretrainConfig pretrain;
  std::vector<int64_t> linear_blocks;  // 1-based blocks concatenated for the linear head
  int64_t linear_upsample = 1;         // its logits: this x the patch grid (sub-patch outputs)
  // Epochs of the head alone on the frozen backbone before fine-tuning (LP-FT; with
  // train_backbone only).
  int64_t linear_probe_epochs = 0;
  Mask2FormerConfig mask2former;
  StageConfig linear_training, mask2former_training;
  int64_t results_images = 64;  // validation images written to the results folder
  int64_t eval_batch_size = 16;
};

}  // namespace adala
