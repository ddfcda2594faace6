#pragma once
// The segmentation experiment's softmax teacher (segmentation.pretrain): the classification
// teacher, re-cut to the experiment's patch and image size (patch_recut.h), then trained end to
// end on synthetic scenes at their own resolution with a dense objective (per-pixel
// cross-entropy through a linear head on the last block). The scenes come from a stream of the
// training garments disjoint from the segmentation splits (first_scene onwards), so the
// segmentation job's training and validation scenes stay unseen. The head is dropped: the file
// is a backbone, saved with its data settings (grey, pixels in [0, 1], no resize).
// Pretraining phases run for hours on a CPU: the training checkpoints beside the output
// (scene_teacher_checkpoint_path; every pretrain.checkpoint_every steps, and when cancelled) and
// the same call resumes from there, to the same weights as an uninterrupted run.
#include <string>

#include "engine/seg/segmentation_evaluation.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

struct SceneTeacherResult {
  std::string path;
  SegmentationEvaluation validation;  // the pretraining head on the validation scenes
  double train_seconds = 0;           // this call's training (a resumed run: since the resume)
  int64_t resumed_from_step = 0;
};

// Where pretraining to `out_path` keeps its resumable checkpoint (removed once out_path is
// written).
std::string scene_teacher_checkpoint_path(const std::string& out_path);

SceneTeacherResult pretrain_scene_teacher(const ExperimentConfig& config,
                                          const std::string& out_path, const std::string& device,
                                          EventSink& sink, JobControl& control);

}  // namespace adala
