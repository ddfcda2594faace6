#include "engine/infer/preprocessing.h"

#include <fmt/format.h>

#include <filesystem>

#include "engine/train/config/experiment_config.h"

namespace adala {

namespace {

std::string numbers(const std::vector<double>& values) {
  std::string out;
  for (double v : values) out += (out.empty() ? "" : ",") + fmt::format("{:g}", v);
  return out;
}

// One override: its option, the metadata field it replaces, and how it reads on a line.
struct OverrideField {
  const char* option;
  const char* field;
  bool (*given)(const PreprocessingOverrides&);
  std::string (*value)(const PretrainedConfig&);
};

const std::vector<OverrideField>& override_fields() {
  static const std::vector<OverrideField> fields = {
      {"--interpolation", "interpolation",
       [](const PreprocessingOverrides& o) { return bool(o.interpolation); },
       [](const PretrainedConfig& c) { return c.interpolation; }},
      {"--crop-mode", "crop_mode",
       [](const PreprocessingOverrides& o) { return bool(o.crop_mode); },
       [](const PretrainedConfig& c) { return c.crop_mode; }},
      {"--crop-pct", "crop_pct", [](const PreprocessingOverrides& o) { return bool(o.crop_pct); },
       [](const PretrainedConfig& c) { return fmt::format("{:g}", c.crop_pct); }},
      {"--mean", "mean", [](const PreprocessingOverrides& o) { return bool(o.mean); },
       [](const PretrainedConfig& c) { return numbers(c.mean); }},
      {"--std", "std", [](const PreprocessingOverrides& o) { return bool(o.std); },
       [](const PretrainedConfig& c) { return numbers(c.std); }},
  };
  return fields;
}

}  // namespace

PretrainedConfig apply_preprocessing_overrides(const PretrainedConfig& base,
                                               const PreprocessingOverrides& o) {
  if (o.empty()) return base;
  Json j = pretrained_config_to_json(base);
  if (o.interpolation) j["interpolation"] = *o.interpolation;
  if (o.crop_pct) j["crop_pct"] = *o.crop_pct;
  if (o.crop_mode) j["crop_mode"] = *o.crop_mode;
  if (o.mean) j["mean"] = *o.mean;
  if (o.std) j["std"] = *o.std;
  try {
    return pretrained_config_from_json(j);
  } catch (const ConfigError& e) {
    // "adala.pretrained_cfg.mean[1]: ..." -> "--mean: ..." (the reason follows the field).
    const std::string message = e.what();
    const std::string reason = message.substr(std::min(message.size(), e.field().size() + 2));
    for (const auto& f : override_fields())
      if (e.field().find(std::string(".") + f.field) != std::string::npos)
        throw ConfigError(f.option, reason);
    throw;
  }
}

std::string assumed_preprocessing_note(const std::string& file, bool file_has_settings,
                                       const PretrainedConfig& used,
                                       const PreprocessingOverrides& overrides) {
  if (file_has_settings) return "";
  std::string values, options;
  for (const auto& f : override_fields()) {
    if (f.given(overrides)) continue;
    values += fmt::format("{}{} {}", values.empty() ? "" : ", ", f.option + 2, f.value(used));
    options += fmt::format("{}{}", options.empty() ? "" : ", ", f.option);
  }
  if (values.empty()) return "";
  return fmt::format("{} has no {}: assumed {} (change with {})",
                     std::filesystem::path(file).filename().string(), kPretrainedConfigKey, values,
                     options);
}

std::string describe_preprocessing(const PretrainedConfig& c) {
  std::string geometry;
  if (c.crop_mode == "none")
    geometry = fmt::format("crop-mode none (images must be {0}x{0})", c.resolution);
  else
    geometry =
        fmt::format("{} resize, crop-mode {}{}", c.interpolation, c.crop_mode,
                    c.crop_mode == "center" ? fmt::format(", crop-pct {:g}", c.crop_pct) : "");
  return fmt::format("input {}x{}x{}, {}, mean {}, std {}", c.in_chans, c.resolution, c.resolution,
                     geometry, numbers(c.mean), numbers(c.std));
}

}  // namespace adala
