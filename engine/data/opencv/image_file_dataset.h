#pragma once
// Datasets of image files on disk: `image-folder` (one sub-folder per class, ImageNet layout)
// and `image-list` (a folder tree without labels, or a text file of `path` or `path<TAB>label`
// lines). Listing happens once, up front; images are decoded one at a time by get().
#include <memory>
#include <string>
#include <vector>

#include "engine/data/dataset.h"

namespace adala {

class ImageFileDataset : public Dataset {
 public:
  ImageFileDataset(std::string kind, std::string origin, std::vector<std::string> paths,
                   std::vector<int64_t> labels, std::vector<std::string> class_names,
                   int64_t channels, int64_t skipped_files);
  int64_t size() const override { return int64_t(paths_.size()); }
  Sample get(int64_t index) const override;
  std::string item_name(int64_t index) const override { return paths_.at(size_t(index)); }
  int64_t channels() const override { return channels_; }
  std::vector<std::string> class_names() const override { return class_names_; }
  std::string describe() const override;
  const std::vector<std::string>& paths() const { return paths_; }
  const std::vector<int64_t>& labels() const { return labels_; }

 private:
  std::string kind_, origin_;
  std::vector<std::string> paths_;
  std::vector<int64_t> labels_;  // empty: no labels
  std::vector<std::string> class_names_;
  int64_t channels_;
  int64_t skipped_files_;  // hidden files and non-images met while listing
};

// ImageNet layout: root/<class>/**/<image>. Classes are the sorted sub-folder names, or the
// lines of `class_list_file` (in its order) when given. Hidden files and folders and
// non-images are skipped; a class folder without images, a missing root or a root without
// class folders is an error naming it. limit > 0 keeps a class-balanced subset of `limit`
// items: the first files of each class (sorted order) taken round-robin over the classes, so
// every class appears once limit >= the class count; the items stay in class order.
std::unique_ptr<ImageFileDataset> open_image_folder(const std::string& root,
                                                    const std::string& class_list_file,
                                                    int64_t channels, int64_t limit = 0);

// `source` is a folder (every image below it, sorted by path, no labels) or a text file with
// one `path` or `path<TAB>label` per line, in the file's order (relative paths are relative to
// `root` when given, else to the file's folder; blank lines are skipped; labels are integers
// 0..999999 and either every line has one or none does). A malformed line is an error naming
// the file and line.
std::unique_ptr<ImageFileDataset> open_image_list(const std::string& source,
                                                  const std::string& root, int64_t channels,
                                                  int64_t limit = 0);

}  // namespace adala
