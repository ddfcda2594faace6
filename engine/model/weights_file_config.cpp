#include "engine/model/weights_file_config.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "engine/json/json.h"
#include "engine/model/preset_match.h"
#include "engine/model/vit_config_json.h"
#include "engine/model/weight_mapping.h"

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

ViTConfig config_of_safetensors(const SafetensorsReader& reader, const std::string& path,
                                const ArchitectureHint& hint) {
  const auto with_heads = [&](ViTConfig c) {
    if (hint.heads > 0) c.num_heads = hint.heads;
    try {
      c.validate();
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ": " + e.what());
    }
    return c;
  };
  if (hint.model) return with_heads(*hint.model);
  const auto& meta = reader.metadata();
  if (auto it = meta.find("adala.config"); it != meta.end()) {
    ViTConfig recorded;
    try {
      recorded = vit_config_from_json(parse_json_strict(it->second));
    } catch (const std::exception& e) {
      throw std::runtime_error(
          path + ": metadata \"adala.config\" is not a usable ViT config: " + e.what());
    }
    return with_heads(recorded);
  }
  try {
    return config_from_shapes(our_shapes(reader), hint.heads);
  } catch (const std::exception& e) {
    std::string message = path + ": no \"adala.config\" metadata and " + e.what();
    if (hint.heads <= 0)
      message +=
          ". The tensors cannot say the number of attention heads: give it with --heads N, or "
          "the whole architecture with --model-config FILE.json (ViTConfig fields)";
    throw std::runtime_error(message);
  }
}

ViTConfig config_of_weights_file(const std::string& path, const ArchitectureHint& hint) {
  return config_of_safetensors(SafetensorsReader(path), path, hint);
}

ViTConfig read_model_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the model config");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    ViTConfig c = vit_config_from_json(parse_json_strict(text.str()));
    c.validate();
    return c;
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

int64_t head_classes_of_weights_file(const std::string& path) {
  return summarise_vit_shapes(our_shapes(SafetensorsReader(path))).num_classes;
}

}  // namespace adala
