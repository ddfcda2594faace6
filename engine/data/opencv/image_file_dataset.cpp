#include "engine/data/opencv/image_file_dataset.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "engine/data/opencv/image_file.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kMaxLabel = 999999;

bool hidden(const fs::path& relative) {
  for (const auto& part : relative) {
    const std::string s = part.string();
    if (!s.empty() && s[0] == '.' && s != "." && s != "..") return true;
  }
  return false;
}

// Every image file below `dir` (sorted by path); counts what was skipped.
std::vector<std::string> images_below(const fs::path& dir, int64_t& skipped) {
  std::vector<std::string> out;
  for (auto it =
           fs::recursive_directory_iterator(dir, fs::directory_options::follow_directory_symlink);
       it != fs::recursive_directory_iterator(); ++it) {
    // A hidden folder is not entered, so checking each entry's own name suffices.
    if (hidden(it->path().filename())) {
      if (it->is_directory()) it.disable_recursion_pending();
      ++skipped;
      continue;
    }
    if (it->is_directory()) continue;
    if (it->is_regular_file() && is_dataset_image_path(it->path().string()))
      out.push_back(it->path().string());
    else
      ++skipped;
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string strip_cr(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

std::vector<std::string> read_class_list(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot open the class list");
  std::vector<std::string> names;
  std::set<std::string> seen;
  std::string line;
  for (int64_t number = 1; std::getline(in, line); ++number) {
    line = strip_cr(line);
    if (blank(line)) continue;
    if (!seen.insert(line).second)
      throw std::runtime_error(file + ":" + std::to_string(number) + ": class \"" + line +
                               "\" listed twice");
    names.push_back(line);
  }
  if (names.empty()) throw std::runtime_error(file + ": the class list is empty");
  return names;
}

void apply_limit(std::vector<std::string>& paths, std::vector<int64_t>& labels, int64_t limit) {
  if (limit <= 0 || limit >= int64_t(paths.size())) return;
  paths.resize(size_t(limit));
  if (!labels.empty()) labels.resize(size_t(limit));
}

// image-folder: a class-balanced subset. Round r takes the r-th file (in sorted order) of every
// class that has one, class after class, until `limit` files are taken; the kept files stay in
// class order. Deterministic; every class appears once limit >= the number of classes, and
// class sizes differ by at most one unless a class runs out of files.
void apply_class_balanced_limit(std::vector<std::string>& paths, std::vector<int64_t>& labels,
                                int64_t limit) {
  if (limit <= 0 || limit >= int64_t(paths.size())) return;
  std::vector<size_t> first, count;  // each class's run in `paths` (labels are grouped)
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i == 0 || labels[i] != labels[i - 1]) first.push_back(i), count.push_back(0);
    ++count.back();
  }
  std::vector<size_t> take(first.size(), 0);
  for (int64_t taken = 0; taken < limit;)
    for (size_t c = 0; c < first.size() && taken < limit; ++c)
      if (take[c] < count[c]) ++take[c], ++taken;
  std::vector<std::string> kept_paths;
  std::vector<int64_t> kept_labels;
  for (size_t c = 0; c < first.size(); ++c)
    for (size_t k = 0; k < take[c]; ++k) {
      kept_paths.push_back(std::move(paths[first[c] + k]));
      kept_labels.push_back(labels[first[c] + k]);
    }
  paths = std::move(kept_paths);
  labels = std::move(kept_labels);
}

int64_t parse_label(const std::string& text, const std::string& where) {
  if (text.empty() || text.size() > 6 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw std::runtime_error(where + ": label \"" + text + "\" is not an integer in 0.." +
                             std::to_string(kMaxLabel));
  return std::stoll(text);
}

}  // namespace

ImageFileDataset::ImageFileDataset(std::string kind, std::string origin,
                                   std::vector<std::string> paths, std::vector<int64_t> labels,
                                   std::vector<std::string> class_names, int64_t channels,
                                   int64_t skipped_files)
    : kind_(std::move(kind)),
      origin_(std::move(origin)),
      paths_(std::move(paths)),
      labels_(std::move(labels)),
      class_names_(std::move(class_names)),
      channels_(channels),
      skipped_files_(skipped_files) {}

Sample ImageFileDataset::get(int64_t index) const {
  if (index < 0 || index >= size())
    throw std::out_of_range(kind_ + " index " + std::to_string(index) + " outside 0.." +
                            std::to_string(size() - 1));
  Sample s;
  s.image = decode_image_file(paths_[size_t(index)], channels_);
  s.label = labels_.empty() ? -1 : labels_[size_t(index)];
  return s;
}

std::string ImageFileDataset::describe() const {
  std::string text = kind_ + ": " + std::to_string(size()) + " images";
  if (!class_names_.empty()) text += " in " + std::to_string(class_names_.size()) + " classes";
  text += " from " + origin_;
  if (skipped_files_ > 0)
    text += " (" + std::to_string(skipped_files_) + " hidden or non-image entries skipped)";
  return text;
}

std::unique_ptr<ImageFileDataset> open_image_folder(const std::string& root,
                                                    const std::string& class_list_file,
                                                    int64_t channels, int64_t limit) {
  if (!fs::is_directory(root))
    throw std::runtime_error(root + ": image-folder root is not a folder");
  std::vector<std::string> classes;
  if (!class_list_file.empty()) {
    classes = read_class_list(class_list_file);
    for (const auto& name : classes)
      if (!fs::is_directory(fs::path(root) / name))
        throw std::runtime_error(class_list_file + ": class \"" + name + "\" has no folder in " +
                                 root);
  } else {
    for (const auto& entry : fs::directory_iterator(root))
      if (entry.is_directory() && !hidden(entry.path().filename()))
        classes.push_back(entry.path().filename().string());
    std::sort(classes.begin(), classes.end());
    if (classes.empty()) throw std::runtime_error(root + ": no class sub-folders");
  }
  std::vector<std::string> paths;
  std::vector<int64_t> labels;
  int64_t skipped = 0;
  for (size_t c = 0; c < classes.size(); ++c) {
    const fs::path dir = fs::path(root) / classes[c];
    const auto images = images_below(dir, skipped);
    if (images.empty()) throw std::runtime_error(dir.string() + ": class folder has no images");
    paths.insert(paths.end(), images.begin(), images.end());
    labels.insert(labels.end(), images.size(), int64_t(c));
  }
  apply_class_balanced_limit(paths, labels, limit);
  return std::make_unique<ImageFileDataset>("image-folder", root, std::move(paths),
                                            std::move(labels), std::move(classes), channels,
                                            skipped);
}

std::unique_ptr<ImageFileDataset> open_image_list(const std::string& source,
                                                  const std::string& root, int64_t channels,
                                                  int64_t limit) {
  if (fs::is_directory(source)) {
    int64_t skipped = 0;
    auto paths = images_below(source, skipped);
    if (paths.empty()) throw std::runtime_error(source + ": no images in the folder");
    std::vector<int64_t> no_labels;
    apply_limit(paths, no_labels, limit);
    return std::make_unique<ImageFileDataset>("image-list", source, std::move(paths),
                                              std::vector<int64_t>{}, std::vector<std::string>{},
                                              channels, skipped);
  }
  std::ifstream in(source);
  if (!in) throw std::runtime_error(source + ": cannot open the image list");
  const fs::path base = root.empty() ? fs::path(source).parent_path() : fs::path(root);
  std::vector<std::string> paths;
  std::vector<int64_t> labels;
  int labelled = -1;  // unknown until the first line
  std::string line;
  for (int64_t number = 1; std::getline(in, line); ++number) {
    const std::string where = source + ":" + std::to_string(number);
    line = strip_cr(line);
    if (blank(line)) continue;
    const size_t tab = line.find('\t');
    const std::string path = line.substr(0, tab);
    if (tab != std::string::npos && line.find('\t', tab + 1) != std::string::npos)
      throw std::runtime_error(where + ": more than two tab-separated fields");
    if (blank(path)) throw std::runtime_error(where + ": empty path");
    if (!is_dataset_image_path(path))
      throw std::runtime_error(where + ": \"" + path +
                               "\" is not a .jpg/.jpeg/.png/.webp/.bmp file");
    const int has_label = tab != std::string::npos;
    if (labelled >= 0 && has_label != labelled)
      throw std::runtime_error(where + (has_label ? ": a label, but earlier lines have none"
                                                  : ": no label, but earlier lines have one"));
    labelled = has_label;
    if (has_label) labels.push_back(parse_label(line.substr(tab + 1), where));
    const fs::path p(path);
    paths.push_back(p.is_absolute() ? p.string() : (base / p).string());
  }
  if (paths.empty()) throw std::runtime_error(source + ": the image list has no entries");
  std::vector<std::string> class_names;
  if (!labels.empty()) {
    const int64_t classes = *std::max_element(labels.begin(), labels.end()) + 1;
    for (int64_t c = 0; c < classes; ++c) class_names.push_back(std::to_string(c));
  }
  apply_limit(paths, labels, limit);
  return std::make_unique<ImageFileDataset>("image-list", source, std::move(paths),
                                            std::move(labels), std::move(class_names), channels, 0);
}

}  // namespace adala
