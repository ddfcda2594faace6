#include "engine/data/segmentation_classes.h"

#include <fmt/format.h>
#include <cmath>
#include <cstdio>

#include "engine/data/fashion_mnist.h"

namespace adala {

std::string SegmentationClass::hex() const {
  return fmt::format("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
}

std::vector<SegmentationClass> fashion_scene_classes() {
  static const std::array<uint8_t, 3> palette[10] = {
      {31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
      {140, 86, 75},  {227, 119, 194}, {160, 160, 160}, {188, 189, 34}, {23, 190, 207}};
  std::vector<SegmentationClass> classes{{"background", {32, 32, 32}}};
  for (int64_t label = 0; label < 10; ++label)
    classes.push_back({fashion_mnist_class_name(label), palette[label]});
  return classes;
}

std::vector<SegmentationClass> numbered_classes(int64_t count) {
  std::vector<SegmentationClass> classes;
  for (int64_t i = 0; i < count; ++i) {
    // Golden-angle hues at alternating lightness: neighbours stay distinguishable.
    const double h = std::fmod(double(i) * 137.50776405, 360.0) / 60.0;
    const double v = (i % 2) ? 0.95 : 0.75, s = 0.65;
    const double c = v * s, x = c * (1.0 - std::fabs(std::fmod(h, 2.0) - 1.0)), m = v - c;
    double r = 0, g = 0, b = 0;
    switch (int(h)) {
      case 0:
        r = c, g = x;
        break;
      case 1:
        r = x, g = c;
        break;
      case 2:
        g = c, b = x;
        break;
      case 3:
        g = x, b = c;
        break;
      case 4:
        r = x, b = c;
        break;
      default:
        r = c, b = x;
        break;
    }
    auto byte = [&](double u) { return uint8_t(std::lround(255.0 * (u + m))); };
    classes.push_back({"class_" + std::to_string(i), {byte(r), byte(g), byte(b)}});
  }
  return classes;
}

}  // namespace adala
