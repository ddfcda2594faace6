#include "engine/data/opencv/fashion_mnist_export.h"

#include <filesystem>
#include <sstream>

#include <opencv2/imgcodecs.hpp>

#include "engine/core/text_file.h"
#include "engine/data/fashion_mnist.h"

namespace adala {

namespace fs = std::filesystem;

std::string fashion_mnist_folder_name(int64_t label) {
  std::string name = std::to_string(label) + "_" + fashion_mnist_class_name(label);
  for (char& c : name)
    if (c == '/' || c == ' ') c = '_';
  return name;
}

FashionMnistExport export_fashion_mnist_png(const std::string& idx_root, const std::string& split,
                                            const std::string& out, int64_t limit) {
  const FashionMnistSplit s = read_fashion_mnist_split(idx_root, split, limit);
  for (int64_t label = 0; label < 10; ++label)
    fs::create_directories(fs::path(out) / split / fashion_mnist_folder_name(label));
  std::ostringstream list;
  for (int64_t i = 0; i < s.count; ++i) {
    const std::string rel =
        split + "/" + fashion_mnist_folder_name(s.label(i)) + "/" + std::to_string(i) + ".png";
    const std::string path = (fs::path(out) / rel).string();
    const cv::Mat image(int(s.rows), int(s.cols), CV_8UC1, const_cast<uint8_t*>(s.pixels(i)));
    bool ok = false;
    try {
      ok = cv::imwrite(path, image);
    } catch (const cv::Exception& e) {
      throw std::runtime_error("cannot write " + path + ": " + e.what());
    }
    if (!ok) throw std::runtime_error("cannot write " + path);
    list << rel << '\t' << s.label(i) << '\n';
  }
  FashionMnistExport result;
  result.images = s.count;
  result.list_path = (fs::path(out) / (split + ".tsv")).string();
  write_text(result.list_path, list.str());
  return result;
}

}  // namespace adala
