#pragma once
// The safetensors header (see safetensors.h for the layout): its JSON parsed and validated
// into tensor entries, without LibTorch, so that the parser can be fuzzed on its own.
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace adala {

class SafetensorsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Far more tensors than any vision model has (a ViT-g has about 600): a header listing more
// is refused, which bounds the work a header can ask for.
constexpr std::size_t kMaxSafetensorsTensors = 100'000;

struct TensorInfo {
  std::string name;
  std::string dtype;  // safetensors name: "F32", "F16", "BF16", ...
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  // relative to the data section, end exclusive

  uint64_t nbytes() const { return end - begin; }
  // Throws SafetensorsError naming the tensor when the count does not fit in int64 (a parsed
  // header never holds such a shape).
  int64_t numel() const;
};

struct SafetensorsHeader {
  std::vector<TensorInfo> tensors;  // in header order
  std::map<std::string, std::string> metadata;
};

// Bytes per element of a safetensors dtype name; 0 when the name is unknown. Known:
// F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL U64 U32 U16 F8_E4M3 F8_E5M2.
size_t safetensors_itemsize(const std::string& dtype);

// Parses the JSON header and validates every entry against a data section of data_size bytes
// (dtype known, shape and offsets agree, in range, no overlaps, at most
// kMaxSafetensorsTensors). Throws SafetensorsError "<path>: <what is wrong>".
SafetensorsHeader parse_safetensors_header(std::string_view json, uint64_t data_size,
                                           const std::string& path);

}  // namespace adala
