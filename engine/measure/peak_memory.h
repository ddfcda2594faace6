#pragma once
// Measured peak memory. Two views of the same work:
//  - RSS: the kernel's resident-set high-water mark (VmHWM) above a baseline. Everything the
//    process touched counts: LibTorch's allocator, oneDNN/OpenBLAS scratch buffers, malloc
//    overhead. Meaningful in a process of its own (see run_in_child), one point per process.
//  - Allocator: the exact peak of bytes held through LibTorch's allocators (CPU, and the CUDA
//    caching allocator), from c10's memory-usage reporting hook - the one the profiler's
//    profile_memory option uses. Works in any process and thread, on CPU and CUDA. On a CUDA
//    device with a CUDA LibTorch the probe reads the caching allocator's own statistics instead
//    (torch.cuda.max_memory_allocated), which also see allocations on other threads and streams.
#include <c10/core/Device.h>

#include <cstdint>
#include <memory>
#include <string>

namespace adala {

// From /proc/self/status, in bytes; -1 when unreadable.
int64_t current_rss_bytes();
int64_t peak_rss_bytes();
// Sets the high-water mark back to the current RSS ("5" into /proc/self/clear_refs, Linux >=
// 4.0). False where the kernel refuses; the mark then still holds the process's history.
bool reset_peak_rss();
// MemAvailable from /proc/meminfo, in bytes; -1 when unknown.
int64_t available_memory_bytes();

// Tracks bytes allocated and freed through LibTorch's allocators by work on the constructing
// thread (and on threads that inherit its thread-local state: autograd, at::launch) while it
// lives. Allocations made before it existed are not counted, so free them only after it is
// gone (LibTorch logs a warning for each such free it sees). Not copyable; one at a time.
class AllocatorPeakTracker {
 public:
  AllocatorPeakTracker();
  ~AllocatorPeakTracker();
  AllocatorPeakTracker(const AllocatorPeakTracker&) = delete;
  AllocatorPeakTracker& operator=(const AllocatorPeakTracker&) = delete;

  int64_t current_bytes() const;
  int64_t peak_bytes() const;
  int64_t allocations() const;
  void reset_peak();  // peak := current

  struct State;

 private:
  struct Guard;
  std::shared_ptr<State> state_;
  std::unique_ptr<Guard> guard_;
};

struct PeakMemory {
  int64_t rss_bytes = -1;        // RSS high-water mark above the baseline; -1 unknown
  int64_t allocator_bytes = -1;  // allocator peak above the baseline; -1 unknown
  int64_t baseline_rss_bytes = -1;
  bool rss_mark_reset = false;       // false: rss_bytes may include history before the baseline
  bool from_cuda_allocator = false;  // allocator_bytes read from the CUDA caching allocator
  int64_t cuda_reserved_bytes = -1;  // its reserved peak above the baseline; -1 unknown
};

// Both measurements over one stretch of work: construct it when the inputs are in place (the
// baseline), run the work, read result().
class PeakMemoryProbe {
 public:
  explicit PeakMemoryProbe(const c10::Device& device = c10::Device(c10::kCPU));
  PeakMemory result() const;
  const AllocatorPeakTracker& allocator() const { return tracker_; }

 private:
  int64_t baseline_ = -1;
  bool reset_ = false;
  c10::Device device_;
  int64_t cuda_allocated_baseline_ = -1, cuda_reserved_baseline_ = -1;
  AllocatorPeakTracker tracker_;
};

}  // namespace adala
