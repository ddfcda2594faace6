#include "engine/measure/call_cost.h"

#include "engine/measure/bench_common.h"
#include "engine/measure/peak_memory.h"
#include "engine/runtime/device.h"

namespace adala {

std::vector<CallCost> measure_call_costs(const std::vector<std::function<void()>>& calls,
                                         const c10::Device& device, int rounds, int repeats) {
  std::vector<CallCost> costs(calls.size());
  for (size_t m = 0; m < calls.size(); ++m) {
    calls[m]();  // warm-up: the allocator's first touches are not the call's peak
    PeakMemoryProbe probe(device);
    calls[m]();
    synchronize_device(device);
    costs[m].peak_bytes = double(probe.result().allocator_bytes);
  }
  std::vector<std::vector<double>> medians(calls.size());
  for (int round = 0; round < rounds; ++round)
    for (size_t k = 0; k < calls.size(); ++k) {
      const size_t m = (k + size_t(round)) % calls.size();
      medians[m].push_back(median(time_runs_ms(calls[m], 1, repeats, device, 60)));
    }
  for (size_t m = 0; m < calls.size(); ++m)
    if (!medians[m].empty()) costs[m].ms_per_call = median(medians[m]);
  return costs;
}

}  // namespace adala
