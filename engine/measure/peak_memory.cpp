#include "engine/measure/peak_memory.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include "engine/measure/cuda_allocator_stats.h"

namespace adala {

namespace {

// "VmRSS:     1234 kB" -> 1234 * 1024
int64_t read_kb_field(const char* path, const char* key) {
  std::ifstream in(path);
  std::string line;
  const size_t len = std::strlen(key);
  while (std::getline(in, line)) {
    if (line.compare(0, len, key) == 0 && line.size() > len && line[len] == ':') {
      try {
        return std::stoll(line.substr(len + 1)) * 1024;
      } catch (...) {
        return -1;
      }
    }
  }
  return -1;
}

}  // namespace

int64_t current_rss_bytes() { return read_kb_field("/proc/self/status", "VmRSS"); }

int64_t peak_rss_bytes() {
  const int64_t hwm = read_kb_field("/proc/self/status", "VmHWM");
  if (hwm >= 0) return hwm;
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) == 0) return int64_t(usage.ru_maxrss) * 1024;
  return -1;
}

bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  if (!out) return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

int64_t available_memory_bytes() { return read_kb_field("/proc/meminfo", "MemAvailable"); }

// ---------------------------------------------------------------------------------------------

namespace {
// The type of reportMemoryUsage's running totals: int64_t in LibTorch 1.x, size_t in 2.x.
template <class F>
struct TotalsArgument;
template <class C, class R, class Ptr, class Size, class Total, class Reserved, class Device>
struct TotalsArgument<R (C::*)(Ptr, Size, Total, Reserved, Device)> {
  using type = Total;
};
using MemoryTotal =
    TotalsArgument<decltype(&c10::MemoryReportingInfoBase::reportMemoryUsage)>::type;
}  // namespace

struct AllocatorPeakTracker::State : public c10::MemoryReportingInfoBase {
  std::atomic<int64_t> current{0}, peak{0}, count{0};

  void reportMemoryUsage(void* /*ptr*/, int64_t alloc_size, MemoryTotal /*total_allocated*/,
                         MemoryTotal /*total_reserved*/, c10::Device /*device*/) override {
    const int64_t now = current.fetch_add(alloc_size) + alloc_size;
    if (alloc_size > 0) count.fetch_add(1);
    int64_t seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
  }
  bool memoryProfilingEnabled() const override { return true; }
};

struct AllocatorPeakTracker::Guard {
  explicit Guard(std::shared_ptr<c10::DebugInfoBase> info)
      : guard(c10::DebugInfoKind::PROFILER_STATE, std::move(info)) {}
  c10::DebugInfoGuard guard;
};

AllocatorPeakTracker::AllocatorPeakTracker()
    : state_(std::make_shared<State>()), guard_(std::make_unique<Guard>(state_)) {}

AllocatorPeakTracker::~AllocatorPeakTracker() = default;

int64_t AllocatorPeakTracker::current_bytes() const { return state_->current.load(); }
int64_t AllocatorPeakTracker::peak_bytes() const { return state_->peak.load(); }
int64_t AllocatorPeakTracker::allocations() const { return state_->count.load(); }
void AllocatorPeakTracker::reset_peak() { state_->peak.store(state_->current.load()); }

// ---------------------------------------------------------------------------------------------

PeakMemoryProbe::PeakMemoryProbe(const c10::Device& device) : device_(device) {
  baseline_ = current_rss_bytes();
  reset_ = reset_peak_rss();
  if (reset_cuda_peak_stats(device_)) {
    if (const auto stats = cuda_allocator_stats(device_)) {
      cuda_allocated_baseline_ = stats->allocated_bytes;
      cuda_reserved_baseline_ = stats->reserved_bytes;
    }
  }
}

PeakMemory PeakMemoryProbe::result() const {
  PeakMemory m;
  m.baseline_rss_bytes = baseline_;
  m.rss_mark_reset = reset_;
  const int64_t hwm = peak_rss_bytes();
  if (baseline_ >= 0 && hwm >= 0) m.rss_bytes = std::max<int64_t>(0, hwm - baseline_);
  m.allocator_bytes = tracker_.peak_bytes();
  if (cuda_allocated_baseline_ >= 0) {
    if (const auto stats = cuda_allocator_stats(device_)) {
      m.allocator_bytes =
          std::max<int64_t>(0, stats->allocated_peak_bytes - cuda_allocated_baseline_);
      m.cuda_reserved_bytes =
          std::max<int64_t>(0, stats->reserved_peak_bytes - cuda_reserved_baseline_);
      m.from_cuda_allocator = true;
    }
  }
  return m;
}

}  // namespace adala
