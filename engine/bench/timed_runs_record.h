#pragma once
// What a benchmark child process reports of a measured point (bench scaling, its --train
// steps, bench stage2): the timed runs' median, min, max and count, and the peak memory.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/json/json.h"
#include "engine/measure/bench_common.h"
#include "engine/measure/peak_memory.h"

namespace adala {

inline void record_timed_runs(Json& r, const std::vector<double>& times_ms, const PeakMemory& mem) {
  r["median_ms"] = median(times_ms);
  r["min_ms"] = *std::min_element(times_ms.begin(), times_ms.end());
  r["max_ms"] = *std::max_element(times_ms.begin(), times_ms.end());
  r["runs"] = int64_t(times_ms.size());
  r["rss"] = mem.rss_bytes;
  r["alloc"] = mem.allocator_bytes;
}

}  // namespace adala
