#include "engine/core/vit_config_json.h"

#include <stdexcept>

namespace adala {

Json vit_config_to_json(const ViTConfig& c) {
  Json j = Json::object();
  j["name"] = Json(c.name);
  j["img_size"] = Json(c.img_size);
  j["patch_size"] = Json(c.patch_size);
  j["in_chans"] = Json(c.in_chans);
  j["embed_dim"] = Json(c.embed_dim);
  j["depth"] = Json(c.depth);
  j["num_heads"] = Json(c.num_heads);
  j["mlp_ratio"] = Json(c.mlp_ratio);
  j["qkv_bias"] = Json(c.qkv_bias);
  j["class_token"] = Json(c.class_token);
  j["num_register_tokens"] = Json(c.num_register_tokens);
  j["no_embed_class"] = Json(c.no_embed_class);
  j["layer_scale"] = Json(c.layer_scale);
  j["layer_scale_init"] = Json(c.layer_scale_init);
  j["norm_eps"] = Json(c.norm_eps);
  j["num_classes"] = Json(c.num_classes);
  j["linear_attention_eps"] = Json(c.linear_attention_eps);
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
  for (const auto& [key, v] : j.items()) {
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
    if (key == "name") {
      if (!v.is_string()) throw bad(key, "a string", v);
      c.name = v.get<std::string>();
    } else if (key == "img_size")
      integer(c.img_size);
    else if (key == "patch_size")
      integer(c.patch_size);
    else if (key == "in_chans")
      integer(c.in_chans);
    else if (key == "embed_dim")
      integer(c.embed_dim);
    else if (key == "depth")
      integer(c.depth);
    else if (key == "num_heads")
      integer(c.num_heads);
    else if (key == "mlp_ratio")
      number(c.mlp_ratio);
    else if (key == "qkv_bias")
      boolean(c.qkv_bias);
    else if (key == "class_token")
      boolean(c.class_token);
    else if (key == "num_register_tokens")
      integer(c.num_register_tokens);
    else if (key == "no_embed_class")
      boolean(c.no_embed_class);
    else if (key == "layer_scale")
      boolean(c.layer_scale);
    else if (key == "layer_scale_init")
      number(c.layer_scale_init);
    else if (key == "norm_eps")
      number(c.norm_eps);
    else if (key == "num_classes")
      integer(c.num_classes);
    else if (key == "linear_attention_eps")
      number(c.linear_attention_eps);
    else
      throw std::invalid_argument("ViT config has an unknown field \"" + key + "\"");
  }
  c.validate();
  return c;
}

}  // namespace adala
