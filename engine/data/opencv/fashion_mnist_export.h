#pragma once
// Fashion-MNIST written out as image files, for checking the image datasets against the idx
// reader and for benchmarks on real files: out/<split>/<label>_<class>/<index>.<ext> and
// out/<split>.tsv with one `path<TAB>label` line per image in idx order (paths relative to
// `out`).
#include <cstdint>
#include <string>

namespace adala {

struct FashionMnistExport {
  int64_t images = 0;
  std::string list_path;
};

struct ImageExportFormat {
  // "png": the 28x28 grey pixels as they are (lossless; the equivalence check's files).
  // "jpg": 3-channel JPEG (colour files, decoded as a photo would be), `quality` 1..100.
  std::string extension = "png";
  // The side of the written images: 0 keeps 28; larger sides are upscaled bilinearly.
  int64_t size = 0;
  int quality = 90;
};

FashionMnistExport export_fashion_mnist(const std::string& idx_root, const std::string& split,
                                        const std::string& out, int64_t limit = 0,
                                        const ImageExportFormat& format = {});

// The class folder name of a label: "0_T-shirt_top" etc. (no '/' or spaces).
std::string fashion_mnist_folder_name(int64_t label);

}  // namespace adala
