#pragma once
// The model a weights file holds, from its header alone (no tensor data read): the config
// it records ("adala.config") or the preset its tensor shapes match, and its head width.
// Kept apart from load_weights so that the config reader needs no model code.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/io/safetensors.h"
#include "engine/model/vit_config.h"

namespace adala {

// What a user says about a model that its tensors cannot: the head count (qkv's rows are the
// same for any), or the whole architecture (`--heads`, `--model-config FILE.json`).
struct ArchitectureHint {
  int64_t heads = 0;               // > 0: the number of attention heads
  std::optional<ViTConfig> model;  // the whole architecture; heads > 0 still overrides its own
  bool empty() const { return heads <= 0 && !model; }
};

// The hint's model when it has one; else "adala.config" when present; else the best-matching
// preset for the tensor shapes, or with hint.heads a config read off the shapes alone
// (config_from_shapes). hint.heads replaces the head count of whichever it was. Throws
// std::runtime_error starting with `path` when none gives a config, saying which flags would.
ViTConfig config_of_safetensors(const SafetensorsReader& reader, const std::string& path,
                                const ArchitectureHint& hint = {});
ViTConfig config_of_weights_file(const std::string& path, const ArchitectureHint& hint = {});

// A JSON file of ViTConfig fields (an optional "preset" as the starting point), for
// ArchitectureHint::model. Throws std::runtime_error naming the file and the field.
ViTConfig read_model_config_file(const std::string& path);
// The classifier width of the model in a file (0: no head.weight).
int64_t head_classes_of_weights_file(const std::string& path);

}  // namespace adala
