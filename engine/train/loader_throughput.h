#pragma once
// How fast a stage's training loader turns image files into batches (decode, RandomResizedCrop,
// flip, normalise) with a given number of decode threads: the loader benchmark.
#include <cstdint>
#include <functional>

#include "engine/train/stage_data.h"

namespace adala {

struct LoaderThroughput {
  int64_t threads = 0;
  int64_t batches = 0;  // timed, after the warm-up
  int64_t images = 0;
  double seconds = 0.0;
  double images_per_second() const { return seconds > 0.0 ? double(images) / seconds : 0.0; }
};

// Draws `warmup + batches` training batches (augmented, as Stages 0 and 3 draw them) of
// `batch_size` from `data` with `data.decode_threads` threads and times the last `batches`
// (the warm-up fills the prefetch queue and starts the threads, as a DataLoader's first batch
// starts its workers). `on_batch(done, total)` reports progress.
LoaderThroughput measure_loader_throughput(
    const StageData& data, int64_t batch_size, int64_t batches, int64_t warmup, uint64_t seed,
    const std::function<void(int64_t, int64_t)>& on_batch = {});

}  // namespace adala
