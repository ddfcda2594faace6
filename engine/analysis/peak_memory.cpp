#include "engine/analysis/peak_memory.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

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

struct AllocatorPeakTracker::State : public c10::MemoryReportingInfoBase {
  std::atomic<int64_t> current{0}, peak{0}, count{0};

  void reportMemoryUsage(void* /*ptr*/, int64_t alloc_size, int64_t /*total_allocated*/,
                         int64_t /*total_reserved*/, c10::Device /*device*/) override {
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

PeakMemoryProbe::PeakMemoryProbe() {
  baseline_ = current_rss_bytes();
  reset_ = reset_peak_rss();
}

PeakMemory PeakMemoryProbe::result() const {
  PeakMemory m;
  m.baseline_rss_bytes = baseline_;
  m.rss_mark_reset = reset_;
  const int64_t hwm = peak_rss_bytes();
  if (baseline_ >= 0 && hwm >= 0) m.rss_bytes = std::max<int64_t>(0, hwm - baseline_);
  m.allocator_bytes = tracker_.peak_bytes();
  return m;
}

}  // namespace adala
