#include "engine/train/data_paths.h"

#include <filesystem>
#include <string>

#include "engine/data/fashion_mnist.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

void need_folder(const std::string& path, const std::string& field) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw ConfigError(field, "no such folder: " + path);
  if (!fs::is_directory(path, ec)) throw ConfigError(field, "not a folder: " + path);
}

void need_file(const std::string& path, const std::string& field) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw ConfigError(field, "no such file: " + path);
  if (fs::is_directory(path, ec)) throw ConfigError(field, "a folder, not a list file: " + path);
}

void check_source(const DataSourceConfig& s, const std::string& field) {
  if (s.source == "fashion-mnist") {
    need_folder(s.root.empty() ? default_fashion_mnist_root() : s.root, field + ".root");
  } else if (s.source == "image-folder") {
    need_folder(s.root, field + ".root");
  } else if (s.source == "image-list") {
    if (!s.list.empty()) {
      need_file(s.list, field + ".list");
      if (!s.root.empty()) need_folder(s.root, field + ".root");
    } else {
      std::error_code ec;
      // A folder tree or a list file.
      if (!fs::exists(s.root, ec))
        throw ConfigError(field + ".root", "no such file or folder: " + s.root);
    }
  }
}

}  // namespace

void check_data_paths(const ExperimentConfig& config) {
  const Json* data = nullptr;
  if (config.source.is_object() && config.source.contains("data") &&
      config.source["data"].is_object())
    data = &config.source["data"];
  auto given = [&](const char* key) { return data && data->contains(key); };
  if (!given("train")) {
    // The Fashion-MNIST shorthand: data.root serves both splits.
    if (config.data.train.source == "fashion-mnist") {
      const std::string root =
          config.data.root.empty() ? default_fashion_mnist_root() : config.data.root;
      need_folder(root, "data.root");
    }
  } else {
    check_source(config.data.train, "data.train");
  }
  if (given("eval")) check_source(config.data.eval, "data.eval");
  if (given("alignment")) check_source(config.data.alignment, "data.alignment");
}

}  // namespace adala
