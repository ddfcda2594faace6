#pragma once
// Segmentation folders in the ADE20K layout:
//   ROOT/images/{training,validation}/NAME.jpg   (also .jpeg, .png)
//   ROOT/annotations/{training,validation}/NAME.png   (8-bit class indices)
// ADE20K convention (reduce_zero_label): raw 0 ("other") -> ignore 255, raw 1..N -> 0..N-1;
// without it the raw labels 0..N are kept. Raw 255 is ignore either way; any other value
// above N is an error. Images resize bilinearly and masks by nearest neighbour to the target.
#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "engine/data/segmentation_dataset.h"

namespace adala {

struct Ade20kOptions {
  int64_t height = 512, width = 512;  // target size of images and masks
  bool reduce_zero_label = true;
  int64_t num_classes = 150;  // N: the data set's classes, "other" not counted
  int64_t limit = 0;          // > 0: the first `limit` pairs (in name order)
};

struct Ade20kPair {
  std::string id;          // file stem
  std::string image;       // path
  std::string annotation;  // path
};

// Pairs of one split in name order. Throws std::runtime_error naming the folder when it is
// missing or empty, and the file when an image has no annotation or an annotation no image.
std::vector<Ade20kPair> list_ade20k_pairs(const std::string& root, const std::string& split);

// Raw (H, W) uint8 labels -> training labels (uint8, 255 = ignore). `file` names the source
// in the error thrown for an out-of-range label.
at::Tensor map_ade20k_labels(const at::Tensor& raw, const Ade20kOptions& options,
                             const std::string& file);

// Reads, checks and resizes a split. Throws std::runtime_error naming the file for an
// unreadable image, an image/annotation size mismatch or an out-of-range label.
SegmentationDataset load_ade20k_folder(const std::string& root, const std::string& split,
                                       const Ade20kOptions& options);

}  // namespace adala
