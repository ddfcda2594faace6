#include "engine/data/fashion_mnist.h"

#include <zlib.h>

#include <array>
#include <cstdint>
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

ImageDataset load_fashion_mnist(const std::string& root, const std::string& split, int64_t limit) {
  if (split != "train" && split != "test")
    throw std::invalid_argument("Fashion-MNIST split must be \"train\" or \"test\", got \"" + split + "\"");
  const std::string prefix = split == "train" ? "train" : "t10k";
  const std::string image_path = locate(root, prefix + "-images-idx3-ubyte");
  const std::string label_path = locate(root, prefix + "-labels-idx1-ubyte");
  auto images = read_maybe_gzipped(image_path);
  auto labels = read_maybe_gzipped(label_path);
  if (images.size() < 16 || be32(images, 0) != 0x00000803)
    throw std::runtime_error(image_path + ": not an idx3 image file (bad magic number)");
  if (labels.size() < 8 || be32(labels, 0) != 0x00000801)
    throw std::runtime_error(label_path + ": not an idx1 label file (bad magic number)");
  const int64_t count = be32(images, 4), rows = be32(images, 8), cols = be32(images, 12);
  if (int64_t(be32(labels, 4)) != count)
    throw std::runtime_error(label_path + ": label count does not match " + image_path);
  if (int64_t(images.size()) < 16 + count * rows * cols)
    throw std::runtime_error(image_path + ": truncated (header promises " + std::to_string(count) + " images)");
  if (int64_t(labels.size()) < 8 + count) throw std::runtime_error(label_path + ": truncated");
  const int64_t n = limit > 0 ? std::min(limit, count) : count;
  ImageDataset ds;
  ds.images = at::from_blob(images.data() + 16, {n, 1, rows, cols}, at::kByte).to(at::kFloat).div_(255.0);
  ds.labels = at::from_blob(labels.data() + 8, {n}, at::kByte).to(at::kLong);
  if (ds.labels.max().item<int64_t>() > 9)
    throw std::runtime_error(label_path + ": label outside 0..9");
  return ds;
}

const char* fashion_mnist_class_name(int64_t label) {
  static const char* names[] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  return label >= 0 && label < 10 ? names[label] : "?";
}

}  // namespace adala
