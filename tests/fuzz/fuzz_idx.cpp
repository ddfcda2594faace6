// libFuzzer target: idx image and label files (Fashion-MNIST). The input is parsed both ways;
// an accepted file's pixels and labels lie inside the input.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "engine/data/idx_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  try {
    const adala::IdxImages images = adala::parse_idx_images(bytes, "fuzz-images");
    const uint64_t n = uint64_t(images.count) * uint64_t(images.rows) * uint64_t(images.cols);
    if (images.pixels + n > bytes.data() + bytes.size()) __builtin_trap();
    volatile uint8_t sink = images.pixels[n - 1];
    (void)sink;
  } catch (const std::runtime_error&) {
  }
  try {
    const adala::IdxLabels labels = adala::parse_idx_labels(bytes, "fuzz-labels", 9);
    if (labels.labels + labels.count > bytes.data() + bytes.size()) __builtin_trap();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
