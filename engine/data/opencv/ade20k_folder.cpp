#include "engine/data/opencv/ade20k_folder.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/data/opencv/cv_tensor.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

bool is_image_file(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".jpg" || ext == ".jpeg" || ext == ".png";
}

std::map<std::string, std::string> files_by_stem(const fs::path& dir, bool annotations) {
  if (!fs::is_directory(dir)) throw std::runtime_error("missing folder " + dir.string());
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const fs::path& p = entry.path();
    const bool wanted = annotations ? p.extension() == ".png" : is_image_file(p);
    if (!wanted) continue;
    const std::string stem = p.stem().string();
    auto [it, fresh] = out.emplace(stem, p.string());
    if (!fresh)
      throw std::runtime_error("two files for one name: " + it->second + " and " + p.string());
  }
  return out;
}

cv::Mat read(const std::string& path, int flags) {
  cv::Mat m;
  try {
    m = cv::imread(path, flags);
  } catch (const cv::Exception& e) {
    throw std::runtime_error("cannot read " + path + ": " + e.what());
  }
  if (m.empty()) throw std::runtime_error("cannot read " + path + " (missing or not an image)");
  return m;
}

}  // namespace

std::vector<Ade20kPair> list_ade20k_pairs(const std::string& root, const std::string& split) {
  const fs::path image_dir = fs::path(root) / "images" / split;
  const fs::path ann_dir = fs::path(root) / "annotations" / split;
  const auto images = files_by_stem(image_dir, false);
  const auto annotations = files_by_stem(ann_dir, true);
  std::vector<Ade20kPair> pairs;
  for (const auto& [stem, image] : images) {
    auto it = annotations.find(stem);
    if (it == annotations.end())
      throw std::runtime_error("no annotation for " + image + " (expected " +
                               (ann_dir / (stem + ".png")).string() + ")");
    pairs.push_back({stem, image, it->second});
  }
  for (const auto& [stem, annotation] : annotations)
    if (!images.count(stem))
      throw std::runtime_error("no image for " + annotation + " (expected " +
                               (image_dir / (stem + ".jpg")).string() + ")");
  if (pairs.empty()) throw std::runtime_error("no images in " + image_dir.string());
  return pairs;
}

at::Tensor map_ade20k_labels(const at::Tensor& raw, const Ade20kOptions& o,
                             const std::string& file) {
  auto v = raw.to(at::kLong);
  auto bad = v.gt(o.num_classes).logical_and(v.ne(255));
  if (bad.any().item<bool>()) {
    const auto value = v.masked_select(bad)[0].item<int64_t>();
    throw std::runtime_error(file + ": label " + std::to_string(value) +
                             " out of range (allowed 0.." + std::to_string(o.num_classes) +
                             ", 255 = ignore)");
  }
  if (!o.reduce_zero_label) return v.to(at::kByte);
  // 0 -> 255 and 255 stays 255; 1..N -> 0..N-1.
  auto mapped = at::where(v.eq(0).logical_or(v.eq(255)), at::full_like(v, 255), v - 1);
  return mapped.to(at::kByte);
}

SegmentationDataset load_ade20k_folder(const std::string& root, const std::string& split,
                                       const Ade20kOptions& o) {
  if (o.height <= 0 || o.width <= 0)
    throw std::invalid_argument("load_ade20k_folder: target size must be > 0");
  auto pairs = list_ade20k_pairs(root, split);
  if (o.limit > 0 && int64_t(pairs.size()) > o.limit) pairs.resize(size_t(o.limit));
  const int64_t n = int64_t(pairs.size());
  SegmentationDataset d;
  d.images = at::empty({n, 3, o.height, o.width}, at::kFloat);
  d.masks = at::empty({n, o.height, o.width}, at::kByte);
  const cv::Size target(int(o.width), int(o.height));
  for (int64_t i = 0; i < n; ++i) {
    const auto& p = pairs[size_t(i)];
    cv::Mat image = read(p.image, cv::IMREAD_COLOR);
    cv::Mat ann = read(p.annotation, cv::IMREAD_UNCHANGED);
    if (ann.type() != CV_8UC1)
      throw std::runtime_error(p.annotation +
                               ": expected an 8-bit single-channel annotation, got " +
                               std::to_string(ann.channels()) + " channel(s) of depth code " +
                               std::to_string(ann.depth()));
    if (image.size() != ann.size())
      throw std::runtime_error(p.annotation + ": size " + std::to_string(ann.cols) + "x" +
                               std::to_string(ann.rows) + " differs from its image " + p.image +
                               " (" + std::to_string(image.cols) + "x" +
                               std::to_string(image.rows) + ")");
    auto labels = map_ade20k_labels(gray_mat_to_tensor(ann), o, p.annotation);
    cv::Mat label_mat = tensor_to_gray_mat(labels), resized_labels, resized_image;
    cv::resize(image, resized_image, target, 0, 0, cv::INTER_LINEAR);
    cv::resize(label_mat, resized_labels, target, 0, 0, cv::INTER_NEAREST);
    d.images[i].copy_(bgr_mat_to_rgb_tensor(resized_image).to(at::kFloat).div_(255.0));
    d.masks[i].copy_(gray_mat_to_tensor(resized_labels));
    d.ids.push_back(p.id);
  }
  d.classes = numbered_classes(o.reduce_zero_label ? o.num_classes : o.num_classes + 1);
  if (!o.reduce_zero_label) d.classes[0].name = "other";
  return d;
}

}  // namespace adala
