#pragma once
// Fashion-MNIST written out as image files, for checking the image datasets against the idx
// reader: out/<split>/<label>_<class>/<index>.png (28x28 grey) and out/<split>.tsv with one
// `path<TAB>label` line per image in idx order (paths relative to `out`).
#include <cstdint>
#include <string>

namespace adala {

struct FashionMnistExport {
  int64_t images = 0;
  std::string list_path;
};

FashionMnistExport export_fashion_mnist_png(const std::string& idx_root, const std::string& split,
                                            const std::string& out, int64_t limit = 0);

// The class folder name of a label: "0_T-shirt_top" etc. (no '/' or spaces).
std::string fashion_mnist_folder_name(int64_t label);

}  // namespace adala
