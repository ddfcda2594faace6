#include "engine/train/batch_sampler.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

namespace adala {

namespace {
uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}
}  // namespace

BatchSampler::BatchSampler(int64_t dataset_size, int64_t batch_size, uint64_t seed)
    : size_(dataset_size), batch_size_(std::min(batch_size, dataset_size)), seed_(seed) {
  if (dataset_size <= 0) throw std::invalid_argument("BatchSampler: empty data set");
  if (batch_size <= 0) throw std::invalid_argument("BatchSampler: batch_size must be > 0");
  steps_per_epoch_ = size_ / batch_size_;
}

at::Tensor BatchSampler::indices(int64_t step) {
  const int64_t epoch = step / steps_per_epoch_;
  if (epoch != cached_epoch_) {
    permutation_.resize(static_cast<size_t>(size_));
    std::iota(permutation_.begin(), permutation_.end(), 0);
    std::mt19937_64 rng(mix(seed_, static_cast<uint64_t>(epoch)));
    std::shuffle(permutation_.begin(), permutation_.end(), rng);
    cached_epoch_ = epoch;
  }
  const int64_t start = (step % steps_per_epoch_) * batch_size_;
  return at::tensor(std::vector<int64_t>(permutation_.begin() + start,
                                         permutation_.begin() + start + batch_size_),
                    at::kLong);
}

at::Tensor augment_batch(const at::Tensor& images, uint64_t seed, int64_t step, int64_t max_shift,
                         int64_t first_sample) {
  std::mt19937_64 rng(mix(seed ^ 0xA5A5A5A5ull, static_cast<uint64_t>(step)));
  std::uniform_int_distribution<int64_t> shift(-max_shift, max_shift);
  std::bernoulli_distribution flip(0.5);
  for (int64_t i = 0; i < first_sample; ++i) {  // the earlier positions' draws, discarded
    shift(rng);
    shift(rng);
    flip(rng);
  }
  const int64_t b = images.size(0), h = images.size(2), w = images.size(3);
  auto padded = at::constant_pad_nd(images, {max_shift, max_shift, max_shift, max_shift}, 0.0);
  auto out = at::empty_like(images);
  for (int64_t i = 0; i < b; ++i) {
    const int64_t dy = shift(rng) + max_shift, dx = shift(rng) + max_shift;
    auto crop = padded[i].narrow(1, dy, h).narrow(2, dx, w);
    out[i].copy_(flip(rng) ? crop.flip({2}) : crop);
  }
  return out;
}

}  // namespace adala
