#include "engine/infer/feature_comparison.h"

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <filesystem>
#include <stdexcept>

#include "engine/data/image_transform.h"
#include "engine/infer/image_inputs.h"
#include "engine/infer/inspection_dataset.h"
#include "engine/train/config/pretrained_config.h"
#include "engine/train/stage_catalog.h"

namespace adala {

namespace fs = std::filesystem;

RunModelPaths run_model_paths(const std::string& run_dir) {
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec)) throw std::runtime_error(run_dir + ": no such run folder");
  RunModelPaths paths;
  const std::string teacher = stage_output_path(run_dir, 0);
  if (!fs::is_regular_file(teacher, ec))
    throw std::runtime_error(run_dir + ": the run has no teacher weights (" +
                             fs::path(teacher).filename().string() + ")");
  paths.teacher = teacher;
  for (int stage = kStageCount - 1; stage >= 1 && paths.student.empty(); --stage)
    if (fs::is_regular_file(stage_output_path(run_dir, stage), ec))
      paths.student = stage_output_path(run_dir, stage);
  if (paths.student.empty())
    throw std::runtime_error(run_dir +
                             ": the run has no student weights yet (no Stage 1-3 output)");
  const std::string config = run_dir + "/config.json";
  if (fs::is_regular_file(config, ec)) paths.config = config;
  return paths;
}

FeatureImage feature_image_from_dataset(const Dataset& dataset, int64_t index) {
  if (index < 0 || index >= dataset.size())
    throw std::runtime_error("image index " + std::to_string(index) +
                             " is out of range: the data set has " +
                             std::to_string(dataset.size()) + " images (0 to " +
                             std::to_string(dataset.size() - 1) + ")");
  FeatureImage out;
  const Sample sample = dataset.get(index);
  out.image = sample.image;
  out.index = index;
  out.dataset_size = dataset.size();
  out.description = "item " + std::to_string(index) + ": " +
                    describe_inspection_item(dataset, index, sample.label);
  return out;
}

FeatureImage feature_image_from_file(const std::string& path, int64_t channels) {
  const auto inputs = open_image_inputs({path}, channels);
  const auto& dataset = *inputs.front().dataset;
  if (dataset.size() != 1) throw std::runtime_error(path + ": not one image file");
  FeatureImage out;
  out.image = dataset.get(0).image;
  out.description = fs::path(path).filename().string();
  return out;
}

FeatureComparison compare_features(InferenceModel& teacher, InferenceModel& student,
                                   const at::Tensor& image) {
  const ViTConfig& tc = teacher.model->config();
  const ViTConfig& sc = student.model->config();
  if (tc.embed_dim != sc.embed_dim || tc.patch_size != sc.patch_size || tc.in_chans != sc.in_chans)
    throw std::runtime_error("the teacher (" + teacher.path + ") and the student (" + student.path +
                             ") differ in width, patch size or channels: their features cannot "
                             "be compared");
  const TransformSpec spec = evaluation_transform(student.data);
  SplitMix64 unused(0, 0);
  const at::Tensor normalised = apply_transform(image, spec, /*training=*/false, unused);
  FeatureComparison out;
  out.teacher_path = teacher.path;
  out.student_path = student.path;
  out.patch_size = sc.patch_size;
  // What the models saw, back in [0, 1] for display.
  {
    const int64_t c = normalised.size(0);
    at::Tensor shown = normalised.clone();
    for (int64_t ch = 0; ch < c; ++ch) {
      const double m = spec.mean.size() == 1 ? spec.mean[0] : spec.mean.at(size_t(ch));
      const double s = spec.std.size() == 1 ? spec.std[0] : spec.std.at(size_t(ch));
      shown[ch].mul_(s).add_(m);
    }
    out.input = shown.clamp(0.0, 1.0);
  }
  const at::Tensor batch = normalised.unsqueeze(0);
  const PatchFeatures t = final_patch_features(teacher.model, batch.to(teacher.device));
  const PatchFeatures s = final_patch_features(student.model, batch.to(student.device));
  out.patches = compare_patch_features(t.features, s.features, t.grid_height, t.grid_width);
  return out;
}

}  // namespace adala
