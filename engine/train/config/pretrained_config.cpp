#include "engine/train/config/pretrained_config.h"

#include <set>
#include <stdexcept>

#include "engine/train/config/config_reader.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

namespace {

constexpr int64_t kMaxSide = 65536;
constexpr int64_t kMaxClasses = 1000000;

std::string field(const std::string& key) { return std::string(kPretrainedConfigKey) + "." + key; }

}  // namespace

bool PretrainedConfig::operator==(const PretrainedConfig& o) const {
  return in_chans == o.in_chans && resolution == o.resolution && interpolation == o.interpolation &&
         mean == o.mean && std == o.std && crop_pct == o.crop_pct && crop_mode == o.crop_mode &&
         num_classes == o.num_classes && label_names == o.label_names;
}

PretrainedConfig default_pretrained_config(const ViTConfig& model) {
  PretrainedConfig c;
  c.in_chans = model.in_chans;
  c.resolution = model.img_size;
  if (model.in_chans == 3) {
    c.mean = imagenet_mean();
    c.std = imagenet_std();
  } else {
    c.mean = {0.0};
    c.std = {1.0};
  }
  c.num_classes = model.num_classes;
  return c;
}

PretrainedConfig pretrained_config_for(const ViTConfig& model, const TransformSpec& eval,
                                       const std::vector<std::string>& class_names) {
  PretrainedConfig c = default_pretrained_config(model);
  c.resolution = eval.resolution > 0 ? eval.resolution : model.img_size;
  c.mean = eval.mean;
  c.std = eval.std;
  c.crop_pct = eval.crop_pct;
  c.crop_mode = eval.preprocess == "none" ? "none" : to_string(eval.crop_mode);
  c.interpolation = to_string(eval.interpolation);
  if (int64_t(class_names.size()) == model.num_classes) c.label_names = class_names;
  return c;
}

Json pretrained_config_to_json(const PretrainedConfig& c) {
  Json j = Json::object();
  j["input_size"] = Json::array({c.in_chans, c.resolution, c.resolution});
  j["interpolation"] = c.interpolation;
  j["mean"] = c.mean;
  j["std"] = c.std;
  j["crop_pct"] = c.crop_pct;
  j["crop_mode"] = c.crop_mode;
  j["num_classes"] = c.num_classes;
  j["label_names"] = c.label_names;
  return j;
}

PretrainedConfig pretrained_config_from_json(const Json& json) {
  ConfigReader r(json, kPretrainedConfigKey);
  PretrainedConfig c;
  if (!r.has("input_size")) throw ConfigError(r.field("input_size"), "missing ([C, H, W])");
  const std::vector<int64_t> size = r.integers("input_size", {}, 1, kMaxSide);
  if (size.size() != 3)
    throw ConfigError(r.field("input_size"),
                      "needs 3 entries [C, H, W], got " + std::to_string(size.size()));
  if (size[0] != 1 && size[0] != 3)
    throw ConfigError(r.field("input_size") + "[0]",
                      "channels must be 1 (grey) or 3 (RGB), got " + std::to_string(size[0]));
  if (size[1] != size[2])
    throw ConfigError(r.field("input_size"), "inputs are square: H " + std::to_string(size[1]) +
                                                 " and W " + std::to_string(size[2]) + " differ");
  c.in_chans = size[0];
  c.resolution = size[1];
  const size_t n = size_t(c.in_chans);
  c.interpolation = r.string("interpolation", c.interpolation, {"bilinear", "bicubic"});
  const PretrainedConfig defaults = c.in_chans == 3 ? PretrainedConfig{} : [] {
    PretrainedConfig grey;
    grey.mean = {0.0};
    grey.std = {1.0};
    return grey;
  }();
  c.mean = r.numbers("mean", defaults.mean, -1e3, 1e3, 1, n);
  c.std = r.numbers("std", defaults.std, 1e-6, 1e3, 1, n);
  if (c.mean.size() != 1 && c.mean.size() != n)
    throw ConfigError(r.field("mean"), "needs 1 or " + std::to_string(n) + " entries");
  if (c.std.size() != 1 && c.std.size() != n)
    throw ConfigError(r.field("std"), "needs 1 or " + std::to_string(n) + " entries");
  c.crop_pct = r.number("crop_pct", c.crop_pct, 0.0, 1.0, true);
  c.crop_mode = r.string("crop_mode", c.crop_mode, {"center", "squash", "none"});
  c.num_classes = r.integer("num_classes", 0, 0, kMaxClasses);
  c.label_names = r.strings("label_names", {});
  r.finish();
  if (!c.label_names.empty() && int64_t(c.label_names.size()) != c.num_classes)
    throw ConfigError(r.field("label_names"), std::to_string(c.label_names.size()) +
                                                  " names for num_classes " +
                                                  std::to_string(c.num_classes));
  std::set<std::string> seen;
  for (size_t i = 0; i < c.label_names.size(); ++i)
    if (!seen.insert(c.label_names[i]).second)
      throw ConfigError(r.field("label_names") + "[" + std::to_string(i) + "]",
                        "\"" + c.label_names[i] + "\" appears twice");
  return c;
}

PretrainedConfig parse_pretrained_config(const std::string& text) {
  Json json;
  try {
    json = parse_json_strict(text);
  } catch (const JsonError& e) {
    throw ConfigError(kPretrainedConfigKey, std::string("not valid JSON: ") + e.what());
  }
  return pretrained_config_from_json(json);
}

PretrainedConfig pretrained_config_from_metadata(const std::map<std::string, std::string>& metadata,
                                                 const ViTConfig& model) {
  const auto it = metadata.find(kPretrainedConfigKey);
  if (it == metadata.end()) return default_pretrained_config(model);
  PretrainedConfig c = parse_pretrained_config(it->second);
  if (c.in_chans != model.in_chans)
    throw ConfigError(field("input_size") + "[0]", std::to_string(c.in_chans) +
                                                       " channels, but the model takes " +
                                                       std::to_string(model.in_chans));
  if (c.resolution % model.patch_size != 0)
    throw ConfigError(field("input_size"), "patch size " + std::to_string(model.patch_size) +
                                               " does not divide " + std::to_string(c.resolution));
  if (c.num_classes != model.num_classes)
    throw ConfigError(field("num_classes"), std::to_string(c.num_classes) +
                                                ", but the model's head has " +
                                                std::to_string(model.num_classes) + " outputs");
  return c;
}

TransformSpec evaluation_transform(const PretrainedConfig& c, int64_t resolution) {
  TransformSpec t;
  t.preprocess = c.crop_mode == "none" ? "none" : "timm";
  // A config built in code (not parsed) may hold anything: name the field as parsing would.
  try {
    if (c.crop_mode != "none") t.crop_mode = crop_mode_from_string(c.crop_mode);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(field("crop_mode"), e.what());
  }
  try {
    t.interpolation = interpolation_from_string(c.interpolation);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(field("interpolation"), e.what());
  }
  t.resolution = resolution > 0 ? resolution : c.resolution;
  t.crop_pct = c.crop_pct;
  t.mean = c.mean;
  t.std = c.std;
  return t;
}

}  // namespace adala
