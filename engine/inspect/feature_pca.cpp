#include "engine/inspect/feature_pca.h"

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <stdexcept>
#include <string>

namespace adala {

FeaturePca fit_feature_pca(const at::Tensor& features, int64_t count) {
  if (features.dim() != 2 || features.size(0) == 0 || features.size(1) == 0)
    throw std::invalid_argument("feature PCA: expected an (N, D) matrix with N, D > 0, got " +
                                std::to_string(features.dim()) + "-D");
  if (count < 1) throw std::invalid_argument("feature PCA: at least one component");
  const at::Tensor x = features.to(at::kCPU).to(at::kDouble);
  const int64_t n = x.size(0);
  FeaturePca pca;
  pca.mean = x.mean(0);
  const at::Tensor centred = x - pca.mean;
  // centred = U S V^T: the rows of V^T are the principal directions, S^2 / (N - 1) the variances.
  const auto [u, s, vh] = at::linalg_svd(centred, /*full_matrices=*/false);
  const int64_t k = std::min<int64_t>(count, s.size(0));
  at::Tensor components = vh.narrow(0, 0, k).clone();
  for (int64_t i = 0; i < k; ++i) {
    const at::Tensor row = components[i];
    const int64_t at_max = row.abs().argmax().item<int64_t>();
    if (row[at_max].item<double>() < 0) components[i].neg_();
  }
  const double denominator = double(std::max<int64_t>(n - 1, 1));
  const at::Tensor variance = s.pow(2) / denominator;
  const double total = variance.sum().item<double>();
  for (int64_t i = 0; i < k; ++i) {
    const double v = variance[i].item<double>();
    pca.explained_variance.push_back(v);
    pca.explained_variance_ratio.push_back(total > 0 ? v / total : 0.0);
  }
  pca.components = components;
  return pca;
}

at::Tensor project_features(const FeaturePca& pca, const at::Tensor& features) {
  if (features.dim() != 2 || features.size(1) != pca.mean.size(0))
    throw std::invalid_argument("feature PCA: features of width " +
                                std::to_string(features.dim() == 2 ? features.size(1) : -1) +
                                ", the PCA was fitted on width " +
                                std::to_string(pca.mean.size(0)));
  return (features.to(at::kCPU).to(at::kDouble) - pca.mean).matmul(pca.components.t());
}

namespace {

// (N, k) -> (N, 3): the missing components as zeros.
at::Tensor three_columns(const at::Tensor& p) {
  if (p.size(1) >= 3) return p.narrow(1, 0, 3);
  return at::cat({p, at::zeros({p.size(0), 3 - p.size(1)}, p.options())}, 1);
}

at::Tensor to_rgb(const at::Tensor& projection, const at::Tensor& lo, const at::Tensor& hi,
                  int64_t grid_h, int64_t grid_w) {
  const at::Tensor range = hi - lo;
  const at::Tensor safe = at::where(range > 0, range, at::ones_like(range));
  at::Tensor unit = ((projection - lo) / safe).clamp(0.0, 1.0);
  unit = at::where(range > 0, unit, at::full_like(unit, 0.5));
  return (unit * 255.0).round().to(at::kByte).view({grid_h, grid_w, 3}).contiguous();
}

}  // namespace

PatchFeatureComparison compare_patch_features(const at::Tensor& teacher, const at::Tensor& student,
                                              int64_t grid_height, int64_t grid_width) {
  if (teacher.dim() != 2 || !teacher.sizes().equals(student.sizes()))
    throw std::invalid_argument("feature comparison: teacher and student features differ in shape");
  if (teacher.size(0) != grid_height * grid_width)
    throw std::invalid_argument("feature comparison: " + std::to_string(teacher.size(0)) +
                                " patches, but a " + std::to_string(grid_height) + "x" +
                                std::to_string(grid_width) + " grid");
  PatchFeatureComparison out;
  out.grid_height = grid_height;
  out.grid_width = grid_width;
  out.pca = fit_feature_pca(teacher, 3);
  out.teacher_projection = three_columns(project_features(out.pca, teacher));
  out.student_projection = three_columns(project_features(out.pca, student));
  out.component_min = std::get<0>(out.teacher_projection.min(0));
  out.component_max = std::get<0>(out.teacher_projection.max(0));
  out.teacher_rgb =
      to_rgb(out.teacher_projection, out.component_min, out.component_max, grid_height, grid_width);
  out.student_rgb =
      to_rgb(out.student_projection, out.component_min, out.component_max, grid_height, grid_width);
  const at::Tensor t = teacher.to(at::kCPU).to(at::kDouble),
                   s = student.to(at::kCPU).to(at::kDouble);
  const at::Tensor cos = at::cosine_similarity(t, s, 1, 1e-12);
  out.mean_cosine = cos.mean().item<double>();
  out.cosine = cos.to(at::kFloat).view({grid_height, grid_width}).contiguous();
  return out;
}

PatchFeatures final_patch_features(VisionTransformer& model, const at::Tensor& image) {
  if (image.dim() != 4 || image.size(0) != 1)
    throw std::invalid_argument("patch features: expected one image (1, C, H, W)");
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  const ViTConfig& cfg = model->config();
  const at::Tensor tokens = model->forward_features(image);
  model->train(was_training);
  const int64_t prefix = cfg.num_prefix_tokens();
  PatchFeatures out;
  out.grid_height = image.size(2) / cfg.patch_size;
  out.grid_width = image.size(3) / cfg.patch_size;
  out.features =
      tokens[0].narrow(0, prefix, tokens.size(1) - prefix).to(at::kCPU).to(at::kFloat).contiguous();
  return out;
}

}  // namespace adala
