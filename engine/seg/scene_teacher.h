#pragma once
// The segmentation experiment's softmax teacher (segmentation.pretrain): the classification
// teacher, re-cut to the experiment's patch and image size (patch_recut.h), then trained end to
// end on synthetic scenes at their own resolution with a dense objective (per-pixel
// cross-entropy through a linear head on the last block). The scenes come from a stream of the
// training garments disjoint from the segmentation splits (first_scene onwards), so the
// segmentation job's training and validation scenes stay unseen. The head is dropped: the file
// is a backbone, saved with its data settings (grey, pixels in [0, 1], no resize).
#include <string>

#include "engine/seg/segmentation_evaluation.h"
#include "engine/train/cancellation.h"
#include "engine/train/events.h"
#include "engine/train/experiment_config.h"

namespace adala {

struct SceneTeacherResult {
  std::string path;
  SegmentationEvaluation validation;  // the pretraining head on the validation scenes
  double train_seconds = 0;
};

SceneTeacherResult pretrain_scene_teacher(const ExperimentConfig& config,
                                          const std::string& out_path, const std::string& device,
                                          EventSink& sink, JobControl& control);

}  // namespace adala
