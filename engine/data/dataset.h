#pragma once
// One decoded sample at a time: the interface every image source (idx files, class folders,
// image lists) offers to the batch loader.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace adala {

// An image file that cannot be used (unreadable, truncated, zero-sized); names the file.
class BadImageError : public std::runtime_error {
 public:
  BadImageError(std::string path, const std::string& reason)
      : std::runtime_error(path + ": " + reason), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Sample {
  at::Tensor image;    // (C, H, W) uint8
  int64_t label = -1;  // -1: the source has no labels
};

class Dataset {
 public:
  virtual ~Dataset() = default;
  virtual int64_t size() const = 0;
  // Decodes item `index` (0 <= index < size()). Safe to call from several threads at once.
  // Throws BadImageError for an unusable file.
  virtual Sample get(int64_t index) const = 0;
  // The file (or record) behind an item, for messages.
  virtual std::string item_name(int64_t index) const = 0;
  // Channels of every decoded image.
  virtual int64_t channels() const = 0;
  // Class names in label order; empty when the source has no labels.
  virtual std::vector<std::string> class_names() const { return {}; }
  bool has_labels() const { return !class_names().empty(); }
  // One line for the run's log: kind, where from, how many.
  virtual std::string describe() const = 0;
};

}  // namespace adala
