#include "engine/io/safetensors_header.h"

#include <algorithm>
#include <utility>

#include "engine/json/json.h"

namespace adala {

namespace {

const std::pair<const char*, size_t> kItemsizes[] = {
    {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2},    {"I64", 8},
    {"I32", 4}, {"I16", 2}, {"I8", 1},  {"U8", 1},      {"BOOL", 1},
    {"U64", 8}, {"U32", 4}, {"U16", 2}, {"F8_E4M3", 1}, {"F8_E5M2", 1},
};

// The product of the dimensions as int64, or false when it (or, for a shape with a zero
// dimension, the product of the other dimensions) does not fit: such a shape is refused even
// when it holds no elements, so every accepted shape has a numel() that LibTorch can count.
bool checked_numel(const std::vector<int64_t>& shape, int64_t& numel) {
  int64_t nonzero = 1;
  bool has_zero = false;
  for (auto d : shape) {
    if (d < 0) return false;
    if (d == 0)
      has_zero = true;
    else if (__builtin_mul_overflow(nonzero, d, &nonzero))
      return false;
  }
  numel = has_zero ? 0 : nonzero;
  return true;
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string offsets_string(const TensorInfo& t) {
  return "[" + std::to_string(t.begin) + ", " + std::to_string(t.end) + "]";
}

class HeaderParser {
 public:
  HeaderParser(uint64_t data_size, const std::string& path) : data_size(data_size), path_(path) {}

  uint64_t as_offset(const Json& v, const std::string& name, const char* what) const {
    if (!v.is_number_integer() || v.get<int64_t>() < 0)
      fail("tensor \"" + name + "\": " + what + " must be a non-negative integer, got " + v.dump());
    return static_cast<uint64_t>(v.get<int64_t>());
  }

  SafetensorsHeader parse(std::string_view text) const {
    SafetensorsHeader out;
    auto& tensors = out.tensors;
    auto& metadata = out.metadata;
    Json header;
    try {
      header = parse_json_strict(text);
    } catch (const JsonError& e) {
      fail(std::string("malformed JSON header: ") + e.what());
    }
    if (!header.is_object())
      fail(std::string("malformed header: expected a JSON object, got ") + json_type_name(header));
    const size_t listed = header.size() - (header.contains("__metadata__") ? 1 : 0);
    if (listed > kMaxSafetensorsTensors)
      fail("the header lists " + std::to_string(listed) + " tensors; at most " +
           std::to_string(kMaxSafetensorsTensors) + " are accepted");
    tensors.reserve(header.size());

    for (const auto& [name, entry] : header.items()) {
      if (name == "__metadata__") {
        if (!entry.is_object())
          fail(std::string("\"__metadata__\" must be an object of strings, got ") +
               json_type_name(entry));
        for (const auto& [key, value] : entry.items()) {
          if (!value.is_string())
            fail("\"__metadata__\" entry \"" + key + "\" must be a string, got " +
                 json_type_name(value));
          metadata[key] = value.get<std::string>();
        }
        continue;
      }
      const std::string where = "tensor \"" + name + "\": ";
      if (!entry.is_object()) fail(where + "entry must be an object, got " + json_type_name(entry));
      const auto dtype = entry.find("dtype");
      const auto shape = entry.find("shape");
      const auto offsets = entry.find("data_offsets");
      if (dtype == entry.end()) fail(where + "missing \"dtype\"");
      if (shape == entry.end()) fail(where + "missing \"shape\"");
      if (offsets == entry.end()) fail(where + "missing \"data_offsets\"");
      if (!dtype->is_string()) fail(where + "\"dtype\" must be a string, got " + dtype->dump());
      TensorInfo info;
      info.name = name;
      info.dtype = dtype->get<std::string>();
      const size_t itemsize = safetensors_itemsize(info.dtype);
      if (itemsize == 0) fail(where + "unknown dtype \"" + info.dtype + "\"");
      if (!shape->is_array()) fail(where + "\"shape\" must be an array, got " + shape->dump());
      for (const auto& d : *shape) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0)
          fail(where + "shape entries must be non-negative integers, got " + shape->dump());
        info.shape.push_back(d.get<int64_t>());
      }
      int64_t signed_numel = 0;
      if (!checked_numel(info.shape, signed_numel))
        fail(where + "shape " + shape->dump() + " overflows a 64-bit element count");
      const auto numel = static_cast<uint64_t>(signed_numel);
      if (!offsets->is_array() || offsets->size() != 2)
        fail(where + "\"data_offsets\" must be [begin, end], got " + offsets->dump());
      info.begin = as_offset((*offsets)[0], name, "data_offsets begin");
      info.end = as_offset((*offsets)[1], name, "data_offsets end");
      if (info.end < info.begin)
        fail(where + "data_offsets " + offsets_string(info) + " end before begin");
      uint64_t expected = 0;
      if (__builtin_mul_overflow(numel, static_cast<uint64_t>(itemsize), &expected))
        fail(where + "shape " + shape->dump() + " overflows");
      if (expected != info.nbytes())
        fail(where + "shape " + shape_string(info.shape) + " of " + info.dtype + " needs " +
             std::to_string(expected) + " bytes but data_offsets " + offsets_string(info) +
             " span " + std::to_string(info.nbytes()) + " (shape/size mismatch)");
      if (info.end > data_size)
        fail(where + "data_offsets " + offsets_string(info) +
             " out of range of the data section (" + std::to_string(data_size) + " bytes)");
      tensors.push_back(std::move(info));
    }

    // Overlaps: sort by begin; empty tensors occupy no bytes and cannot overlap.
    std::vector<const TensorInfo*> by_offset;
    for (const auto& t : tensors)
      if (t.nbytes() > 0) by_offset.push_back(&t);
    std::sort(by_offset.begin(), by_offset.end(), [](const TensorInfo* a, const TensorInfo* b) {
      return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    for (size_t i = 1; i < by_offset.size(); ++i) {
      const auto* prev = by_offset[i - 1];
      const auto* cur = by_offset[i];
      if (cur->begin < prev->end)
        fail("tensors \"" + prev->name + "\" " + offsets_string(*prev) + " and \"" + cur->name +
             "\" " + offsets_string(*cur) + " have overlapping data_offsets");
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw SafetensorsError(path_ + ": " + what);
  }

  const uint64_t data_size;
  const std::string& path_;
};

}  // namespace

int64_t TensorInfo::numel() const {
  int64_t n = 0;
  if (!checked_numel(shape, n))
    throw SafetensorsError("tensor \"" + name + "\": shape " + shape_string(shape) +
                           " has more elements than a 64-bit count holds");
  return n;
}

size_t safetensors_itemsize(const std::string& dtype) {
  for (const auto& [name, size] : kItemsizes)
    if (dtype == name) return size;
  return 0;
}

SafetensorsHeader parse_safetensors_header(std::string_view json, uint64_t data_size,
                                           const std::string& path) {
  return HeaderParser(data_size, path).parse(json);
}

}  // namespace adala
