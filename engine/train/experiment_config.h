#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/core/json.h"
#include "engine/core/vit_config.h"
#include "engine/train/segmentation_config.h"
#include "engine/train/stage_config.h"

namespace adala {

// A config problem, always naming the field (dotted path) and the reason.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string field, const std::string& reason)
      : std::runtime_error(field + ": " + reason), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

struct DataConfig {
  std::string dataset = "fashion-mnist";
  std::string root;            // default: the Debian package's folder
  int64_t train_limit = 0;     // 0: the whole split
  int64_t test_limit = 0;
  int64_t alignment_limit = 0; // images used by Stages 1-2 (labels unused); 0: train split
};

struct ExperimentConfig {
  std::string name = "experiment";
  int64_t seed = 0;
  std::string device = "auto";
  int64_t threads = 0;
  ViTConfig model;
  std::string teacher_weights;  // non-empty: Stage 0 loads these instead of training
  DataConfig data;
  StageConfig teacher, attention_alignment, feature_alignment, fine_tuning;
  SegmentationConfig segmentation;  // the optional "segmentation" block (Stage 3, dense)
  std::string runs_dir = "runs";
  Json source;  // the validated document, stored with the run

  const StageConfig& stage(int index) const;
};

// Validates every field; throws ConfigError naming the first bad one. Nothing runs before.
ExperimentConfig parse_experiment_config(const Json& document);
ExperimentConfig load_experiment_config(const std::string& path);

}  // namespace adala
