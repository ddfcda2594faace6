#include "engine/model/vit_config.h"

#include <functional>
#include <map>
#include <stdexcept>

#include "engine/model/feature_map_kind.h"

namespace adala {

int64_t ViTConfig::num_tokens(int64_t height, int64_t width) const {
  return num_prefix_tokens() + (height / patch_size) * (width / patch_size);
}

void ViTConfig::validate() const {
  auto require = [](bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument("invalid ViT config: " + message);
  };
  require(patch_size > 0, "patch_size must be > 0");
  require(img_size >= patch_size, "img_size must be >= patch_size");
  require(in_chans > 0, "in_chans must be > 0");
  require(embed_dim > 0, "embed_dim must be > 0");
  require(depth > 0, "depth must be > 0");
  require(num_heads > 0, "num_heads must be > 0");
  require(embed_dim % num_heads == 0, "embed_dim (" + std::to_string(embed_dim) +
                                          ") must be divisible by num_heads (" +
                                          std::to_string(num_heads) + ")");
  require(mlp_ratio > 0, "mlp_ratio must be > 0");
  require(num_register_tokens >= 0, "num_register_tokens must be >= 0");
  require(num_classes >= 0, "num_classes must be >= 0");
  require(norm_eps > 0, "norm_eps must be > 0");
  require(linear_attention_eps > 0, "linear_attention_eps must be > 0");
  try {
    feature_map_kind_from_string(feature_map);
  } catch (const std::invalid_argument& e) {
    require(false, std::string("feature_map: ") + e.what());
  }
  // The same ranges as vit_config_fields() gives the experiment reader.
  for (const char* name : {"performer_features", "performer_redraw_interval", "performer_seed"}) {
    const ViTConfigField& field = *find_vit_config_field(name);
    const int64_t value = this->*std::get<int64_t ViTConfig::*>(field.member);
    require(value >= int64_t(field.min) && value <= int64_t(field.max),
            std::string(name) + " must be in [" + std::to_string(int64_t(field.min)) + ", " +
                std::to_string(int64_t(field.max)) + "], got " + std::to_string(value));
  }
}

const std::vector<ViTConfigField>& vit_config_fields() {
  using C = ViTConfig;
  static const std::vector<ViTConfigField> fields = {
      {"name", &C::name},
      {"img_size", &C::img_size, 1, 8192},
      {"patch_size", &C::patch_size, 1, 1024},
      {"in_chans", &C::in_chans, 1, 64},
      {"embed_dim", &C::embed_dim, 1, 16384},
      {"depth", &C::depth, 1, 256},
      {"num_heads", &C::num_heads, 1, 256},
      {"mlp_ratio", &C::mlp_ratio, 0.0, 64.0, true},
      {"qkv_bias", &C::qkv_bias},
      {"class_token", &C::class_token},
      {"num_register_tokens", &C::num_register_tokens, 0, 64},
      {"no_embed_class", &C::no_embed_class},
      {"layer_scale", &C::layer_scale},
      {"layer_scale_init", &C::layer_scale_init, 0.0, 10.0},
      {"norm_eps", &C::norm_eps, 0.0, 1.0, true},
      {"num_classes", &C::num_classes, 0, 100000},
      {"linear_attention_eps", &C::linear_attention_eps, 0.0, 1.0, true},
      {"feature_map", &C::feature_map, 0.0, 0.0, false, &feature_map_names()},
      {"performer_features", &C::performer_features, 0, 65536},
      {"performer_redraw_interval", &C::performer_redraw_interval, 0, 1e12},
      {"performer_seed", &C::performer_seed, 0, 1e12},
  };
  return fields;
}

const ViTConfigField* find_vit_config_field(const std::string& name) {
  for (const auto& field : vit_config_fields())
    if (name == field.name) return &field;
  return nullptr;
}

bool operator==(const ViTConfig& a, const ViTConfig& b) {
  for (const auto& field : vit_config_fields()) {
    const bool same = std::visit([&](auto member) { return a.*member == b.*member; }, field.member);
    if (!same) return false;
  }
  return true;
}

namespace {

ViTConfig make(const std::string& name, int64_t img, int64_t patch, int64_t dim, int64_t depth,
               int64_t heads) {
  ViTConfig c;
  c.name = name;
  c.img_size = img;
  c.patch_size = patch;
  c.embed_dim = dim;
  c.depth = depth;
  c.num_heads = heads;
  return c;
}

ViTConfig dinov2(const std::string& name, int64_t dim, int64_t depth, int64_t heads,
                 int64_t registers) {
  ViTConfig c = make(name, 518, 14, dim, depth, heads);
  c.layer_scale = true;
  c.layer_scale_init = 1.0;
  c.num_register_tokens = registers;
  c.no_embed_class = registers > 0;  // timm's reg variants keep no cls slot in pos_embed
  return c;
}

ViTConfig fmnist(const std::string& name, int64_t dim, int64_t depth, int64_t heads) {
  ViTConfig c = make(name, 28, 4, dim, depth, heads);
  c.in_chans = 1;
  c.num_classes = 10;
  c.mlp_ratio = 2.0;
  return c;
}

const std::map<std::string, std::function<ViTConfig()>>& presets() {
  static const std::map<std::string, std::function<ViTConfig()>> table = {
      {"vit_tiny", [] { return make("vit_tiny", 224, 16, 192, 12, 3); }},
      {"vit_small", [] { return make("vit_small", 224, 16, 384, 12, 6); }},
      {"vit_base", [] { return make("vit_base", 224, 16, 768, 12, 12); }},
      {"vit_large", [] { return make("vit_large", 224, 16, 1024, 24, 16); }},
      {"dinov2_vits14", [] { return dinov2("dinov2_vits14", 384, 12, 6, 0); }},
      {"dinov2_vitb14", [] { return dinov2("dinov2_vitb14", 768, 12, 12, 0); }},
      {"dinov2_vitl14", [] { return dinov2("dinov2_vitl14", 1024, 24, 16, 0); }},
      {"dinov2_vits14_reg", [] { return dinov2("dinov2_vits14_reg", 384, 12, 6, 4); }},
      {"dinov2_vitb14_reg", [] { return dinov2("dinov2_vitb14_reg", 768, 12, 12, 4); }},
      {"dinov2_vitl14_reg", [] { return dinov2("dinov2_vitl14_reg", 1024, 24, 16, 4); }},
      {"fmnist_tiny", [] { return fmnist("fmnist_tiny", 64, 4, 4); }},
      {"fmnist_micro", [] { return fmnist("fmnist_micro", 32, 2, 2); }},
  };
  return table;
}

}  // namespace

ViTConfig vit_preset(const std::string& name) {
  auto it = presets().find(name);
  if (it == presets().end()) {
    std::string known;
    for (const auto& kv : presets()) known += (known.empty() ? "" : ", ") + kv.first;
    throw std::invalid_argument("unknown ViT preset \"" + name + "\" (known: " + known + ")");
  }
  return it->second();
}

std::vector<std::string> vit_preset_names() {
  std::vector<std::string> names;
  for (const auto& kv : presets()) names.push_back(kv.first);
  return names;
}

}  // namespace adala
