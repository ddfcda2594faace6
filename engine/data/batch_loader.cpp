#include "engine/data/batch_loader.h"

#include <ATen/ATen.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "engine/data/image_transform.h"

namespace adala {

namespace {

// One step's batch while its samples are being decoded.
struct Slot {
  int64_t step = 0;
  std::vector<int64_t> requested;
  std::vector<at::Tensor> images;
  std::vector<int64_t> labels, used;
  size_t next = 0;  // the next sample to hand to a decoder
  size_t done = 0;
  std::exception_ptr error;
  bool ready = false;
  Batch batch;
};

std::vector<int64_t> batch_shape(const std::vector<at::Tensor>& images) {
  std::vector<int64_t> shape{int64_t(images.size())};
  for (int64_t d : images.front().sizes()) shape.push_back(d);
  return shape;
}

// Copies the samples into `out`, one (B, C, H, W) tensor, with plain memcpy (no ATen kernels in
// the decode threads, which would start intra-op thread teams of their own).
at::Tensor stack_samples(const std::vector<at::Tensor>& images, const Dataset& dataset,
                         const std::vector<int64_t>& used, at::Tensor out) {
  const at::Tensor& first = images.front();
  const size_t bytes = size_t(first.numel()) * first.element_size();
  auto* dst = static_cast<char*>(out.data_ptr());
  for (size_t i = 0; i < images.size(); ++i) {
    if (images[i].sizes() != first.sizes() || images[i].scalar_type() != first.scalar_type())
      throw std::runtime_error(dataset.item_name(used[i]) + ": transformed to a different size " +
                               "than " + dataset.item_name(used[0]) + " in the same batch");
    std::memcpy(dst + i * bytes, images[i].contiguous().data_ptr(), bytes);
  }
  return out;
}

}  // namespace

struct BatchLoader::Shared {
  const Dataset& dataset;
  SampleTransform transform;
  BatchIndices indices;
  LoaderOptions options;

  std::mutex mutex;
  std::condition_variable work_ready, batch_ready;
  std::deque<std::shared_ptr<Slot>> queue;  // consecutive steps, the one asked for first
  bool stop = false;
  std::vector<std::thread> workers;

  // Batch tensors handed out before and no longer referenced by anyone (no tensor, no view of
  // their storage) are filled again: a fresh 40 MB batch each step would cost the kernel a page
  // fault per 4 KB and the zeroing of every page, more than the copy into it.
  std::mutex pool_mutex;
  std::vector<at::Tensor> pool;

  mutable std::mutex bad_mutex;
  std::map<int64_t, std::string> bad;

  Shared(const Dataset& d, SampleTransform t, BatchIndices i, LoaderOptions o)
      : dataset(d), transform(std::move(t)), indices(std::move(i)), options(o) {}

  std::shared_ptr<Slot> make_slot(int64_t step) {
    auto slot = std::make_shared<Slot>();
    slot->step = step;
    slot->requested = indices(step);
    if (slot->requested.empty())
      throw std::invalid_argument("batch loader: step " + std::to_string(step) + " has no items");
    const size_t n = slot->requested.size();
    slot->images.resize(n);
    slot->labels.resize(n);
    slot->used.resize(n);
    return slot;
  }

  // Keeps the steps after the front one queued, up to `prefetch` of them.
  void fill_ahead() {
    if (options.threads <= 0 || queue.empty()) return;
    while (int64_t(queue.size()) <= options.prefetch) {
      const int64_t next = queue.back()->step + 1;
      if (options.end_step > 0 && next >= options.end_step) break;
      queue.push_back(make_slot(next));
    }
  }

  // Decodes and transforms sample i of the slot; a skipped bad image moves on to the next
  // index (deterministically), remembering the bad one.
  void decode(Slot& slot, size_t i) {
    SplitMix64 rng = sample_generator(options.seed, slot.step, options.first_sample + int64_t(i));
    const int64_t n = dataset.size();
    int64_t index = slot.requested[i];
    for (int64_t attempt = 0; attempt < n; ++attempt) {
      Sample sample;
      try {
        sample = dataset.get(index);
      } catch (const BadImageError& e) {
        if (!options.skip_bad_images) throw;
        {
          std::lock_guard<std::mutex> lock(bad_mutex);
          bad.emplace(index, e.path());
        }
        index = (index + 1) % n;
        continue;
      }
      try {
        slot.images[i] = transform(sample.image, rng);
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(dataset.item_name(index) + ": " + e.what());
      }
      slot.labels[i] = sample.label;
      slot.used[i] = index;
      return;
    }
    throw std::runtime_error("batch loader: every image of " + dataset.describe() + " is bad");
  }

  at::Tensor batch_buffer(const std::vector<int64_t>& shape, const at::TensorOptions& options) {
    std::lock_guard<std::mutex> lock(pool_mutex);
    for (const at::Tensor& t : pool)
      if (t.use_count() == 1 && t.storage().use_count() == 1 && t.sizes() == shape &&
          t.dtype() == options.dtype())
        return t;
    at::Tensor fresh = at::empty(shape, options);
    // Enough for the queue, one batch per decode thread and the consumer's current and previous.
    if (int64_t(pool.size()) < pool_capacity()) pool.push_back(fresh);
    return fresh;
  }
  int64_t pool_capacity() const { return options.prefetch + options.threads + 3; }

  void complete(Slot& slot) {
    if (!slot.error) {
      try {
        slot.batch.step = slot.step;
        const std::vector<int64_t> shape = batch_shape(slot.images);
        at::Tensor buffer = options.pin_memory ? at::empty(shape, slot.images.front().options())
                                               : batch_buffer(shape, slot.images.front().options());
        slot.batch.images = stack_samples(slot.images, dataset, slot.used, std::move(buffer));
        slot.batch.labels = at::empty({int64_t(slot.labels.size())}, at::kLong);
        std::memcpy(slot.batch.labels.data_ptr<int64_t>(), slot.labels.data(),
                    slot.labels.size() * sizeof(int64_t));
        slot.batch.indices = slot.used;
        if (options.pin_memory) {
          slot.batch.images = slot.batch.images.pin_memory();
          slot.batch.labels = slot.batch.labels.pin_memory();
        }
      } catch (...) {
        slot.error = std::current_exception();
      }
    }
    slot.images.clear();
  }

  void worker() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      std::shared_ptr<Slot> slot;
      work_ready.wait(lock, [&] {
        if (stop) return true;
        for (const auto& s : queue)
          if (s->next < s->requested.size()) return (slot = s), true;
        return false;
      });
      if (stop) return;
      const size_t i = slot->next++;
      lock.unlock();
      std::exception_ptr error;
      try {
        decode(*slot, i);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      if (error && !slot->error) slot->error = error;
      if (++slot->done == slot->requested.size()) {
        lock.unlock();
        complete(*slot);
        lock.lock();
        slot->ready = true;
        batch_ready.notify_all();
      }
    }
  }
};

BatchLoader::BatchLoader(std::shared_ptr<const Dataset> dataset, SampleTransform transform,
                         BatchIndices indices, LoaderOptions options)
    : dataset_(std::move(dataset)) {
  if (!dataset_) throw std::invalid_argument("batch loader: no dataset");
  if (dataset_->size() <= 0)
    throw std::invalid_argument("batch loader: " + dataset_->describe() + " is empty");
  if (options.threads < 0 || options.prefetch < 0)
    throw std::invalid_argument("batch loader: threads and prefetch must be >= 0");
  shared_ = std::make_unique<Shared>(*dataset_, std::move(transform), std::move(indices), options);
  for (int64_t t = 0; t < options.threads; ++t)
    shared_->workers.emplace_back([s = shared_.get()] { s->worker(); });
}

BatchLoader::~BatchLoader() {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->stop = true;
  }
  shared_->work_ready.notify_all();
  for (auto& t : shared_->workers) t.join();
}

Batch BatchLoader::batch(int64_t step) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  Shared& s = *shared_;
  std::shared_ptr<Slot> slot;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    while (!s.queue.empty() && s.queue.front()->step != step) s.queue.pop_front();
    if (s.queue.empty()) s.queue.push_back(s.make_slot(step));
    slot = s.queue.front();
    s.fill_ahead();
    if (s.options.threads > 0) {
      s.work_ready.notify_all();
      s.batch_ready.wait(lock, [&] { return slot->ready; });
      s.queue.pop_front();
      s.fill_ahead();
      s.work_ready.notify_all();
    } else {
      s.queue.pop_front();
    }
  }
  if (s.options.threads <= 0) {
    for (size_t i = 0; i < slot->requested.size(); ++i) {
      try {
        s.decode(*slot, i);
      } catch (...) {
        slot->error = std::current_exception();
        break;
      }
    }
    s.complete(*slot);
  }
  if (slot->error) std::rethrow_exception(slot->error);
  Batch out = std::move(slot->batch);
  out.wait_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return out;
}

int64_t BatchLoader::bad_images_skipped() const {
  std::lock_guard<std::mutex> lock(shared_->bad_mutex);
  return int64_t(shared_->bad.size());
}

std::vector<std::string> BatchLoader::bad_image_names() const {
  std::lock_guard<std::mutex> lock(shared_->bad_mutex);
  std::vector<std::string> names;
  for (const auto& [index, name] : shared_->bad) names.push_back(name);
  return names;
}

}  // namespace adala
