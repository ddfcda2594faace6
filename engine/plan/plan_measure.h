#pragma once
// One measured inference cost point, as `adala compare-methods` measures it: batch 1, the
// allocator's peak above the weights and the input over one forward pass, then the median ms
// of `repeats` timed forward passes (engine/measure/call_cost.h).
#include <c10/core/Device.h>

#include "engine/model/vision_transformer.h"
#include "engine/plan/plan_record.h"

namespace adala::plan {

PlanCost measure_plan_cost(VisionTransformer& model, int64_t resolution, const c10::Device& device,
                           int repeats);

}  // namespace adala::plan
