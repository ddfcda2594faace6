#pragma once
// A checkpoint ready for use: the model (config from "adala.config" or the matching preset,
// attention modes from "adala.attention_modes") and its data settings and class names from
// "adala.pretrained_cfg" (defaults when the file has none).
#include <c10/core/Device.h>

#include <string>

#include "engine/model/vision_transformer.h"
#include "engine/model/weights_file_config.h"
#include "engine/infer/preprocessing.h"
#include "engine/train/config/pretrained_config.h"

namespace adala {

struct InferenceModel {
  std::string path;
  VisionTransformer model{nullptr};
  PretrainedConfig data;  // the file's settings with the user's overrides applied
  c10::Device device{c10::kCPU};
  // Which values were assumed rather than read from the file or given (empty: none); commands
  // print it, the inspector shows it (preprocessing.h).
  std::string preprocessing_note;
};

// What the user says beyond the file: its architecture, and preprocessing overrides.
struct InferenceLoadOptions {
  ArchitectureHint architecture;
  PreprocessingOverrides preprocessing;
};

// Throws std::runtime_error starting with the path (missing file, not a ViT, malformed
// metadata naming its field, a bad override naming its option). The model is in eval mode on
// `device`.
InferenceModel load_inference_model(const std::string& path, const c10::Device& device,
                                    const InferenceLoadOptions& options = {});

}  // namespace adala
