#pragma once
// safetensors: the weight format that never runs code on load.
//
//   bytes 0..7      N, little-endian u64: the header length
//   bytes 8..8+N    UTF-8 JSON (may be space padded):
//                   {"__metadata__": {"k": "v", ...},
//                    "name": {"dtype": "F32", "shape": [a, b], "data_offsets": [begin, end]}, ...}
//   bytes 8+N..     the data section; offsets are relative to its first byte, end exclusive,
//                   tensors little-endian row-major.
//
// The reader validates the whole header before any tensor is touched; every problem is a
// SafetensorsError whose message starts with the file name and says what is wrong.
#include <ATen/ATen.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/io/safetensors_header.h"

namespace adala {

// Mmap maps the file once and copies each tensor out of the mapping; Stream reads each
// tensor with its own seek + read (for file systems where mmap is slow or unavailable).
enum class ReadMode { Mmap, Stream };

// Throws SafetensorsError for a dtype that cannot become an at::Tensor.
at::ScalarType safetensors_scalar_type(const std::string& dtype);
// Throws SafetensorsError for a scalar type the format cannot hold (complex, quantised...).
std::string safetensors_dtype_name(at::ScalarType type);

class SafetensorsReader {
 public:
  // Opens and validates the file (header only; no tensor data is read).
  explicit SafetensorsReader(const std::string& path, ReadMode mode = ReadMode::Mmap);
  ~SafetensorsReader();
  SafetensorsReader(SafetensorsReader&&) noexcept;
  SafetensorsReader& operator=(SafetensorsReader&&) noexcept;
  SafetensorsReader(const SafetensorsReader&) = delete;
  SafetensorsReader& operator=(const SafetensorsReader&) = delete;

  const std::string& path() const;
  ReadMode mode() const;
  uint64_t file_size() const;
  uint64_t header_size() const;  // N, the JSON part (padding included)

  // In header order.
  const std::vector<TensorInfo>& tensors() const;
  const std::map<std::string, std::string>& metadata() const;
  bool contains(const std::string& name) const;
  // Throws SafetensorsError naming the tensor when there is none by that name.
  const TensorInfo& info(const std::string& name) const;

  // An owning CPU tensor (a copy, independent of the file), native byte order, contiguous.
  at::Tensor load(const std::string& name) const;
  std::map<std::string, at::Tensor> load_all() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Writes tensors (any device / layout; stored contiguous, in name order) and optional string
// metadata. The header is padded with spaces so the data section starts 8-byte aligned. The
// file is written next to `path` under a temporary name and renamed over it, so readers never
// see a half-written file. Throws SafetensorsError (duplicate or empty name, unsupported dtype,
// I/O failure).
void write_safetensors(const std::string& path,
                       const std::vector<std::pair<std::string, at::Tensor>>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace adala
