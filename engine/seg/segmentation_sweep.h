#pragma once
// The paper's high-resolution table in shape: segmentation models trained at one resolution,
// evaluated at others on scenes that keep the garments' pixel size (the scene's side grows, so
// its garment count grows with its area), with images/s and peak memory at batch 1.
#include <c10/core/Device.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/measure/call_cost.h"
#include "engine/data/segmentation_scenes.h"
#include "engine/seg/segmentation_model.h"
#include "engine/train/config/segmentation_config.h"

namespace adala {

// The scene options of `data` (segmentation.data).
SceneOptions scene_options(const SegmentationDataConfig& data);
// The Fashion-MNIST folder the scenes' garments come from (data.root, else the default).
std::string scene_garment_root(const SegmentationDataConfig& data);

// `base` at another side with the garments' pixel size kept: scales x base / side, garment
// counts x (side / base)^2 (at most 64, the generator's limit).
SceneOptions same_pixel_scale(const SceneOptions& base, int64_t image_size);

// Each model's batch-1 prediction cost at `resolution`: peak memory of one prediction, then
// `rounds` interleaved rounds (the order rotated each round) of `repeats` timed predictions.
std::vector<CallCost> measure_segmentation_costs(std::vector<SegmentationModel*> models,
                                                 int64_t resolution, const c10::Device& device,
                                                 int rounds, int repeats);

}  // namespace adala
