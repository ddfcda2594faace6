#pragma once
// The data settings a model was trained with and its class names, stored with its weights as
// timm's `pretrained_cfg` is: the JSON object under the safetensors metadata key
// "adala.pretrained_cfg", so `predict` / `embed` use a checkpoint correctly with no flags.
//
//   {"input_size": [C, H, W],          C 1 or 3, H == W, 1..65536
//    "interpolation": "bilinear",      PIL's antialiased "bilinear" or "bicubic" (a = -0.5)
//    "mean": [..], "std": [..],        1 or C entries; mean in [-1000, 1000], std in [1e-6, 1000]
//    "crop_pct": 0.875,                in (0, 1]
//    "crop_mode": "center",            center: shorter side to H / crop_pct, centre crop (timm);
//                                      squash: both sides to H / crop_pct, centre crop (timm);
//                                      none: the image as it is (its size must be H x W)
//    "num_classes": K,                 the classifier's width (0: no head)
//    "label_names": ["cat", ...]}      K distinct non-empty names, or absent / empty
//
// Every problem is a ConfigError naming the field ("adala.pretrained_cfg.mean[1]: ...").
// A checkpoint without the key (older files, plain timm or DINOv2 files) gets defaults for its
// model: the model's channels and size, ImageNet mean/std for RGB (0 / 1 for grey, the
// Fashion-MNIST convention), bilinear, crop_pct 0.875, centre crop, no names.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/json/json.h"
#include "engine/model/vit_config.h"
#include "engine/data/image_transform.h"

namespace adala {

inline constexpr const char* kPretrainedConfigKey = "adala.pretrained_cfg";

struct PretrainedConfig {
  int64_t in_chans = 3;
  int64_t resolution = 224;  // input_size H (= W)
  std::string interpolation = "bilinear";
  std::vector<double> mean{0.485, 0.456, 0.406};
  std::vector<double> std{0.229, 0.224, 0.225};
  double crop_pct = 0.875;
  std::string crop_mode = "center";  // center | squash | none
  int64_t num_classes = 0;
  std::vector<std::string> label_names;  // empty, or num_classes entries

  bool operator==(const PretrainedConfig& o) const;
};

// The defaults for a model whose checkpoint says nothing (see above).
PretrainedConfig default_pretrained_config(const ViTConfig& model);

// The settings of a model evaluated with `eval` (the run's data.eval transform), with the class
// names of its training data (dropped unless there is one per output of the head).
PretrainedConfig pretrained_config_for(const ViTConfig& model, const TransformSpec& eval,
                                       const std::vector<std::string>& class_names);

Json pretrained_config_to_json(const PretrainedConfig& config);
// Validates every field (types, ranges, counts, unknown keys); throws ConfigError.
PretrainedConfig pretrained_config_from_json(const Json& json);
// The metadata value: parses strictly (a JSON error is a ConfigError naming the key), then
// pretrained_config_from_json.
PretrainedConfig parse_pretrained_config(const std::string& text);

// What a checkpoint's metadata says about a model with this config: defaults when the key is
// absent; otherwise the parsed settings, which must agree with the model's channels and head
// (a ConfigError naming input_size[0] or num_classes when not).
PretrainedConfig pretrained_config_from_metadata(const std::map<std::string, std::string>& metadata,
                                                 const ViTConfig& model);

// The evaluation transform these settings describe, at `resolution` (<= 0: their own).
TransformSpec evaluation_transform(const PretrainedConfig& config, int64_t resolution = 0);

}  // namespace adala
