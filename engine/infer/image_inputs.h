#pragma once
// The images a user names on the command line: image files, folders of images, and folders of
// class sub-folders (ImageNet layout, whose labels allow a top-1).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/data/opencv/image_file_dataset.h"

namespace adala {

struct ImageInput {
  std::string origin;  // the argument (consecutive image files: the first one, "+ N more")
  std::shared_ptr<const ImageFileDataset> dataset;
  bool class_folders = false;  // labels are the sorted class sub-folders
};

// One input per folder, one per run of consecutive image files, in argument order. A folder
// with (non-hidden) sub-folders is read as class folders; one without, as every image below it.
// Throws std::runtime_error naming the argument: no such file or folder, not an image file, no
// images in a folder, an empty class folder. No image is decoded here.
std::vector<ImageInput> open_image_inputs(const std::vector<std::string>& args, int64_t channels);

// Class names from a file, one per line (blank lines skipped). Throws std::runtime_error
// naming the file (missing, empty, a name twice).
std::vector<std::string> read_class_names(const std::string& file);

// For each class of a labelled input, the model output it is: by name when every class is one
// of `model_names`, else by position (then `note` says so). Throws std::runtime_error naming
// the input when it has more classes than the model has outputs.
std::vector<int64_t> map_input_classes(const ImageInput& input,
                                       const std::vector<std::string>& model_names,
                                       int64_t num_classes, std::string& note);

}  // namespace adala
