#include "engine/measure/cuda_allocator_stats.h"

#ifdef ADALA_TORCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

namespace adala {

#ifdef ADALA_TORCH_CUDA
namespace {
constexpr size_t kAggregate = 0;  // StatType::AGGREGATE, in every release's StatArray
}  // namespace

bool cuda_allocator_stats_built() { return true; }

std::optional<CudaAllocatorStats> cuda_allocator_stats(const c10::Device& device) {
  if (!device.is_cuda()) return std::nullopt;
  const auto index = device.has_index() ? device.index() : c10::DeviceIndex(0);
  const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(index);
  CudaAllocatorStats s;
  s.allocated_bytes = stats.allocated_bytes[kAggregate].current;
  s.allocated_peak_bytes = stats.allocated_bytes[kAggregate].peak;
  s.reserved_bytes = stats.reserved_bytes[kAggregate].current;
  s.reserved_peak_bytes = stats.reserved_bytes[kAggregate].peak;
  return s;
}

bool reset_cuda_peak_stats(const c10::Device& device) {
  if (!device.is_cuda()) return false;
  c10::cuda::CUDACachingAllocator::resetPeakStats(device.has_index() ? device.index()
                                                                     : c10::DeviceIndex(0));
  return true;
}
#else
bool cuda_allocator_stats_built() { return false; }
std::optional<CudaAllocatorStats> cuda_allocator_stats(const c10::Device&) { return std::nullopt; }
bool reset_cuda_peak_stats(const c10::Device&) { return false; }
#endif

}  // namespace adala
