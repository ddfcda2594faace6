#include "engine/train/loader_throughput.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace adala {

LoaderThroughput measure_loader_throughput(const StageData& data, int64_t batch_size,
                                           int64_t batches, int64_t warmup, uint64_t seed,
                                           const std::function<void(int64_t, int64_t)>& on_batch) {
  if (batch_size < 1 || batches < 1 || warmup < 0)
    throw std::invalid_argument("loader benchmark: batch size and batches must be positive");
  if (data.size() < batch_size)
    throw std::invalid_argument("loader benchmark: " + std::to_string(data.size()) +
                                " images, fewer than one batch of " + std::to_string(batch_size));
  const int64_t total = warmup + batches;
  auto loader = make_training_loader(data, batch_size, seed, /*augment=*/true, total);
  using Clock = std::chrono::steady_clock;
  LoaderThroughput result;
  result.threads = data.decode_threads;
  Clock::time_point started = Clock::now();
  for (int64_t step = 0; step < total; ++step) {
    if (step == warmup) started = Clock::now();
    const Batch batch = loader->batch(step);
    if (step >= warmup) result.images += batch.images.size(0);
    if (on_batch) on_batch(step + 1, total);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  result.batches = batches;
  return result;
}

}  // namespace adala
