#include "engine/infer/image_inputs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "engine/data/opencv/image_file.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return !name.empty() && name[0] == '.';
}

bool has_sub_folders(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && !hidden(e.path())) return true;
  return false;
}

}  // namespace

std::vector<ImageInput> open_image_inputs(const std::vector<std::string>& args, int64_t channels) {
  if (args.empty()) throw std::runtime_error("no images given");
  std::vector<ImageInput> inputs;
  std::vector<std::string> files;
  auto flush_files = [&] {
    if (files.empty()) return;
    ImageInput in;
    in.origin = files.size() == 1 ? files[0]
                                  : files[0] + " + " + std::to_string(files.size() - 1) + " more";
    in.dataset =
        std::make_shared<ImageFileDataset>("images", in.origin, files, std::vector<int64_t>{},
                                           std::vector<std::string>{}, channels, 0);
    inputs.push_back(std::move(in));
    files.clear();
  };
  for (const std::string& arg : args) {
    std::error_code ec;
    const fs::file_status status = fs::status(arg, ec);
    if (ec || !fs::exists(status)) throw std::runtime_error(arg + ": no such file or folder");
    if (fs::is_directory(status)) {
      flush_files();
      ImageInput in;
      in.origin = arg;
      in.class_folders = has_sub_folders(arg);
      if (in.class_folders)
        in.dataset = open_image_folder(arg, "", channels);
      else
        in.dataset = open_image_list(arg, "", channels);
      inputs.push_back(std::move(in));
    } else {
      if (!is_dataset_image_path(fs::path(arg).filename().string()))
        throw std::runtime_error(arg + ": not an image file (.jpg .jpeg .png .webp .bmp)");
      files.push_back(arg);
    }
  }
  flush_files();
  return inputs;
}

std::vector<std::string> read_class_names(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot open the class list");
  std::vector<std::string> names;
  std::set<std::string> seen;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (!seen.insert(line).second)
      throw std::runtime_error(file + ":" + std::to_string(line_number) + ": class \"" + line +
                               "\" is listed twice");
    names.push_back(line);
  }
  if (names.empty()) throw std::runtime_error(file + ": the class list is empty");
  return names;
}

std::vector<int64_t> map_input_classes(const ImageInput& input,
                                       const std::vector<std::string>& model_names,
                                       int64_t num_classes, std::string& note) {
  const std::vector<std::string> classes = input.dataset->class_names();
  std::vector<int64_t> map;
  if (!model_names.empty()) {
    for (const auto& c : classes) {
      const auto it = std::find(model_names.begin(), model_names.end(), c);
      if (it == model_names.end()) break;
      map.push_back(int64_t(it - model_names.begin()));
    }
    if (map.size() == classes.size()) return map;
    map.clear();
  }
  if (int64_t(classes.size()) > num_classes)
    throw std::runtime_error(input.origin + ": " + std::to_string(classes.size()) +
                             " class folders, but the model has " + std::to_string(num_classes) +
                             " outputs");
  for (size_t i = 0; i < classes.size(); ++i) map.push_back(int64_t(i));
  note = input.origin + ": class folders matched to the model's outputs in sorted order (" +
         (model_names.empty() ? std::string("the model has no class names")
                              : std::string("the folder names are not the model's class names")) +
         ")";
  return map;
}

}  // namespace adala
