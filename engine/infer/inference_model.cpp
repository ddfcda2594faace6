#include "engine/infer/inference_model.h"

#include <filesystem>
#include <stdexcept>

#include "engine/model/load_weights.h"
#include "engine/io/safetensors.h"
#include "engine/train/config/experiment_config.h"

namespace adala {

InferenceModel load_inference_model(const std::string& path, const c10::Device& device,
                                    const InferenceLoadOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error(path + (std::filesystem::exists(path, ec)
                                         ? ": not a weights file (a folder?)"
                                         : ": no such weights file"));
  InferenceModel m;
  m.path = path;
  m.device = device;
  m.model = load_model(path, device, ReadMode::Mmap, options.architecture);
  m.model->eval();
  const SafetensorsReader reader(path);
  PretrainedConfig recorded;
  try {
    recorded = pretrained_config_from_metadata(reader.metadata(), m.model->config());
  } catch (const ConfigError& e) {
    throw std::runtime_error(path + ": metadata " + e.what());
  }
  try {
    m.data = apply_preprocessing_overrides(recorded, options.preprocessing);
  } catch (const ConfigError& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  m.preprocessing_note = assumed_preprocessing_note(
      path, reader.metadata().count(kPretrainedConfigKey) > 0, m.data, options.preprocessing);
  return m;
}

}  // namespace adala
