#pragma once
#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "engine/data/segmentation_classes.h"

namespace adala {

// A semantic segmentation split held in memory: images (N, 3, H, W) float RGB in [0, 1] (or,
// a quarter of the memory for a large training set, uint8 0..255: read batches through
// float_images), masks (N, H, W) uint8 class indices (kIgnoreLabel = not labelled).
struct SegmentationDataset {
  at::Tensor images;
  at::Tensor masks;
  std::vector<SegmentationClass> classes;
  std::vector<std::string> ids;  // one per image (file stem or scene index)
  int64_t background = -1;       // the class of pixels on no object (scenes: 0); -1: none
  int64_t size() const { return images.defined() ? images.size(0) : 0; }
  int64_t num_classes() const { return static_cast<int64_t>(classes.size()); }
};

// A batch of SegmentationDataset::images as float RGB in [0, 1], whichever way it is stored.
inline at::Tensor float_images(const at::Tensor& images) {
  return images.scalar_type() == at::kByte ? images.to(at::kFloat).div_(255.0) : images;
}

}  // namespace adala
