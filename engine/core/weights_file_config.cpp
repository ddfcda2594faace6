#include "engine/core/weights_file_config.h"

#include <stdexcept>
#include <vector>

#include "engine/core/json.h"
#include "engine/core/preset_match.h"
#include "engine/core/vit_config_json.h"
#include "engine/core/weight_mapping.h"

namespace adala {
namespace {

// The file's tensor shapes under this project's names (timm / DINOv2 names mapped).
ShapeMap our_shapes(const SafetensorsReader& reader) {
  ShapeMap shapes;
  std::vector<std::string> names;
  for (const auto& t : reader.tensors()) {
    shapes[t.name] = t.shape;
    names.push_back(t.name);
  }
  return apply_key_mapping(plan_key_mapping(names), shapes);
}

}  // namespace

ViTConfig config_of_safetensors(const SafetensorsReader& reader, const std::string& path) {
  const auto& meta = reader.metadata();
  if (auto it = meta.find("adala.config"); it != meta.end()) {
    try {
      return vit_config_from_json(parse_json_strict(it->second));
    } catch (const std::exception& e) {
      throw std::runtime_error(
          path + ": metadata \"adala.config\" is not a usable ViT config: " + e.what());
    }
  }
  try {
    return config_from_shapes(our_shapes(reader));
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": no \"adala.config\" metadata and " + e.what());
  }
}

ViTConfig config_of_weights_file(const std::string& path) {
  return config_of_safetensors(SafetensorsReader(path), path);
}

int64_t head_classes_of_weights_file(const std::string& path) {
  return summarise_vit_shapes(our_shapes(SafetensorsReader(path))).num_classes;
}

}  // namespace adala
