#pragma once
// Teacher and student patch features side by side: a PCA of the TEACHER's final-layer patch
// features (first components), the same projection applied to the student's, both mapped to
// RGB with the teacher's per-component min/max (so a colour means the same thing in both
// images), and the per-patch cosine similarity of the two feature sets.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "engine/model/vision_transformer.h"

namespace adala {

struct FeaturePca {
  at::Tensor mean;                               // (D): the centre of the fitted features
  at::Tensor components;                         // (k, D): unit rows, by decreasing variance
  std::vector<double> explained_variance;        // k: variance along each component (1/(N-1))
  std::vector<double> explained_variance_ratio;  // k: that over the total variance
};

// PCA of `features` (N, D) through the SVD of the centred matrix. Each component's sign is
// fixed: its loading of largest magnitude is positive (the first such on ties). Components
// beyond min(N, D) are not there (components.size(0) may be below `count`). Throws
// std::invalid_argument for a matrix that is not 2-D or has no rows.
FeaturePca fit_feature_pca(const at::Tensor& features, int64_t count = 3);
// (N, D) -> (N, k): (features - mean) components^T.
at::Tensor project_features(const FeaturePca& pca, const at::Tensor& features);

struct PatchFeatureComparison {
  int64_t grid_height = 0, grid_width = 0;
  FeaturePca pca;                                     // fitted on the teacher
  at::Tensor teacher_projection, student_projection;  // (N, 3), zero-filled past k
  at::Tensor component_min, component_max;            // (3): the teacher's, per component
  at::Tensor teacher_rgb, student_rgb;                // (grid_h, grid_w, 3) uint8
  at::Tensor cosine;                                  // (grid_h, grid_w) float: per-patch cosine
  double mean_cosine = 0.0;
};

// teacher, student: (N, D) patch features of the same image, N = grid_height * grid_width in
// row-major patch order. RGB channel c = (p_c - min_c) / (max_c - min_c) of the teacher's
// projections, clamped to [0, 1], then * 255 rounded (mid-grey where max_c == min_c). Throws
// std::invalid_argument when the shapes disagree.
PatchFeatureComparison compare_patch_features(const at::Tensor& teacher, const at::Tensor& student,
                                              int64_t grid_height, int64_t grid_width);

// The normed patch tokens of forward_features (no class or register tokens) of one image
// (1, C, H, W), as (N, D) float32 on the CPU, with the patch grid of that input.
struct PatchFeatures {
  at::Tensor features;
  int64_t grid_height = 0, grid_width = 0;
};
PatchFeatures final_patch_features(VisionTransformer& model, const at::Tensor& image);

}  // namespace adala
