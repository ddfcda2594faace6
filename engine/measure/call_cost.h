#pragma once
// The cost of a model call at batch 1 as the workbench reports it (the hybrid planner's points,
// the segmentation resolution table): the allocator's peak above what was allocated before
// (PeakMemoryProbe) over one call after a warm-up call, then `rounds` interleaved rounds, the
// order rotated each round, of `repeats` timed calls; ms is the median of the rounds' medians.
#include <c10/core/Device.h>

#include <functional>
#include <vector>

namespace adala {

struct CallCost {
  double ms_per_call = 0;  // median over rounds of each round's median
  double peak_bytes = 0;   // allocator peak above what was allocated before, over one call
  // Calls (at batch 1: images) per second; 0 when not measured.
  double calls_per_s() const { return ms_per_call > 0 ? 1000.0 / ms_per_call : 0; }
};

// One entry per call, in the calls' order. Callers set no-grad and eval mode as they need.
std::vector<CallCost> measure_call_costs(const std::vector<std::function<void()>>& calls,
                                         const c10::Device& device, int rounds, int repeats);

}  // namespace adala
