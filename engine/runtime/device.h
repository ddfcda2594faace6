#pragma once
#include <c10/core/Device.h>

#include <string>

namespace adala {

// "auto" picks CUDA when this LibTorch has it and a GPU is visible, else CPU; "cpu", "cuda",
// "cuda:N" are taken as written. Throws std::invalid_argument for anything else or for CUDA
// requested on a build or machine without it.
c10::Device resolve_device(const std::string& name);
// The command line's device where it names one (`--device`), else the config's.
c10::Device resolve_device(const std::string& requested, const std::string& configured);

std::string torch_version_string();

// Gives LibTorch's intra-op pool `threads` threads (<= 0: all hardware threads). OpenBLAS
// (unless OPENBLAS_NUM_THREADS says otherwise) gets as many where OpenMP's idle threads sleep
// (OMP_WAIT_POLICY=passive), else one: OpenMP threads that spin between parallel regions take
// the cores OpenBLAS's pool needs (a ViT-Tiny training step at 2 threads: 557 ms with both
// pools at 2 and passive waits, 905 ms with OpenBLAS at 1, 1704 ms with both at 2 and
// OpenMP's default spin).
void configure_threads(int threads);

// The thread count configure_threads gives OpenBLAS for `threads` intra-op threads.
int openblas_threads_for(int threads);
// OpenBLAS's current thread count; -1 where LibTorch is not linked against OpenBLAS.
int openblas_threads();

// While alive, OpenBLAS runs single-threaded: for matmuls issued from inside a parallel
// region, one per thread, where OpenBLAS's own pool would oversubscribe the cores (the
// blocked linear kernel at N = 16384: 16 ms with it, 47 ms without). OpenBLAS's thread count
// is process-wide, so the scopes of all threads (the engine thread and an inspection thread
// may run the kernel at once) share one count: the first scope to open sets one thread, the
// last to close restores the pool (or what configure_threads asked for meanwhile).
class SingleThreadedBlas {
 public:
  SingleThreadedBlas();
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;
};

// How long an idle OpenBLAS worker spins before it sleeps, as OPENBLAS_THREAD_TIMEOUT gives it
// (2^12 cycles, about 2 us; OpenBLAS's own default is 2^28, about 0.1 s). A worker that spins
// between matmuls, calling sched_yield, takes the core that LibTorch's other thread needs for
// the element-wise work in between: a vit_small training step at 448^2 on 2 cores took
// 938-1014 ms with the default, 737-864 ms with short timeouts.
constexpr const char* kOpenBlasThreadTimeout = "12";

// OpenMP reads OMP_WAIT_POLICY, and OpenBLAS OPENBLAS_THREAD_TIMEOUT, once, when the process
// starts: where either is not set, this sets it (OMP_WAIT_POLICY=PASSIVE,
// OPENBLAS_THREAD_TIMEOUT=kOpenBlasThreadTimeout) and re-executes the program with the same
// arguments (and returns only if that fails). Call first thing in main().
void reexec_with_passive_thread_waits(char** argv);
bool cuda_available();
int cuda_device_count();

}  // namespace adala
