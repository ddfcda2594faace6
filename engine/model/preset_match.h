#pragma once
// Which ViT preset a set of tensor shapes (by our names, after weight_mapping) belongs to.
// Width, depth, patch size, channels, MLP width, registers, class token, LayerScale and qkv
// bias are read from the shapes; the number of heads cannot be (it only splits qkv), so a
// match says nothing about it and a config built from shapes takes the preset's heads.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/model/vit_config.h"

namespace adala {

using ShapeMap = std::map<std::string, std::vector<int64_t>>;

struct VitShapeSummary {
  bool valid = false;  // patch_embed.proj.weight [D, C, p, p] was found
  int64_t embed_dim = -1, in_chans = -1, patch_size = -1;
  int64_t depth = 0, mlp_hidden = -1;
  int64_t num_register_tokens = 0, num_classes = 0;
  bool class_token = false, layer_scale = false, qkv_bias = false, linear_branch = false;
  int64_t pos_len = -1;     // pos_embed slots
  int64_t pos_prefix = -1;  // slots before the patch grid (0: no_embed_class); -1 unknown
  int64_t grid = -1;        // patches per side of the position grid
  std::vector<std::string> problems;

  int64_t img_size() const { return grid > 0 && patch_size > 0 ? grid * patch_size : -1; }
  // "D=384 depth=12 patch=14 in=3 mlp=1536 cls reg=4 ls qkv_bias pos=1+37x37 head=0"
  std::string to_string() const;
};

VitShapeSummary summarise_vit_shapes(const ShapeMap& shapes);

struct PresetGuess {
  std::vector<std::string> matches;  // presets whose architecture fits (heads aside)
  std::string best;                  // best match, or the closest preset; "" when not a ViT
  bool exact = false;                // best also agrees in image size, pos layout and head
  std::string reason;
};

std::vector<std::string> matching_presets(const ShapeMap& shapes);
PresetGuess guess_preset(const ShapeMap& shapes);

// A config with these shapes: the best matching preset, adjusted to the file's image size,
// position-embedding layout and classifier width. `heads` > 0 sets the head count, and then a
// file that fits no preset gets a config read off its shapes alone. Throws
// std::invalid_argument when no preset fits and no head count is given (the message says what
// differs from the closest), or when the head count does not divide the width.
ViTConfig config_from_shapes(const ShapeMap& shapes, int64_t heads = 0);

}  // namespace adala
