#pragma once
// The teacher's and the student's final patch features of one image, compared (PCA colour maps
// fitted on the teacher, per-patch cosine similarity: engine/inspect/feature_pca.h), and the
// models a run folder holds. Shared by `adala features` and the workbench's Features tab.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

#include "engine/inspect/feature_pca.h"
#include "engine/data/dataset.h"
#include "engine/infer/inference_model.h"

namespace adala {

// The weights a run folder holds: its teacher (teacher.safetensors) and its newest student
// (student.safetensors, else student_stage2, else student_stage1), and its config.json ("" when
// the folder has none). Throws std::runtime_error naming the folder when a model is missing.
struct RunModelPaths {
  std::string teacher, student, config;
};
RunModelPaths run_model_paths(const std::string& run_dir);

// One image to compare on, as decoded ((C, H, W) uint8).
struct FeatureImage {
  at::Tensor image;
  std::string description;  // "item 3: 3.png (Dress)" or the file name
  int64_t index = -1;       // the dataset item, -1 for a file
  int64_t dataset_size = 0;
};
// Item `index` of `dataset`; throws std::runtime_error when it is out of range.
FeatureImage feature_image_from_dataset(const Dataset& dataset, int64_t index);
// An image file, read as the image sources read them (grey/RGBA to `channels`).
FeatureImage feature_image_from_file(const std::string& path, int64_t channels);

struct FeatureComparison {
  PatchFeatureComparison patches;
  at::Tensor input;  // (C, H, W) float in [0, 1]: what the models saw, before normalisation
  int64_t patch_size = 0;
  std::string teacher_path, student_path;
};

// Both models see the same input: the image through the student checkpoint's evaluation
// transform (its pretrained_cfg: for a run, the run's data.eval transform). Throws
// std::runtime_error when the two models' features cannot be compared (width, patch size).
FeatureComparison compare_features(InferenceModel& teacher, InferenceModel& student,
                                   const at::Tensor& image);

}  // namespace adala
