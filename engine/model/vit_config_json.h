#pragma once
// ViTConfig <-> JSON: how a checkpoint records the model it holds ("adala.config" metadata)
// and how experiment files describe a model.
#include "engine/json/json.h"
#include "engine/model/vit_config.h"

namespace adala {

// Every field, by its ViTConfig name.
Json vit_config_to_json(const ViTConfig& config);

// Reads an object of ViTConfig fields. An optional "preset" names the starting point
// (vit_preset); the other fields override it; fields left out keep their defaults. Throws
// std::invalid_argument naming the field for an unknown key, a wrong type or an invalid value.
ViTConfig vit_config_from_json(const Json& json);

}  // namespace adala
