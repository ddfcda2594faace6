#pragma once
#include <ATen/ATen.h>
#include <c10/core/Device.h>

#include "engine/seg/classes_per_image.h"
#include "engine/seg/segmentation_metrics.h"
#include "engine/data/segmentation_dataset.h"
#include "engine/seg/segmentation_model.h"

namespace adala {

struct SegmentationEvaluation {
  ConfusionMatrix confusion;  // over the whole split
  at::Tensor predictions;     // (keep, H, W) uint8: the first `keep` images' labels
  // The split again, its images grouped by how many object classes their truth shows.
  std::vector<ClassesPerImageGroup> by_classes_per_image;
  double seconds = 0.0;
};

// Predicts every image of the split (eval mode, no grad) and accumulates the confusion matrix.
SegmentationEvaluation evaluate_segmentation(SegmentationModel& model,
                                             const SegmentationDataset& data,
                                             const c10::Device& device, int64_t batch_size,
                                             int64_t keep = 0, int64_t ignore_index = 255);

}  // namespace adala
