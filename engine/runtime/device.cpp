#include "engine/runtime/device.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <ATen/Parallel.h>

#include <torch/cuda.h>
#include <torch/version.h>

namespace adala {

c10::Device resolve_device(const std::string& requested, const std::string& configured) {
  return resolve_device(requested.empty() ? configured : requested);
}

c10::Device resolve_device(const std::string& name) {
  if (name == "auto" || name.empty())
    return cuda_available() ? c10::Device(c10::kCUDA, 0) : c10::Device(c10::kCPU);
  if (name == "cpu") return c10::Device(c10::kCPU);
  if (name == "cuda" || name.rfind("cuda:", 0) == 0) {
    if (!cuda_available())
      throw std::invalid_argument("device \"" + name +
                                  "\" requested, but this LibTorch build has no usable CUDA "
                                  "device (build against a CUDA LibTorch or use --device cpu)");
    c10::Device device(name == "cuda" ? std::string("cuda:0") : name);
    if (device.index() >= cuda_device_count())
      throw std::invalid_argument("device \"" + name + "\" out of range: " +
                                  std::to_string(cuda_device_count()) + " CUDA device(s) visible");
    return device;
  }
  throw std::invalid_argument("unknown device \"" + name +
                              "\" (expected auto, cpu, cuda or cuda:N)");
}

namespace {

bool openmp_waits_passively() {
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  if (!policy) return false;
  std::string p(policy);
  for (auto& ch : p) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return p == "passive";
}

void set_openblas_threads(int n) {
  using SetThreads = void (*)(int);
  if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    fn(n);
}

}  // namespace

int openblas_threads_for(int threads) { return openmp_waits_passively() ? threads : 1; }

int openblas_threads() {
  using GetThreads = int (*)();
  auto fn = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  return fn ? fn() : -1;
}

namespace {

// The open SingleThreadedBlas scopes of all threads, and the OpenBLAS thread count to restore
// when the last one closes.
struct SingleThreadedBlasScopes {
  std::mutex mutex;
  int open = 0;
  int threads_to_restore = -1;
};

SingleThreadedBlasScopes& single_threaded_blas_scopes() {
  static SingleThreadedBlasScopes scopes;
  return scopes;
}

}  // namespace

SingleThreadedBlas::SingleThreadedBlas() {
  auto& scopes = single_threaded_blas_scopes();
  const std::lock_guard<std::mutex> lock(scopes.mutex);
  if (scopes.open++ > 0) return;
  scopes.threads_to_restore = openblas_threads();
  if (scopes.threads_to_restore > 1) set_openblas_threads(1);
}

SingleThreadedBlas::~SingleThreadedBlas() {
  auto& scopes = single_threaded_blas_scopes();
  const std::lock_guard<std::mutex> lock(scopes.mutex);
  if (--scopes.open > 0) return;
  if (scopes.threads_to_restore > 1) set_openblas_threads(scopes.threads_to_restore);
}

void configure_threads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!std::getenv("OPENBLAS_NUM_THREADS")) {
    const int blas_threads = openblas_threads_for(threads);
    auto& scopes = single_threaded_blas_scopes();
    const std::lock_guard<std::mutex> lock(scopes.mutex);
    if (scopes.open > 0)
      scopes.threads_to_restore = blas_threads;  // applied when the last scope closes
    else
      set_openblas_threads(blas_threads);
  }
  at::set_num_threads(threads);
}

void reexec_with_passive_thread_waits(char** argv) {
  const bool set_policy = !std::getenv("OMP_WAIT_POLICY");
  const bool set_timeout = !std::getenv("OPENBLAS_THREAD_TIMEOUT");
  if (!set_policy && !set_timeout) return;
  if (set_policy) setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
  if (set_timeout) setenv("OPENBLAS_THREAD_TIMEOUT", kOpenBlasThreadTimeout, 1);
  execv("/proc/self/exe", argv);
  // exec failed: carry on as we are; configure_threads then keeps OpenBLAS at one thread.
  if (set_policy) unsetenv("OMP_WAIT_POLICY");
  if (set_timeout) unsetenv("OPENBLAS_THREAD_TIMEOUT");
}

std::string torch_version_string() { return TORCH_VERSION; }

bool cuda_available() { return torch::cuda::is_available(); }

int cuda_device_count() { return static_cast<int>(torch::cuda::device_count()); }

}  // namespace adala
