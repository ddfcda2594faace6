#include "engine/model/vit_config_json.h"

#include <stdexcept>
#include <variant>

#include "engine/model/overloaded.h"

namespace adala {

Json vit_config_to_json(const ViTConfig& c) {
  Json j = Json::object();
  for (const auto& field : vit_config_fields())
    std::visit([&](auto member) { j[field.name] = Json(c.*member); }, field.member);
  return j;
}

ViTConfig vit_config_from_json(const Json& j) {
  if (!j.is_object())
    throw std::invalid_argument(std::string("ViT config must be a JSON object, got ") +
                                json_type_name(j));
  ViTConfig c;
  if (const auto preset = j.find("preset"); preset != j.end()) {
    if (!preset->is_string())
      throw std::invalid_argument("ViT config field \"preset\" must be a string");
    c = vit_preset(preset->get<std::string>());
  }
  auto bad = [](const std::string& key, const char* expected, const Json& v) {
    return std::invalid_argument("ViT config field \"" + key + "\" must be " + expected + ", got " +
                                 v.dump());
  };
  for (const auto& item : j.items()) {
    // Named references, not a structured binding: lambdas cannot capture those before C++20.
    const std::string& key = item.key();
    const Json& v = item.value();
    auto integer = [&](int64_t& field) {
      if (!v.is_number_integer()) throw bad(key, "an integer", v);
      field = v.get<int64_t>();
    };
    auto number = [&](double& field) {
      if (!v.is_number()) throw bad(key, "a number", v);
      field = v.get<double>();
    };
    auto boolean = [&](bool& field) {
      if (!v.is_boolean()) throw bad(key, "true or false", v);
      field = v.get<bool>();
    };
    if (key == "preset") continue;
    auto text = [&](std::string& field) {
      if (!v.is_string()) throw bad(key, "a string", v);
      field = v.get<std::string>();
    };
    const ViTConfigField* field = find_vit_config_field(key);
    if (!field) throw std::invalid_argument("ViT config has an unknown field \"" + key + "\"");
    const Overloaded read{text, integer, number, boolean};
    std::visit([&](auto member) { read(c.*member); }, field->member);
  }
  c.validate();
  return c;
}

}  // namespace adala
