#pragma once
// The images the attention inspector picks by index, from whatever the user points at:
//   ""                     Fashion-MNIST's test split (the embedded default's evaluation data)
//   a run's config.json    that run's evaluation data (data.eval), as the run read it
//   a folder               class folders (ImageNet layout) or, without sub-folders, every image
//                          below it (image-folder / image-list)
//   any other file         an image list: `path` or `path<TAB>label` lines
// Opening lists files only; get(i) decodes one image.
#include <cstdint>
#include <memory>
#include <string>

#include "engine/data/dataset.h"

namespace adala {

// Throws std::runtime_error naming what was given (no such file, a config without usable
// evaluation data, an empty folder, a malformed list line).
std::shared_ptr<const Dataset> open_inspection_dataset(const std::string& where, int64_t channels);

// "17.png (3_Dress)": the item's file name and, where the source has labels, its class.
std::string describe_inspection_item(const Dataset& dataset, int64_t index, int64_t label);

}  // namespace adala
