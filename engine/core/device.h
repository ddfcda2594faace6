#pragma once
#include <c10/core/Device.h>

#include <string>

namespace adala {

// "auto" picks CUDA when this LibTorch has it and a GPU is visible, else CPU; "cpu", "cuda",
// "cuda:N" are taken as written. Throws std::invalid_argument for anything else or for CUDA
// requested on a build or machine without it.
c10::Device resolve_device(const std::string& name);

std::string torch_version_string();

// Gives LibTorch's intra-op pool `threads` threads (<= 0: all hardware threads) and keeps
// OpenBLAS single-threaded, since its own pool fights LibTorch's for the same cores.
void configure_threads(int threads);
bool cuda_available();
int cuda_device_count();

}  // namespace adala
