#pragma once
// The data a stage trains or evaluates on: a dataset read one sample at a time, its
// transform, and the loader's settings. Stages draw batches from a BatchLoader; none holds the
// dataset in memory or on the device.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <memory>
#include <string>

#include "engine/data/batch_loader.h"
#include "engine/data/dataset.h"
#include "engine/data/image_transform.h"
#include "engine/train/data_parallel.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

struct StageData {
  std::shared_ptr<const Dataset> dataset;
  TransformSpec transform;
  int64_t decode_threads = 0;
  int64_t prefetch = 2;
  bool skip_bad_images = false;
  bool pin_memory = false;  // CUDA runs: the loaders pin their batches (LoaderOptions)
  int64_t size() const { return dataset ? dataset->size() : 0; }
};

// Opens a configured source (listing files, reading idx headers; no image is decoded). Throws
// ConfigError naming `field` (e.g. "data.train") when the source cannot be opened.
StageData open_stage_data(const DataSourceConfig& source, const DataConfig& data,
                          const std::string& field);
// Images already in memory ((N, C, H, W) float in [0, 1]) used as they are.
StageData in_memory_stage_data(const at::Tensor& images, const at::Tensor& labels = {});

// Training batches: step s holds the BatchSampler(size, batch_size, seed) indices of s, each
// image transformed for training (timm: RandomResizedCrop + flip) when `augment`, else for
// evaluation. Nothing is decoded ahead at or after `end_step`.
std::unique_ptr<BatchLoader> make_training_loader(const StageData& data, int64_t batch_size,
                                                  uint64_t seed, bool augment, int64_t end_step);
// The same batches, but only this rank's slice of each (data parallelism: `slice` of the
// global batch of `batch_size`, transformed as the single-process loader transforms it).
std::unique_ptr<BatchLoader> make_training_loader(const StageData& data, int64_t batch_size,
                                                  uint64_t seed, bool augment, int64_t end_step,
                                                  RankSlice slice);
// Evaluation batches: step k holds items [k * batch_size, (k + 1) * batch_size) in order,
// evaluation transform.
std::unique_ptr<BatchLoader> make_evaluation_loader(const StageData& data, int64_t batch_size);
int64_t evaluation_steps(const StageData& data, int64_t batch_size);

// `data` as a stage on `device` reads it: on CUDA its loaders pin their batches; elsewhere
// unchanged.
StageData for_device(StageData data, const c10::Device& device);
// A batch tensor on the device: from pinned memory to CUDA without blocking the host (the
// copy is ordered on the current stream before the kernels that use it); on the CPU the same
// tensor, as before.
at::Tensor to_device(const at::Tensor& host, const c10::Device& device);

}  // namespace adala
