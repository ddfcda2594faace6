#include "engine/infer/inference_model.h"

#include <filesystem>
#include <stdexcept>

#include "engine/core/load_weights.h"
#include "engine/core/safetensors.h"
#include "engine/train/experiment_config.h"

namespace adala {

InferenceModel load_inference_model(const std::string& path, const c10::Device& device) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error(path + (std::filesystem::exists(path, ec)
                                         ? ": not a weights file (a folder?)"
                                         : ": no such weights file"));
  InferenceModel m;
  m.path = path;
  m.device = device;
  m.model = load_model(path, device);
  m.model->eval();
  const SafetensorsReader reader(path);
  try {
    m.data = pretrained_config_from_metadata(reader.metadata(), m.model->config());
  } catch (const ConfigError& e) {
    throw std::runtime_error(path + ": metadata " + e.what());
  }
  return m;
}

}  // namespace adala
