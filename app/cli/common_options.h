#pragma once
// The options of `adala` itself, taken from anywhere on the line before the command runs.
#include <CLI/CLI.hpp>

#include <string>

namespace adala::cli {

struct CommonOptions {
  int threads = 0;  // 0 (not given): all cores
  bool force_threads = false;
  std::string linear_kernel = "fused";
};

// Declares --threads, --force-threads and --linear-kernel on app, stored in options.
void declare_common_options(CLI::App& app, CommonOptions& options);

// Throws UsageError for --threads above 4 x the cores without --force-threads.
void check_common_options(const CommonOptions& options);

}  // namespace adala::cli
