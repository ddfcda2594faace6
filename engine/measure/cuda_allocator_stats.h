#pragma once
// Statistics of LibTorch's CUDA caching allocator (what torch.cuda.max_memory_allocated reads):
// the bytes held by tensors and the bytes reserved from the driver, current and peak, per
// device. Present when the engine is built against a CUDA LibTorch; absent (nullopt) otherwise.
#include <c10/core/Device.h>

#include <cstdint>
#include <optional>

namespace adala {

struct CudaAllocatorStats {
  int64_t allocated_bytes = 0, allocated_peak_bytes = 0;
  int64_t reserved_bytes = 0, reserved_peak_bytes = 0;
};

// True when this build reads the CUDA caching allocator (a CUDA LibTorch).
bool cuda_allocator_stats_built();
// The device's statistics; nullopt without a CUDA build or on a device that is not CUDA.
std::optional<CudaAllocatorStats> cuda_allocator_stats(const c10::Device& device);
// Peaks := current values (torch.cuda.reset_peak_memory_stats). False where unavailable.
bool reset_cuda_peak_stats(const c10::Device& device);

}  // namespace adala
