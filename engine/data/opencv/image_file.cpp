#include "engine/data/opencv/image_file.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "engine/data/dataset.h"
#include "engine/data/png_chunks.h"

namespace adala {

namespace {

std::vector<uchar> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BadImageError(path, "cannot open the file");
  std::vector<uchar> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw BadImageError(path, "read error");
  return bytes;
}

// libjpeg decodes a truncated JPEG with a warning and grey fill; the missing end-of-image
// marker (FF D9, perhaps followed by padding) tells it apart.
bool jpeg_truncated(const std::vector<uchar>& b) {
  if (b.size() < 2 || b[0] != 0xFF || b[1] != 0xD8) return false;
  const size_t from = b.size() > 1024 ? b.size() - 1024 : 0;
  for (size_t i = b.size() - 1; i > from; --i)
    if (b[i - 1] == 0xFF && b[i] == 0xD9) return false;
  return true;
}

// BGR(A) or grey rows -> (channels, H, W) planes, in plain loops (no ATen kernels, which
// would start intra-op thread teams inside the decode threads).
at::Tensor to_planes(const cv::Mat& m, int64_t channels) {
  at::Tensor out = at::empty({channels, m.rows, m.cols}, at::kByte);
  uint8_t* dst = out.data_ptr<uint8_t>();
  const int64_t plane = int64_t(m.rows) * m.cols, step = m.channels();
  for (int y = 0; y < m.rows; ++y) {
    const uchar* row = m.ptr<uchar>(y);
    for (int x = 0; x < m.cols; ++x) {
      const int64_t at = int64_t(y) * m.cols + x;
      if (channels == 1) {
        dst[at] = row[x * step];
      } else {
        dst[at] = row[x * step + 2];  // OpenCV's BGR to RGB
        dst[plane + at] = row[x * step + 1];
        dst[2 * plane + at] = row[x * step];
      }
    }
  }
  return out;
}

}  // namespace

bool is_dataset_image_path(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name[0] == '.') return false;
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".webp" || ext == ".bmp";
}

at::Tensor decode_image_file(const std::string& path, int64_t channels) {
  if (channels != 1 && channels != 3)
    throw std::invalid_argument(path + ": channels must be 1 or 3, got " +
                                std::to_string(channels));
  const std::vector<uchar> bytes = without_png_colour_profile(read_bytes(path));
  if (bytes.empty()) throw BadImageError(path, "empty file");
  if (jpeg_truncated(bytes)) throw BadImageError(path, "truncated JPEG (no end-of-image marker)");
  cv::Mat m;
  try {
    m = cv::imdecode(bytes, channels == 3 ? cv::IMREAD_COLOR : cv::IMREAD_GRAYSCALE);
  } catch (const cv::Exception& e) {
    throw BadImageError(path, std::string("cannot decode: ") + e.what());
  }
  if (m.empty()) throw BadImageError(path, "cannot decode (corrupt or not an image)");
  if (m.rows == 0 || m.cols == 0) throw BadImageError(path, "zero-sized image");
  if (m.depth() != CV_8U) throw BadImageError(path, "not an 8-bit image");
  return to_planes(m, channels);
}

}  // namespace adala
