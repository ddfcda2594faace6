#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

namespace adala {

// Deterministic mini-batches: epoch e visits a permutation that depends only on (seed, e),
// so step s always sees the same images, whether or not the run was resumed in between.
class BatchSampler {
 public:
  BatchSampler(int64_t dataset_size, int64_t batch_size, uint64_t seed);
  int64_t steps_per_epoch() const { return steps_per_epoch_; }
  int64_t batch_size() const { return batch_size_; }
  // Indices (int64) of the 0-based global step.
  at::Tensor indices(int64_t step);

 private:
  int64_t size_, batch_size_, steps_per_epoch_;
  uint64_t seed_;
  int64_t cached_epoch_ = -1;
  std::vector<int64_t> permutation_;
};

// Random shifts of up to `max_shift` pixels (zero fill) and horizontal flips, drawn from
// (seed, step) alone. images: (B, C, H, W), positions [first_sample, first_sample + B) of the
// step's global batch (data parallelism: a rank's slice gets the draws of its positions).
at::Tensor augment_batch(const at::Tensor& images, uint64_t seed, int64_t step,
                         int64_t max_shift = 2, int64_t first_sample = 0);

}  // namespace adala
