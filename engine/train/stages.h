#pragma once
// The four stages of ViT-AdaLA. Each trains in place and emits events through the context.
#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "engine/model/vision_transformer.h"
#include "engine/data/fashion_mnist.h"
#include "engine/train/stage_catalog.h"
#include "engine/train/stage_context.h"
#include "engine/train/stage_data.h"
#include "engine/train/training_loop.h"

namespace adala {

// Stage 0: supervised softmax teacher (the embedded default trains one on Fashion-MNIST).
class TeacherPretrainingStage {
 public:
  explicit TeacherPretrainingStage(StageContext& ctx) : ctx_(ctx) {}
  void run(VisionTransformer& teacher, const StageData& train);
  void run(VisionTransformer& teacher, const ImageDataset& train);  // in memory

 private:
  StageContext& ctx_;
};

// Stage 1: the teacher is frozen; the linear attention of every block the plan linearises
// (student_attention_plan: not softmax) learns, from the teacher's block input, to reproduce
// that block's softmax attention output (MSE, all those blocks per pass). Window+linear blocks
// learn their linear path with its window and mixing gamma.
class AttentionAlignmentStage {
 public:
  explicit AttentionAlignmentStage(StageContext& ctx) : ctx_(ctx) {}
  void run(VisionTransformer& teacher, const StageData& images);
  void run(VisionTransformer& teacher, const at::Tensor& images);  // in memory
  // Loss of one batch: mean over the aligned blocks (`aligned`, one entry per block; empty:
  // every block) of the attention MSE, and each block's value (NaN for a block not aligned).
  static StepOutput loss(VisionTransformer& teacher, const at::Tensor& batch,
                         const std::vector<bool>& aligned = {});

 private:
  StageContext& ctx_;
};

// Stage 2: teacher (softmax, frozen) and student (linear) see the same images; MSE between
// their final features (all tokens, after the final norm); every student weight updates.
class FeatureAlignmentStage {
 public:
  explicit FeatureAlignmentStage(StageContext& ctx) : ctx_(ctx) {}
  void run(VisionTransformer& teacher, VisionTransformer& student, const StageData& images);
  void run(VisionTransformer& teacher, VisionTransformer& student, const at::Tensor& images);
  // The feature MSE (final norm applied) averaged over `align_blocks` (1-based; empty: the last
  // block, i.e. the final features), plus each block's hidden-state MSE as a diagnostic.
  static StepOutput loss(VisionTransformer& teacher, VisionTransformer& student,
                         const at::Tensor& batch, const std::vector<int64_t>& align_blocks = {});

 private:
  StageContext& ctx_;
};

// Stage 3: supervised fine-tuning of a model with its classifier head on labels. With the
// lolcats method (config.method), only LoRA factors on every linear-attention q/k/v and output
// projection (config.lora_rank, lora_alpha) and the head learn, the rest frozen; the factors
// are merged into the projections at the end.
class FineTuningStage {
 public:
  FineTuningStage(StageContext& ctx, std::string stage = stage_name(3))
      : ctx_(ctx), stage_(std::move(stage)) {}
  void run(VisionTransformer& model, const StageData& train);
  void run(VisionTransformer& model, const ImageDataset& train);  // in memory

 private:
  StageContext& ctx_;
  std::string stage_;
};

// The training loop's spec for one of the pipeline's stages: its checkpoint in the run folder,
// the run's data parallelism and step profiling.
TrainingLoopSpec stage_loop_spec(const StageContext& ctx, const std::string& stage,
                                 const StageConfig& cfg, int64_t dataset_size, uint64_t seed);

// Parameters a stage may update: everything but the branch a block does not run (the softmax
// branch of linear and window+linear blocks, the linear branch of softmax blocks) and, when
// include_head is false, the classifier.
std::vector<at::Tensor> trainable_parameters(VisionTransformer& model, bool include_head);

// Stages 0 and 3: supervised classification of `train` with cross-entropy (label smoothing and
// augmentation from cfg), checkpointed and resumable under `stage`'s name.
void train_classifier(StageContext& ctx, const std::string& stage, VisionTransformer& model,
                      const StageData& train, const StageConfig& cfg, uint64_t seed);
// The same with the optimiser updating `params` only (the lolcats method's LoRA factors + head).
void train_classifier(StageContext& ctx, const std::string& stage, VisionTransformer& model,
                      const StageData& train, const StageConfig& cfg, uint64_t seed,
                      std::vector<at::Tensor> params);

// A warning in the run's log naming the bad images the loader skipped (data.on_bad_image), and
// their count as the stage's "skipped_images" evaluation (a row in the run database).
void log_skipped_images(const StageContext& ctx, const std::string& stage,
                        const BatchLoader& loader);

// Top-1 accuracy in [0, 1] on a labelled split, in item order. With `parallel`, sharded: rank r
// evaluates batches r, r + W, ... and the correct counts are summed over the ranks, so every
// rank returns the same accuracy as one process would.
double evaluate_top1(VisionTransformer& model, const StageData& data, const c10::Device& device,
                     DataParallel* parallel = nullptr, int64_t batch_size = 500);
double evaluate_top1(VisionTransformer& model, const ImageDataset& data, const c10::Device& device,
                     int64_t batch_size = 500);

}  // namespace adala
