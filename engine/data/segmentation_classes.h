#pragma once
// Class tables of the segmentation data sets: names and a fixed display palette.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace adala {

// Pixels with this label take no part in losses or metrics.
inline constexpr int64_t kIgnoreLabel = 255;
// Synthetic Fashion-MNIST scenes: 0 background, 1..10 garments (Fashion-MNIST label + 1).
inline constexpr int64_t kSceneClassCount = 11;
inline constexpr int64_t kSceneBackground = 0;

struct SegmentationClass {
  std::string name;
  std::array<uint8_t, 3> rgb;
  std::string hex() const;  // "#rrggbb"
};

// background (#202020) and the ten garments in label order, with a tab10-like palette.
std::vector<SegmentationClass> fashion_scene_classes();
// count classes named "class_<i>" with a deterministic, well-spread palette (ADE20K folders
// and other data sets without a shipped name table).
std::vector<SegmentationClass> numbered_classes(int64_t count);

}  // namespace adala
