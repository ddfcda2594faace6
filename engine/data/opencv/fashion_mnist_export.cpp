#include "engine/data/opencv/fashion_mnist_export.h"

#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/text_file.h"
#include "engine/data/fashion_mnist.h"

namespace adala {

namespace fs = std::filesystem;

std::string fashion_mnist_folder_name(int64_t label) {
  std::string name = std::to_string(label) + "_" + fashion_mnist_class_name(label);
  for (char& c : name)
    if (c == '/' || c == ' ') c = '_';
  return name;
}

namespace {

// The pixels of one image as the file should hold them.
cv::Mat encoded_pixels(const cv::Mat& grey, const ImageExportFormat& format) {
  cv::Mat image = grey;
  if (format.size > 0 && format.size != grey.rows)
    cv::resize(grey, image, cv::Size(int(format.size), int(format.size)), 0, 0, cv::INTER_LINEAR);
  if (format.extension == "jpg") {
    cv::Mat colour;
    cv::cvtColor(image, colour, cv::COLOR_GRAY2BGR);
    return colour;
  }
  return image;
}

}  // namespace

FashionMnistExport export_fashion_mnist(const std::string& idx_root, const std::string& split,
                                        const std::string& out, int64_t limit,
                                        const ImageExportFormat& format) {
  if (format.extension != "png" && format.extension != "jpg")
    throw std::invalid_argument("image format \"" + format.extension + "\": png or jpg");
  if (format.size < 0 || format.size > 4096)
    throw std::invalid_argument("image size " + std::to_string(format.size) + ": 0..4096");
  if (format.quality < 1 || format.quality > 100)
    throw std::invalid_argument("JPEG quality " + std::to_string(format.quality) + ": 1..100");
  const std::vector<int> params = format.extension == "jpg"
                                      ? std::vector<int>{cv::IMWRITE_JPEG_QUALITY, format.quality}
                                      : std::vector<int>{};
  const FashionMnistSplit s = read_fashion_mnist_split(idx_root, split, limit);
  for (int64_t label = 0; label < 10; ++label)
    fs::create_directories(fs::path(out) / split / fashion_mnist_folder_name(label));
  std::ostringstream list;
  for (int64_t i = 0; i < s.count; ++i) {
    const std::string rel = split + "/" + fashion_mnist_folder_name(s.label(i)) + "/" +
                            std::to_string(i) + "." + format.extension;
    const std::string path = (fs::path(out) / rel).string();
    const cv::Mat image(int(s.rows), int(s.cols), CV_8UC1, const_cast<uint8_t*>(s.pixels(i)));
    bool ok = false;
    try {
      ok = cv::imwrite(path, encoded_pixels(image, format), params);
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
