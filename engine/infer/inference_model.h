#pragma once
// A checkpoint ready for use: the model (config from "adala.config" or the matching preset,
// attention modes from "adala.attention_modes") and its data settings and class names from
// "adala.pretrained_cfg" (defaults when the file has none).
#include <c10/core/Device.h>

#include <string>

#include "engine/core/vision_transformer.h"
#include "engine/train/pretrained_config.h"

namespace adala {

struct InferenceModel {
  std::string path;
  VisionTransformer model{nullptr};
  PretrainedConfig data;
  c10::Device device{c10::kCPU};
};

// Throws std::runtime_error starting with the path (missing file, not a ViT, malformed
// metadata naming its field). The model is in eval mode on `device`.
InferenceModel load_inference_model(const std::string& path, const c10::Device& device);

}  // namespace adala
