#pragma once
// The model a weights file holds, from its header alone (no tensor data read): the config
// it records ("adala.config") or the preset its tensor shapes match, and its head width.
// Kept apart from load_weights so that the config reader needs no model code.
#include <cstdint>
#include <string>

#include "engine/core/safetensors.h"
#include "engine/core/vit_config.h"

namespace adala {

// "adala.config" when present, otherwise the best-matching preset for the tensor shapes
// (config_from_shapes). Throws std::runtime_error starting with `path` when neither gives one.
ViTConfig config_of_safetensors(const SafetensorsReader& reader, const std::string& path);
ViTConfig config_of_weights_file(const std::string& path);
// The classifier width of the model in a file (0: no head.weight).
int64_t head_classes_of_weights_file(const std::string& path);

}  // namespace adala
