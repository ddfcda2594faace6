#include "engine/train/stage_data.h"

#include <ATen/ATen.h>

#include "engine/data/fashion_mnist.h"
#include "engine/data/tensor_dataset.h"
#include "engine/train/batch_sampler.h"
#ifdef ADALA_HAVE_IMAGE_FILES
#include "engine/data/opencv/image_file_dataset.h"
#endif

namespace adala {

namespace {

std::shared_ptr<const Dataset> open_dataset(const DataSourceConfig& s) {
  if (s.source == "fashion-mnist")
    return std::make_shared<FashionMnistDataset>(
        s.root.empty() ? default_fashion_mnist_root() : s.root, s.split, s.limit);
#ifdef ADALA_HAVE_IMAGE_FILES
  if (s.source == "image-folder") return open_image_folder(s.root, s.classes, s.channels, s.limit);
  if (s.source == "image-list")
    return open_image_list(s.list.empty() ? s.root : s.list, s.list.empty() ? "" : s.root,
                           s.channels, s.limit);
  throw std::invalid_argument("unknown data source \"" + s.source + "\"");
#else
  throw std::invalid_argument("the " + s.source + " source needs OpenCV, which this build lacks");
#endif
}

SampleTransform transform_for(const TransformSpec& spec, bool training) {
  return [spec, training](const at::Tensor& image, SplitMix64& rng) {
    return apply_transform(image, spec, training, rng);
  };
}

LoaderOptions loader_options(const StageData& data, uint64_t seed, int64_t end_step) {
  LoaderOptions o;
  o.threads = data.decode_threads;
  o.prefetch = data.prefetch;
  o.seed = seed;
  o.end_step = end_step;
  o.skip_bad_images = data.skip_bad_images;
  o.pin_memory = data.pin_memory;
  return o;
}

}  // namespace

StageData open_stage_data(const DataSourceConfig& source, const DataConfig& data,
                          const std::string& field) {
  StageData d;
  try {
    d.dataset = open_dataset(source);
  } catch (const std::exception& e) {
    throw ConfigError(field, e.what());
  }
  d.transform = source.transform;
  d.decode_threads = data.decode_threads;
  d.prefetch = data.prefetch;
  d.skip_bad_images = data.skip_bad_images;
  return d;
}

StageData in_memory_stage_data(const at::Tensor& images, const at::Tensor& labels) {
  StageData d;
  d.dataset = std::make_shared<TensorDataset>(images, labels);
  d.transform.preprocess = "none";
  d.transform.resolution = images.size(-1);
  d.transform.mean = {0.0};
  d.transform.std = {1.0};
  d.decode_threads = 0;
  return d;
}

std::unique_ptr<BatchLoader> make_training_loader(const StageData& data, int64_t batch_size,
                                                  uint64_t seed, bool augment, int64_t end_step) {
  return make_training_loader(data, batch_size, seed, augment, end_step, {0, batch_size});
}

std::unique_ptr<BatchLoader> make_training_loader(const StageData& data, int64_t batch_size,
                                                  uint64_t seed, bool augment, int64_t end_step,
                                                  RankSlice slice) {
  auto sampler = std::make_shared<BatchSampler>(data.size(), batch_size, seed);
  BatchIndices indices = [sampler, slice](int64_t step) {
    const at::Tensor idx = sampler->indices(step).narrow(0, slice.first, slice.count);
    return std::vector<int64_t>(idx.data_ptr<int64_t>(), idx.data_ptr<int64_t>() + idx.numel());
  };
  LoaderOptions options = loader_options(data, seed, end_step);
  options.first_sample = slice.first;
  return std::make_unique<BatchLoader>(data.dataset, transform_for(data.transform, augment),
                                       std::move(indices), options);
}

StageData for_device(StageData data, const c10::Device& device) {
  data.pin_memory = device.is_cuda();
  return data;
}

at::Tensor to_device(const at::Tensor& host, const c10::Device& device) {
  if (!device.is_cuda()) return host.to(device);
  return host.to(device, /*non_blocking=*/host.is_pinned());
}

int64_t evaluation_steps(const StageData& data, int64_t batch_size) {
  return (data.size() + batch_size - 1) / batch_size;
}

std::unique_ptr<BatchLoader> make_evaluation_loader(const StageData& data, int64_t batch_size) {
  const int64_t n = data.size();
  BatchIndices indices = [n, batch_size](int64_t step) {
    std::vector<int64_t> out;
    for (int64_t i = step * batch_size; i < std::min(n, (step + 1) * batch_size); ++i)
      out.push_back(i);
    return out;
  };
  return std::make_unique<BatchLoader>(data.dataset, transform_for(data.transform, false),
                                       std::move(indices),
                                       loader_options(data, 0, evaluation_steps(data, batch_size)));
}

}  // namespace adala
