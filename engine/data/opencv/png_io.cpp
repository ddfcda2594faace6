#include "engine/data/opencv/png_io.h"

#include <stdexcept>

#include <opencv2/imgcodecs.hpp>

#include "engine/data/opencv/cv_tensor.h"

namespace adala {

namespace {

void write(const std::string& path, const cv::Mat& mat) {
  bool ok = false;
  try {
    ok = cv::imwrite(path, mat);
  } catch (const cv::Exception& e) {
    throw std::runtime_error("cannot write " + path + ": " + e.what());
  }
  if (!ok) throw std::runtime_error("cannot write " + path);
}

}  // namespace

void write_rgb_png(const std::string& path, const at::Tensor& image) {
  if (image.dim() != 3 || image.size(0) != 3)
    throw std::invalid_argument(path + ": expected a (3, H, W) image");
  at::Tensor bytes = image.scalar_type() == at::kByte
                         ? image
                         : (image.to(at::kFloat).clamp(0.0, 1.0) * 255.0).round().to(at::kByte);
  write(path, rgb_tensor_to_bgr_mat(bytes.cpu()));
}

void write_label_png(const std::string& path, const at::Tensor& labels) {
  if (labels.dim() != 2) throw std::invalid_argument(path + ": expected an (H, W) label map");
  auto l = labels.cpu();
  if (l.scalar_type() != at::kByte) {
    if (l.lt(0).any().item<bool>() || l.gt(255).any().item<bool>())
      throw std::invalid_argument(path + ": labels outside 0..255");
    l = l.to(at::kByte);
  }
  write(path, tensor_to_gray_mat(l));
}

at::Tensor read_label_png(const std::string& path) {
  cv::Mat m = cv::imread(path, cv::IMREAD_UNCHANGED);
  if (m.empty()) throw std::runtime_error("cannot read " + path);
  if (m.type() != CV_8UC1)
    throw std::runtime_error(path + ": expected an 8-bit single-channel label image, got " +
                             std::to_string(m.channels()) + " channel(s) of depth " +
                             std::to_string(m.depth()));
  return gray_mat_to_tensor(m);
}

at::Tensor read_rgb_image(const std::string& path) {
  cv::Mat m = cv::imread(path, cv::IMREAD_COLOR);
  if (m.empty()) throw std::runtime_error("cannot read " + path);
  return bgr_mat_to_rgb_tensor(m);
}

}  // namespace adala
