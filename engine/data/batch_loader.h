#pragma once
// Batches from a Dataset, decoded by N threads ahead of the consumer into a bounded queue.
// The batch of global step s depends only on the indices of s and on (seed, s): sample i of
// step s is transformed with sample_generator(seed, s, i), and a bad image that is skipped is
// replaced by the next good index. So 1 or 4 threads, prefetch or none, resumed or not, step s
// gets bit-identical tensors.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/data/dataset.h"
#include "engine/data/split_mix.h"

namespace adala {

struct LoaderOptions {
  int64_t threads = 0;   // decode threads; 0 decodes in the caller's thread, on demand
  int64_t prefetch = 2;  // batches decoded ahead of the one asked for (threads > 0)
  uint64_t seed = 0;
  int64_t end_step = 0;          // nothing is decoded ahead at or after this step (0: no end)
  bool skip_bad_images = false;  // false: a bad image throws BadImageError naming the file
  // Batches in page-locked memory, pinned by the decoder, so the copy to a CUDA device can be
  // non-blocking. Only for CUDA runs (pinning needs a CUDA build and device); false changes
  // nothing.
  bool pin_memory = false;
  // Position of this loader's first sample in the step's global batch (data parallelism:
  // rank r of W reads items [r * B / W, (r + 1) * B / W) of each step). Sample i draws its
  // randomness from sample_generator(seed, step, first_sample + i), so the ranks together
  // transform the global batch exactly as one process does.
  int64_t first_sample = 0;
};

struct Batch {
  int64_t step = 0;
  at::Tensor images;             // (B, C, H, W) float
  at::Tensor labels;             // (B) int64; -1 where the source has no labels
  std::vector<int64_t> indices;  // the dataset items used (after any skip)
  double wait_seconds = 0.0;     // how long batch() waited for the decoders
};

// The dataset items of a step, e.g. a BatchSampler's permutation slice or an eval range.
using BatchIndices = std::function<std::vector<int64_t>(int64_t step)>;
// (C, H, W) uint8 -> (C, H', W') float, drawing randomness from the generator only.
using SampleTransform = std::function<at::Tensor(const at::Tensor& image, SplitMix64& rng)>;

class BatchLoader {
 public:
  BatchLoader(std::shared_ptr<const Dataset> dataset, SampleTransform transform,
              BatchIndices indices, LoaderOptions options);
  ~BatchLoader();
  BatchLoader(const BatchLoader&) = delete;
  BatchLoader& operator=(const BatchLoader&) = delete;

  // The batch of `step`. Steps asked for in increasing order are decoded ahead; any other
  // order works too (the queue restarts at the step asked for). Rethrows a decoder's error.
  Batch batch(int64_t step);
  // Distinct bad images skipped so far (skip_bad_images), and their names.
  int64_t bad_images_skipped() const;
  std::vector<std::string> bad_image_names() const;
  const Dataset& dataset() const { return *dataset_; }

 private:
  struct Shared;
  std::shared_ptr<const Dataset> dataset_;
  std::unique_ptr<Shared> shared_;
};

}  // namespace adala
