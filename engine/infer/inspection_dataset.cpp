#include "engine/infer/inspection_dataset.h"

#include <filesystem>
#include <stdexcept>

#include "engine/data/fashion_mnist.h"
#include "engine/data/opencv/image_file_dataset.h"
#include "engine/infer/image_inputs.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/stage_data.h"

namespace adala {

namespace fs = std::filesystem;

std::shared_ptr<const Dataset> open_inspection_dataset(const std::string& where, int64_t channels) {
  if (where.empty())
    return std::make_shared<FashionMnistDataset>(default_fashion_mnist_root(), "test");
  std::error_code ec;
  const fs::file_status status = fs::status(where, ec);
  if (ec || !fs::exists(status)) throw std::runtime_error(where + ": no such file or folder");
  if (fs::is_directory(status)) return open_image_inputs({where}, channels).front().dataset;
  if (fs::path(where).extension() == ".json") {
    try {  // ConfigError's text names the field
      const ExperimentConfig config = load_experiment_config(where);
      return open_stage_data(config.data.eval, config.data, "data.eval").dataset;
    } catch (const std::exception& e) {
      throw std::runtime_error(where + ": " + e.what());
    }
  }
  return open_image_list(where, "", channels);
}

std::string describe_inspection_item(const Dataset& dataset, int64_t index, int64_t label) {
  std::string text = fs::path(dataset.item_name(index)).filename().string();
  const auto names = dataset.class_names();
  if (label >= 0 && label < int64_t(names.size())) text += " (" + names[size_t(label)] + ")";
  return text;
}

}  // namespace adala
