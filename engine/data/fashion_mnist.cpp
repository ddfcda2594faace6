#include "engine/data/fashion_mnist.h"

#include <zlib.h>

#include <algorithm>

#include <array>
#include <cstdint>
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
    throw std::invalid_argument("Fashion-MNIST split must be \"train\" or \"test\", got \"" + split + "\"");
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

ImageDataset load_fashion_mnist(const std::string& root, const std::string& split, int64_t limit) {
  const SplitFiles files = locate_split(root, split);
  const std::string& image_path = files.images;
  const std::string& label_path = files.labels;
  auto images = read_maybe_gzipped(image_path);
  auto labels = read_maybe_gzipped(label_path);
  const IdxImages idx_images = parse_idx_images(images, image_path);
  const IdxLabels idx_labels = parse_idx_labels(labels, label_path, 9);
  check_counts_match(idx_labels.count, idx_images.count, files);
  const int64_t n = limit > 0 ? std::min(limit, idx_images.count) : idx_images.count;
  ImageDataset ds;
  ds.images = at::from_blob(const_cast<uint8_t*>(idx_images.pixels),
                            {n, 1, idx_images.rows, idx_images.cols}, at::kByte)
                  .to(at::kFloat)
                  .div_(255.0);
  ds.labels = at::from_blob(const_cast<uint8_t*>(idx_labels.labels), {n}, at::kByte).to(at::kLong);
  return ds;
}

const char* fashion_mnist_class_name(int64_t label) {
  static const char* names[] = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  return label >= 0 && label < 10 ? names[label] : "?";
}

}  // namespace adala
