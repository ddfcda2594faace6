#pragma once
// The inference cost of several models measured side by side: a machine whose speed drifts
// (here up to 6x within minutes) makes costs measured one model at a time, minutes apart, unfit
// for comparison. Each round measures every model once, at every resolution, in a rotated order;
// each model keeps the median of its rounds' medians and its largest peak. `adala plan` measures
// its trained plans so after training, and `adala frontier --measure` a database's plans again.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <c10/core/Device.h>

#include "engine/model/vision_transformer.h"
#include "engine/plan/plan_record.h"

namespace adala::plan {

struct InterleavedCostOptions {
  std::vector<int64_t> resolutions;
  int repeats = 5;  // timed forward passes per measurement (median)
  int rounds = 3;   // >= 1
};

// Costs[model][resolution index]. Throws std::invalid_argument for no resolution or rounds < 1.
std::vector<std::vector<PlanCost>> measure_interleaved(
    std::vector<VisionTransformer>& models, const c10::Device& device,
    const InterleavedCostOptions& options,
    const std::function<void(const std::string&)>& progress = {});

// The model of a recorded plan point: its run folder's last stage output (the teacher's for the
// point named "teacher"), with the point's attention plan. Throws std::runtime_error naming the
// run when the run has no folder or the file is missing.
VisionTransformer load_plan_point_model(store::RunStore& store, const PlanPoint& point,
                                        const c10::Device& device);

// Measures `points` side by side (measure_interleaved) and writes their costs back to the
// database; returns the points with their new costs.
std::vector<PlanPoint> remeasure_plan_points(
    store::RunStore& store, std::vector<PlanPoint> points, const c10::Device& device,
    const InterleavedCostOptions& options,
    const std::function<void(const std::string&)>& progress = {});

}  // namespace adala::plan
