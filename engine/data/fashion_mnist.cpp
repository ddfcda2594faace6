#include "engine/data/fashion_mnist.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace adala {

namespace {

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

// Reads a whole file, gunzipping it when it ends in .gz.
std::vector<uint8_t> read_maybe_gzipped(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> out;
  std::array<uint8_t, 1 << 16> buf{};
  int n = 0;
  while ((n = gzread(f, buf.data(), buf.size())) > 0) out.insert(out.end(), buf.data(), buf.data() + n);
  int err = 0;
  const char* msg = gzerror(f, &err);
  const bool failed = n < 0 || (err != Z_OK && err != Z_STREAM_END);
  std::string reason = failed ? std::string(msg ? msg : "read error") : "";
  gzclose(f);
  if (failed) throw std::runtime_error(path + ": " + reason);
  return out;
}

uint32_t be32(const std::vector<uint8_t>& b, size_t at) {
  return (uint32_t(b[at]) << 24) | (uint32_t(b[at + 1]) << 16) | (uint32_t(b[at + 2]) << 8) | b[at + 3];
}

std::string locate(const std::string& root, const std::string& stem) {
  for (const std::string& candidate : {root + "/" + stem + ".gz", root + "/" + stem})
    if (file_exists(candidate)) return candidate;
  throw std::runtime_error("Fashion-MNIST file not found: expected " + root + "/" + stem +
                           ".gz (install the Debian package dataset-fashion-mnist, or set "
                           "data.root to the folder holding the idx files)");
}

}  // namespace

std::string default_fashion_mnist_root() { return "/usr/share/datasets/fashion-mnist"; }

FashionMnistSplit read_fashion_mnist_split(const std::string& root, const std::string& split,
                                           int64_t limit) {
  if (split != "train" && split != "test")
    throw std::invalid_argument("Fashion-MNIST split must be \"train\" or \"test\", got \"" + split + "\"");
  const std::string prefix = split == "train" ? "train" : "t10k";
  FashionMnistSplit s;
  s.image_path = locate(root, prefix + "-images-idx3-ubyte");
  s.label_path = locate(root, prefix + "-labels-idx1-ubyte");
  s.image_bytes = read_maybe_gzipped(s.image_path);
  s.label_bytes = read_maybe_gzipped(s.label_path);
  const auto& images = s.image_bytes;
  const auto& labels = s.label_bytes;
  if (images.size() < 16 || be32(images, 0) != 0x00000803)
    throw std::runtime_error(s.image_path + ": not an idx3 image file (bad magic number)");
  if (labels.size() < 8 || be32(labels, 0) != 0x00000801)
    throw std::runtime_error(s.label_path + ": not an idx1 label file (bad magic number)");
  const int64_t count = be32(images, 4), rows = be32(images, 8), cols = be32(images, 12);
  if (int64_t(be32(labels, 4)) != count)
    throw std::runtime_error(s.label_path + ": label count does not match " + s.image_path);
  if (int64_t(images.size()) < 16 + count * rows * cols)
    throw std::runtime_error(s.image_path + ": truncated (header promises " +
                             std::to_string(count) + " images)");
  if (int64_t(labels.size()) < 8 + count) throw std::runtime_error(s.label_path + ": truncated");
  s.count = limit > 0 ? std::min(limit, count) : count;
  s.rows = rows;
  s.cols = cols;
  for (int64_t i = 0; i < s.count; ++i)
    if (s.label(i) > 9) throw std::runtime_error(s.label_path + ": label outside 0..9");
  return s;
}

ImageDataset load_fashion_mnist(const std::string& root, const std::string& split, int64_t limit) {
  FashionMnistSplit s = read_fashion_mnist_split(root, split, limit);
  ImageDataset ds;
  ds.images = at::from_blob(s.image_bytes.data() + 16, {s.count, 1, s.rows, s.cols}, at::kByte)
                  .to(at::kFloat)
                  .div_(255.0);
  ds.labels = at::from_blob(s.label_bytes.data() + 8, {s.count}, at::kByte).to(at::kLong);
  return ds;
}

FashionMnistDataset::FashionMnistDataset(const std::string& root, const std::string& split,
                                         int64_t limit)
    : split_(read_fashion_mnist_split(root, split, limit)), split_name_(split) {}

Sample FashionMnistDataset::get(int64_t index) const {
  if (index < 0 || index >= split_.count)
    throw std::out_of_range("Fashion-MNIST index " + std::to_string(index) + " outside 0.." +
                            std::to_string(split_.count - 1));
  Sample s;
  s.image = at::empty({1, split_.rows, split_.cols}, at::kByte);
  std::memcpy(s.image.data_ptr<uint8_t>(), split_.pixels(index), size_t(split_.rows * split_.cols));
  s.label = split_.label(index);
  return s;
}

std::string FashionMnistDataset::item_name(int64_t index) const {
  return split_.image_path + " #" + std::to_string(index);
}

std::vector<std::string> FashionMnistDataset::class_names() const {
  std::vector<std::string> names;
  for (int64_t i = 0; i < 10; ++i) names.emplace_back(fashion_mnist_class_name(i));
  return names;
}

std::string FashionMnistDataset::describe() const {
  return "fashion-mnist " + split_name_ + ": " + std::to_string(split_.count) + " images from " +
         split_.image_path;
}

const char* fashion_mnist_class_name(int64_t label) {
  static const char* names[] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  return label >= 0 && label < 10 ? names[label] : "?";
}

}  // namespace adala
