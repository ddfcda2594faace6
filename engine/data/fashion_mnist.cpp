#include "engine/data/fashion_mnist.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "engine/data/idx_file.h"

namespace adala {

namespace {

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

// Larger than any idx data set this reader is for (Fashion-MNIST's training images are 47 MB);
// a bigger (decompressed) file is refused before it fills the memory.
constexpr size_t kMaxIdxFileBytes = size_t(2) << 30;

// Reads a whole file, gunzipping it when it is gzip-compressed.
std::vector<uint8_t> read_maybe_gzipped(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> out;
  std::array<uint8_t, 1 << 16> buf{};
  int n = 0;
  while ((n = gzread(f, buf.data(), buf.size())) > 0) {
    if (out.size() + static_cast<size_t>(n) > kMaxIdxFileBytes) {
      gzclose(f);
      throw std::runtime_error(path + ": larger than " + std::to_string(kMaxIdxFileBytes >> 20) +
                               " MiB (decompressed); not an idx file this reader accepts");
    }
    out.insert(out.end(), buf.data(), buf.data() + n);
  }
  int err = 0;
  const char* msg = gzerror(f, &err);
  const bool failed = n < 0 || (err != Z_OK && err != Z_STREAM_END);
  std::string reason = failed ? std::string(msg ? msg : "read error") : "";
  gzclose(f);
  if (failed) throw std::runtime_error(path + ": " + reason);
  return out;
}

// The first `n` (decompressed) bytes, fewer when the file is shorter.
std::vector<uint8_t> read_prefix(const std::string& path, size_t n) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> out(n);
  const int got = gzread(f, out.data(), static_cast<unsigned>(n));
  gzclose(f);
  if (got < 0) throw std::runtime_error(path + ": read error");
  out.resize(static_cast<size_t>(got));
  return out;
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

namespace {

struct SplitFiles {
  std::string images, labels;
};

SplitFiles locate_split(const std::string& root, const std::string& split) {
  if (split != "train" && split != "test")
    throw std::invalid_argument("Fashion-MNIST split must be \"train\" or \"test\", got \"" +
                                split + "\"");
  const std::string prefix = split == "train" ? "train" : "t10k";
  return {locate(root, prefix + "-images-idx3-ubyte"), locate(root, prefix + "-labels-idx1-ubyte")};
}

void check_counts_match(int64_t labels, int64_t images, const SplitFiles& files) {
  if (labels != images)
    throw std::runtime_error(files.labels + ": " + std::to_string(labels) +
                             " labels do not match the " + std::to_string(images) + " images of " +
                             files.images);
}

}  // namespace

ImageSetShape probe_fashion_mnist(const std::string& root, const std::string& split) {
  const SplitFiles files = locate_split(root, split);
  const IdxImages images = parse_idx_image_header(read_prefix(files.images, 16), files.images);
  const auto label_header = read_prefix(files.labels, 8);
  if (label_header.size() < 8 || label_header[0] != 0 || label_header[1] != 0 ||
      label_header[2] != 8 || label_header[3] != 1)
    throw std::runtime_error(files.labels + ": not an idx1 label file (bad magic number)");
  const int64_t labels = (int64_t(label_header[4]) << 24) | (int64_t(label_header[5]) << 16) |
                         (int64_t(label_header[6]) << 8) | int64_t(label_header[7]);
  check_counts_match(labels, images.count, files);
  ImageSetShape shape;
  shape.count = images.count;
  shape.rows = images.rows;
  shape.cols = images.cols;
  return shape;
}

FashionMnistSplit read_fashion_mnist_split(const std::string& root, const std::string& split,
                                           int64_t limit) {
  const SplitFiles files = locate_split(root, split);
  FashionMnistSplit s;
  s.image_path = files.images;
  s.label_path = files.labels;
  s.image_bytes = read_maybe_gzipped(s.image_path);
  s.label_bytes = read_maybe_gzipped(s.label_path);
  const IdxImages images = parse_idx_images(s.image_bytes, s.image_path);
  const IdxLabels labels = parse_idx_labels(s.label_bytes, s.label_path, 9);
  check_counts_match(labels.count, images.count, files);
  s.count = limit > 0 ? std::min(limit, images.count) : images.count;
  s.rows = images.rows;
  s.cols = images.cols;
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
