#include "engine/seg/segmentation_sweep.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <torch/torch.h>

namespace adala {

SceneOptions scene_options(const SegmentationDataConfig& d) {
  SceneOptions o;
  o.image_size = d.image_size;
  o.min_garments = d.min_garments;
  o.max_garments = d.max_garments;
  o.min_scale = d.min_scale;
  o.max_scale = d.max_scale;
  o.threshold = d.threshold;
  o.background_min = d.background_min;
  o.background_max = d.background_max;
  return o;
}

std::string scene_garment_root(const SegmentationDataConfig& d) {
  return d.root.empty() ? default_fashion_mnist_root() : d.root;
}

SceneOptions same_pixel_scale(const SceneOptions& base, int64_t image_size) {
  SceneOptions o = base;
  const double r = double(image_size) / double(base.image_size);
  o.image_size = image_size;
  o.min_scale = base.min_scale / r;
  o.max_scale = base.max_scale / r;
  o.min_garments = std::min<int64_t>(64, int64_t(std::llround(double(base.min_garments) * r * r)));
  o.max_garments = std::min<int64_t>(64, int64_t(std::llround(double(base.max_garments) * r * r)));
  return o;
}

std::vector<CallCost> measure_segmentation_costs(std::vector<SegmentationModel*> models,
                                                 int64_t resolution, const c10::Device& device,
                                                 int rounds, int repeats) {
  torch::NoGradGuard no_grad;
  const auto input = at::rand({1, 3, resolution, resolution}, at::TensorOptions().device(device));
  std::vector<std::function<void()>> calls;
  for (SegmentationModel* model : models) {
    (*model)->eval();
    calls.push_back([model, &input] { (*model)->predict(input); });
  }
  return measure_call_costs(calls, device, rounds, repeats);
}

}  // namespace adala
