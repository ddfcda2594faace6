#pragma once
// Conversions between cv::Mat and at::Tensor (copies; CPU).
#include <ATen/ATen.h>

#include <opencv2/core.hpp>

namespace adala {

// CV_8UC3 (BGR) -> (3, H, W) uint8 RGB.
at::Tensor bgr_mat_to_rgb_tensor(const cv::Mat& bgr);
// (3, H, W) uint8 RGB -> CV_8UC3 BGR.
cv::Mat rgb_tensor_to_bgr_mat(const at::Tensor& rgb);
// CV_8UC1 -> (H, W) uint8 and back.
at::Tensor gray_mat_to_tensor(const cv::Mat& gray);
cv::Mat tensor_to_gray_mat(const at::Tensor& gray);

}  // namespace adala
