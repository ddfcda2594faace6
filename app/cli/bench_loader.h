#pragma once
// `adala bench loader FOLDER`: the training loader's images/s on image files per decode-thread
// count (decode + RandomResizedCrop + flip + normalise), for comparison with torchvision
// (scripts/bench-loader.sh).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace adala::cli {

struct LoaderBenchArgs {
  std::string folder;
  std::string source = "image-folder";
  int64_t resolution = 224;
  int64_t batch_size = 64;
  int64_t batches = 20;
  int64_t warmup = 2;
  int64_t limit = 0;
  int64_t seed = 0;
  std::vector<int64_t> threads{1, 2};
  bool json = false;
};

void declare_loader(CLI::App& app, LoaderBenchArgs& a);
int bench_loader(const LoaderBenchArgs& a);

}  // namespace adala::cli
