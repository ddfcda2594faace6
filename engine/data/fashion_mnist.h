#pragma once
#include <ATen/ATen.h>

#include <string>

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
ImageDataset load_fashion_mnist(const std::string& root, const std::string& split, int64_t limit = 0);

// What a split holds, from the two files' headers alone (cheap: a run checks its data with this
// before it starts). Throws like load_fashion_mnist for an absent or malformed header.
struct ImageSetShape {
  int64_t count = 0, channels = 1, rows = 0, cols = 0, classes = 10;
};
ImageSetShape probe_fashion_mnist(const std::string& root, const std::string& split);

// Class names in label order.
const char* fashion_mnist_class_name(int64_t label);

}  // namespace adala
