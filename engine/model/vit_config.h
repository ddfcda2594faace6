#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/model/attention_mode.h"

namespace adala {

// One description of a Vision Transformer, in timm's vocabulary. A new field goes into
// vit_config_fields() too: JSON, checkpoints and experiment files know the fields from there.
struct ViTConfig {
  std::string name = "custom";
  int64_t img_size = 224;
  int64_t patch_size = 16;
  int64_t in_chans = 3;
  int64_t embed_dim = 768;
  int64_t depth = 12;
  int64_t num_heads = 12;
  double mlp_ratio = 4.0;
  bool qkv_bias = true;
  bool class_token = true;
  int64_t num_register_tokens = 0;
  // timm's no_embed_class: position embeddings cover patches only (DINOv2 reg variants).
  bool no_embed_class = false;
  bool layer_scale = false;
  double layer_scale_init = 1e-5;
  double norm_eps = 1e-6;
  int64_t num_classes = 0;  // 0: no classifier head
  double linear_attention_eps = 1e-6;
  // The linear path's feature map phi: "elu1", "relu", "hedgehog" or "performer"
  // (feature_map_kind.h).
  std::string feature_map = "elu1";
  // Performer only (performer_feature_map.h): random features per head (0: max(d, d ln d),
  // d = head_dim), training-mode forward calls per redraw of W (0: never) and W's seed.
  int64_t performer_features = 0;
  int64_t performer_redraw_interval = 0;
  int64_t performer_seed = 0;

  int64_t head_dim() const { return embed_dim / num_heads; }
  int64_t mlp_hidden() const { return static_cast<int64_t>(embed_dim * mlp_ratio); }
  int64_t grid_size() const { return img_size / patch_size; }
  int64_t num_prefix_tokens() const { return (class_token ? 1 : 0) + num_register_tokens; }
  // Tokens for an input of the given side length (prefix + patches).
  int64_t num_tokens(int64_t height, int64_t width) const;
  // Throws std::invalid_argument naming the field when the config cannot describe a ViT.
  void validate() const;
};

// One ViTConfig field: its name (as in JSON and experiment files), the member it names, and
// the values an experiment file may give a number (min_exclusive: min itself is refused) or a
// string (choices; null: any string).
struct ViTConfigField {
  using Member = std::variant<std::string ViTConfig::*, int64_t ViTConfig::*, double ViTConfig::*,
                              bool ViTConfig::*>;
  const char* name;
  Member member;
  double min = 0.0;
  double max = 0.0;
  bool min_exclusive = false;
  const std::vector<std::string>* choices = nullptr;
};

// Every ViTConfig field, in declaration order: the one list that the JSON writer and reader,
// the experiment reader and operator== go through.
const std::vector<ViTConfigField>& vit_config_fields();
// The field of that name; nullptr when there is none.
const ViTConfigField* find_vit_config_field(const std::string& name);

// Field by field, through vit_config_fields().
bool operator==(const ViTConfig& a, const ViTConfig& b);
inline bool operator!=(const ViTConfig& a, const ViTConfig& b) { return !(a == b); }

// Presets: vit_tiny/small/base/large (patch 16), dinov2_vits14/vitb14/vitl14 (+ _reg),
// and small models for 28x28 Fashion-MNIST (fmnist_tiny, fmnist_micro).
ViTConfig vit_preset(const std::string& name);
std::vector<std::string> vit_preset_names();

}  // namespace adala
