#pragma once
#include <ATen/ATen.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/data/dataset.h"

namespace adala {

// An image classification split held in memory: images (N, C, H, W) float in [0, 1],
// labels (N) int64.
struct ImageDataset {
  at::Tensor images;
  at::Tensor labels;
  int64_t size() const { return images.defined() ? images.size(0) : 0; }
};

// Where Debian's dataset-fashion-mnist puts the files.
std::string default_fashion_mnist_root();

// Reads {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz] from root. split is "train" or
// "test"; limit > 0 keeps the first `limit` items. Throws std::runtime_error naming the
// expected path when a file is absent, and the file and reason when it is malformed.
ImageDataset load_fashion_mnist(const std::string& root, const std::string& split,
                                int64_t limit = 0);

// The idx files of one split as raw bytes: image i is rows * cols bytes from pixels().
struct FashionMnistSplit {
  std::vector<uint8_t> image_bytes, label_bytes;  // whole files, headers included
  int64_t count = 0, rows = 0, cols = 0;
  std::string image_path, label_path;
  const uint8_t* pixels(int64_t i) const { return image_bytes.data() + 16 + i * rows * cols; }
  int64_t label(int64_t i) const { return label_bytes[size_t(8 + i)]; }
};
// Reads and checks one split; limit > 0 keeps the first `limit` items. Errors as above.
FashionMnistSplit read_fashion_mnist_split(const std::string& root, const std::string& split,
                                           int64_t limit = 0);

// The idx files as a Dataset: (1, 28, 28) uint8 samples with labels 0..9, decoded on demand
// from the files' bytes (47 MB for the training split; no float copy is made).
class FashionMnistDataset : public Dataset {
 public:
  FashionMnistDataset(const std::string& root, const std::string& split, int64_t limit = 0);
  int64_t size() const override { return split_.count; }
  Sample get(int64_t index) const override;
  std::string item_name(int64_t index) const override;
  int64_t channels() const override { return 1; }
  std::vector<std::string> class_names() const override;
  std::string describe() const override;

 private:
  FashionMnistSplit split_;
  std::string split_name_;
};

// What a split holds, from the two files' headers alone (cheap: a run checks its data with this
// before it starts). Throws like load_fashion_mnist for an absent or malformed header.
struct ImageSetShape {
  int64_t count = 0, channels = 1, rows = 0, cols = 0, classes = 10;
};
ImageSetShape probe_fashion_mnist(const std::string& root, const std::string& split);

// Class names in label order.
const char* fashion_mnist_class_name(int64_t label);

}  // namespace adala
