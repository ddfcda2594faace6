#include "app/cli/common_options.h"

#include <algorithm>
#include <thread>

#include "app/cli/arg_parser.h"
#include "engine/kernels/linear_training_kernel.h"

namespace adala::cli {

namespace {

// More threads than this per core only slow a run down (and a typo like 99999 would take
// minutes to start): refused unless --force-threads.
constexpr int kMaxThreadsPerCore = 4;

int core_count() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace

void declare_common_options(CLI::App& app, CommonOptions& options) {
  app.add_option("--threads", options.threads, "intra-op threads (default: all cores)")
      ->check(positive_number());
  app.add_flag("--force-threads", options.force_threads,
               "allow --threads above " + std::to_string(kMaxThreadsPerCore) + " x the cores");
  app.add_option("--linear-kernel", options.linear_kernel,
                 "linear attention in training: fused (the fused autograd kernel on CPU, the "
                 "padded form elsewhere), batched (the formula under autograd, as before it; for "
                 "comparisons) or padded (few large LibTorch operations, CUDA's path)")
      ->check(CLI::IsMember(linear_training_kernel_names()));
}

void check_common_options(const CommonOptions& options) {
  const int limit = kMaxThreadsPerCore * core_count();
  if (options.threads > limit && !options.force_threads)
    throw UsageError("--threads " + std::to_string(options.threads) + " is more than " +
                     std::to_string(kMaxThreadsPerCore) + " x the " + std::to_string(core_count()) +
                     " cores (at most " + std::to_string(limit) + "; --force-threads allows it)");
}

}  // namespace adala::cli
