#include "engine/plan/plan_measure.h"

#include <torch/torch.h>

#include "engine/analysis/bench_common.h"
#include "engine/analysis/peak_memory.h"
#include "engine/runtime/device.h"

namespace adala::plan {

PlanCost measure_plan_cost(VisionTransformer& model, int64_t resolution, const c10::Device& device,
                           int repeats) {
  torch::NoGradGuard no_grad;
  model->eval();
  PlanCost cost;
  cost.resolution = resolution;
  const auto input = at::randn({1, model->config().in_chans, resolution, resolution},
                               at::TensorOptions().device(device));
  {
    PeakMemoryProbe probe(device);
    model->forward(input);
    synchronize_device(device);
    cost.peak_bytes = double(probe.result().allocator_bytes);
  }
  cost.ms_per_img = median(time_runs_ms([&] { model->forward(input); }, 1, repeats, device, 60));
  return cost;
}

}  // namespace adala::plan
