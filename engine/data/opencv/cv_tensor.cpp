#include "engine/data/opencv/cv_tensor.h"

#include <stdexcept>

#include <opencv2/imgproc.hpp>

namespace adala {

at::Tensor bgr_mat_to_rgb_tensor(const cv::Mat& bgr) {
  if (bgr.type() != CV_8UC3) throw std::invalid_argument("bgr_mat_to_rgb_tensor: expected CV_8UC3");
  cv::Mat rgb;
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  auto t =
      at::from_blob(rgb.data, {rgb.rows, rgb.cols, 3}, {int64_t(rgb.step[0]), 3, 1}, at::kByte);
  return t.permute({2, 0, 1}).contiguous();
}

cv::Mat rgb_tensor_to_bgr_mat(const at::Tensor& rgb) {
  if (rgb.dim() != 3 || rgb.size(0) != 3 || rgb.scalar_type() != at::kByte)
    throw std::invalid_argument("rgb_tensor_to_bgr_mat: expected (3, H, W) uint8");
  auto hwc = rgb.permute({1, 2, 0}).contiguous().cpu();
  cv::Mat rgb_mat(int(hwc.size(0)), int(hwc.size(1)), CV_8UC3, hwc.data_ptr<uint8_t>());
  cv::Mat bgr;
  cv::cvtColor(rgb_mat, bgr, cv::COLOR_RGB2BGR);
  return bgr;
}

at::Tensor gray_mat_to_tensor(const cv::Mat& gray) {
  if (gray.type() != CV_8UC1) throw std::invalid_argument("gray_mat_to_tensor: expected CV_8UC1");
  return at::from_blob(gray.data, {gray.rows, gray.cols}, {int64_t(gray.step[0]), 1}, at::kByte)
      .clone();
}

cv::Mat tensor_to_gray_mat(const at::Tensor& gray) {
  if (gray.dim() != 2 || gray.scalar_type() != at::kByte)
    throw std::invalid_argument("tensor_to_gray_mat: expected (H, W) uint8");
  auto t = gray.contiguous().cpu();
  return cv::Mat(int(t.size(0)), int(t.size(1)), CV_8UC1, t.data_ptr<uint8_t>()).clone();
}

}  // namespace adala
