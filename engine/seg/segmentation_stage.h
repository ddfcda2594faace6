#pragma once
// Stage 3 for dense prediction: trains a segmentation head on a backbone (teacher or
// ViT-AdaLA student alike) through the shared TrainingLoop. With a frozen backbone (DINOv2's
// linear-probe protocol) the features of the training images are computed once and cached in
// float16; otherwise every step runs the backbone and its own trainable weights update too
// (the paper's supervised fine-tuning): at backbone_lr_scale x the head's lr, decayed layer by
// layer, with blocks checkpointed where the image has many tokens. With probe_epochs > 0 a
// fine-tuning run first trains the head alone on the frozen, cached features (LP-FT: linear
// probing, then fine-tuning; Kumar et al. 2022), so that the backbone's first updates follow
// a head that already fits instead of a random one.
#include <string>
#include <vector>

#include "engine/data/segmentation_dataset.h"
#include "engine/seg/segmentation_model.h"
#include "engine/train/stage_context.h"
#include "engine/train/training_loop.h"

namespace adala {

struct SegmentationTraining {
  StageConfig optimisation;
  bool train_backbone = false;
  double backbone_lr_scale = 0.1;
  double layer_decay = 1.0;
  GradientCheckpointing checkpointing = GradientCheckpointing::Auto;
  int64_t probe_epochs = 0;  // frozen-backbone epochs before fine-tuning (train_backbone only)
  // The main pass's resumable checkpoint (written every optimisation.checkpoint_every steps, at
  // the end and on cancel; an existing one is resumed from); empty: none. The probe pass, short
  // and cheap, always starts over.
  std::string checkpoint_path;
  // The probe epochs that run: none where the backbone stays frozen (all of it is probing).
  int64_t probe_epochs_run() const { return train_backbone ? probe_epochs : 0; }
};

// What the config's segmentation block says for one head.
SegmentationTraining head_training(const SegmentationConfig& seg, SegmentationHeadKind head);

// The backbone's trainable parameters in lr groups: the patch embedding, position embedding and
// prefix tokens at scale x decay^(depth + 1), block i at scale x decay^(depth - i), the final
// norm (and anything else) at scale; groups that come out empty are left out.
TrainingLoop::ScaledParams layer_decayed_parameters(VisionTransformer& vit, double scale,
                                                    double decay);

// Whether training at `image_size` checkpoints blocks.
bool checkpoint_blocks(GradientCheckpointing mode, int64_t image_size, int64_t patch_size);

class SegmentationStage {
 public:
  // stage: the name in events (e.g. "seg_linear_teacher").
  SegmentationStage(StageContext& ctx, std::string stage, SegmentationTraining training)
      : ctx_(ctx), stage_(std::move(stage)), training_(std::move(training)) {}
  void run(SegmentationModel& model, const SegmentationDataset& train);

 private:
  // One training run of `cfg` under the name `stage`: the backbone fine-tuned, or frozen with
  // its features cached; resumable through `checkpoint_path` when it is not empty.
  void train_pass(SegmentationModel& model, const SegmentationDataset& train, bool tune,
                  const StageConfig& cfg, const std::string& stage,
                  const std::string& checkpoint_path);

  StageContext& ctx_;
  std::string stage_;
  SegmentationTraining training_;
};

// Feature levels of a whole split, float16 on the CPU: one (N, tokens, D) tensor per level.
std::vector<at::Tensor> cache_features(SegmentationModel& model, const at::Tensor& images,
                                       const c10::Device& device, int64_t batch_size);

}  // namespace adala
