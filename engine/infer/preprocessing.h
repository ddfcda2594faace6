#pragma once
// The evaluation preprocessing a command uses for a checkpoint: the file's own settings
// ("adala.pretrained_cfg", pretrained_config.h), with the user's overrides on top
// (`--interpolation`, `--crop-pct`, `--crop-mode`, `--mean`, `--std`), and one line saying which
// values were assumed because the file says nothing about them.
#include <optional>
#include <string>
#include <vector>

#include "engine/train/config/pretrained_config.h"

namespace adala {

struct PreprocessingOverrides {
  std::optional<std::string> interpolation;  // bilinear | bicubic
  std::optional<double> crop_pct;            // (0, 1]
  std::optional<std::string> crop_mode;      // center | none | squash
  std::optional<std::vector<double>> mean;   // 1 or C entries
  std::optional<std::vector<double>> std;
  bool empty() const { return !interpolation && !crop_pct && !crop_mode && !mean && !std; }
};

// `base` with the overrides applied, checked as checkpoint metadata is. Throws ConfigError
// naming the option ("--mean: needs 1 or 3 entries").
PretrainedConfig apply_preprocessing_overrides(const PretrainedConfig& base,
                                               const PreprocessingOverrides& overrides);

// Empty when the checkpoint carries its settings or the overrides give every one; otherwise one
// line naming the values assumed for `file` and the options that change them.
std::string assumed_preprocessing_note(const std::string& file, bool file_has_settings,
                                       const PretrainedConfig& used,
                                       const PreprocessingOverrides& overrides);

// "crop-mode none, mean 0, std 1" style: what an evaluation of `config` does to an image.
std::string describe_preprocessing(const PretrainedConfig& config);

}  // namespace adala
