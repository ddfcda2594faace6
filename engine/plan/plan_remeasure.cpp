#include "engine/plan/plan_remeasure.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/measure/bench_common.h"
#include "engine/plan/plan_measure.h"
#include "engine/train/events.h"
#include "engine/train/pipeline.h"
#include "engine/train/run_model.h"
#include "engine/train/stage_catalog.h"

namespace adala::plan {

namespace fs = std::filesystem;

std::vector<std::vector<PlanCost>> measure_interleaved(
    std::vector<VisionTransformer>& models, const c10::Device& device,
    const InterleavedCostOptions& options,
    const std::function<void(const std::string&)>& progress) {
  if (options.resolutions.empty())
    throw std::invalid_argument("measure_interleaved: no resolution");
  if (options.rounds < 1) throw std::invalid_argument("measure_interleaved: rounds must be >= 1");
  const size_t n = models.size(), nres = options.resolutions.size();
  std::vector<std::vector<std::vector<double>>> ms(n, std::vector<std::vector<double>>(nres));
  std::vector<std::vector<PlanCost>> out(n, std::vector<PlanCost>(nres));
  for (int round = 0; round < options.rounds; ++round) {
    if (progress)
      progress(fmt::format("cost round {}/{} ({} models)", round + 1, options.rounds, n));
    for (size_t k = 0; k < n; ++k) {
      const size_t m = (k + size_t(round)) % n;  // rotated: no model always first
      for (size_t r = 0; r < nres; ++r) {
        const PlanCost c =
            measure_plan_cost(models[m], options.resolutions[r], device, options.repeats);
        ms[m][r].push_back(c.ms_per_img);
        PlanCost& best = out[m][r];
        best.resolution = options.resolutions[r];
        if (!(best.peak_bytes >= c.peak_bytes)) best.peak_bytes = c.peak_bytes;
      }
    }
  }
  for (size_t m = 0; m < n; ++m)
    for (size_t r = 0; r < nres; ++r) out[m][r].ms_per_img = median(ms[m][r]);
  return out;
}

VisionTransformer load_plan_point_model(store::RunStore& store, const PlanPoint& point,
                                        const c10::Device& device) {
  const auto run = store.find_run(point.run);
  if (!run || run->folder.empty())
    throw std::runtime_error(
        fmt::format("plan {} (run {}): the run has no folder", point.name, point.run));
  const bool teacher = point.name == kTeacherPlanName;
  const std::string path = stage_output_path(run->folder, teacher ? 0 : 3);
  if (!fs::exists(path))
    throw std::runtime_error(fmt::format("plan {} (run {}): no {}", point.name, point.run, path));
  VisionTransformer model = load_run_model_for_eval(load_run_config(run->folder), path, device);
  AttentionPlan plan;
  plan.modes = point.modes;
  plan.window = point.window;
  model->set_attention_plan(plan);
  return model;
}

std::vector<PlanPoint> remeasure_plan_points(
    store::RunStore& store, std::vector<PlanPoint> points, const c10::Device& device,
    const InterleavedCostOptions& options,
    const std::function<void(const std::string&)>& progress) {
  std::vector<VisionTransformer> models;
  for (const auto& p : points) models.push_back(load_plan_point_model(store, p, device));
  const auto costs = measure_interleaved(models, device, options, progress);
  for (size_t i = 0; i < points.size(); ++i) {
    for (const PlanCost& c : costs[i]) {
      auto it = std::find_if(points[i].costs.begin(), points[i].costs.end(),
                             [&](const PlanCost& old) { return old.resolution == c.resolution; });
      if (it != points[i].costs.end())
        *it = c;
      else
        points[i].costs.push_back(c);
    }
    std::sort(points[i].costs.begin(), points[i].costs.end(),
              [](const PlanCost& a, const PlanCost& b) { return a.resolution < b.resolution; });
    record_plan_point(store, points[i]);
  }
  return points;
}

}  // namespace adala::plan
