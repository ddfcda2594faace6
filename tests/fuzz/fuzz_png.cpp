// libFuzzer target: the PNG readers of ADE20K-layout folders (label maps and RGB images,
// through OpenCV), the ADE20K label mapping, and the chunk walk that drops colour profiles
// (whose result must be the input less one whole chunk, or the input). The input is written to a
// file, as the readers take paths; every input either reads or throws a std::exception.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "engine/data/opencv/ade20k_folder.h"
#include "engine/data/opencv/png_io.h"
#include "engine/data/png_chunks.h"

namespace {

const std::string& input_path() {
  static const std::string path = "/tmp/adala-fuzz-png-" + std::to_string(::getpid()) + ".png";
  return path;
}

}  // namespace

// OpenCV's decoders log every malformed file; a declared size above 4096 x 4096 is refused
// before it is allocated.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("OPENCV_LOG_LEVEL", "SILENT", 1);
  setenv("OPENCV_IO_MAX_IMAGE_PIXELS", "16777216", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1 << 20)) return 0;
  const std::vector<uint8_t> bytes(data, data + size);
  const std::vector<uint8_t> stripped = adala::without_png_colour_profile(bytes);
  if (stripped.size() > size) std::abort();
  if (stripped.size() < size) {
    // One chunk left out: a common prefix and suffix cover everything that is left.
    size_t prefix = 0;
    while (prefix < stripped.size() && stripped[prefix] == bytes[prefix]) ++prefix;
    const size_t removed = size - stripped.size();
    if (removed < 12) std::abort();
    for (size_t i = prefix; i < stripped.size(); ++i)
      if (stripped[i] != bytes[i + removed]) std::abort();
  }
  FILE* f = std::fopen(input_path().c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    const at::Tensor labels = adala::read_label_png(input_path());
    adala::Ade20kOptions options;
    adala::map_ade20k_labels(labels, options, 0);
  } catch (const std::exception&) {
  }
  try {
    adala::read_rgb_image(input_path());
  } catch (const std::exception&) {
  }
  return 0;
}
