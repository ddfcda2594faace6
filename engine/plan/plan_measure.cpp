#include "engine/plan/plan_measure.h"

#include <torch/torch.h>

#include "engine/measure/call_cost.h"

namespace adala::plan {

PlanCost measure_plan_cost(VisionTransformer& model, int64_t resolution, const c10::Device& device,
                           int repeats) {
  torch::NoGradGuard no_grad;
  model->eval();
  PlanCost cost;
  cost.resolution = resolution;
  const auto input = at::randn({1, model->config().in_chans, resolution, resolution},
                               at::TensorOptions().device(device));
  const CallCost measured =
      measure_call_costs({[&] { model->forward(input); }}, device, 1, repeats).front();
  cost.peak_bytes = measured.peak_bytes;
  cost.ms_per_img = measured.ms_per_call;
  return cost;
}

}  // namespace adala::plan
