#include "engine/seg/segmentation_sweep.h"

#include <algorithm>
#include <cmath>

#include <torch/torch.h>

#include "engine/analysis/bench_common.h"
#include "engine/analysis/peak_memory.h"
#include "engine/runtime/device.h"

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

std::vector<InferenceCost> measure_segmentation_costs(std::vector<SegmentationModel*> models,
                                                      int64_t resolution, const c10::Device& device,
                                                      int rounds, int repeats) {
  torch::NoGradGuard no_grad;
  const auto input = at::rand({1, 3, resolution, resolution}, at::TensorOptions().device(device));
  std::vector<InferenceCost> costs(models.size());
  std::vector<std::vector<double>> medians(models.size());
  for (size_t m = 0; m < models.size(); ++m) {
    SegmentationModel& model = *models[m];
    model->eval();
    model->predict(input);  // warm-up: the allocator's first touches are not the model's peak
    PeakMemoryProbe probe(device);
    model->predict(input);
    synchronize_device(device);
    costs[m].peak_bytes = double(probe.result().allocator_bytes);
  }
  for (int round = 0; round < rounds; ++round)
    for (size_t k = 0; k < models.size(); ++k) {
      const size_t m = (k + size_t(round)) % models.size();
      SegmentationModel& model = *models[m];
      medians[m].push_back(
          median(time_runs_ms([&] { model->predict(input); }, 1, repeats, device, 60)));
    }
  for (size_t m = 0; m < models.size(); ++m) costs[m].ms_per_img = median(medians[m]);
  return costs;
}

}  // namespace adala
