// libFuzzer target: a safetensors file's header. The first 8 bytes of the input give the size
// of the data section the header is checked against; the rest is the JSON header. Accepted
// headers must describe tensors that fit the data section without overlapping.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "engine/io/safetensors_header.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 8) return 0;
  uint64_t data_size = 0;
  std::memcpy(&data_size, data, 8);
  data_size %= uint64_t(1) << 40;
  const std::string_view json(reinterpret_cast<const char*>(data + 8), size - 8);
  try {
    const adala::SafetensorsHeader header =
        adala::parse_safetensors_header(json, data_size, "fuzz.safetensors");
    for (const auto& t : header.tensors) {
      if (t.end > data_size || t.begin > t.end) __builtin_trap();
      const auto bytes = static_cast<uint64_t>(t.numel()) * adala::safetensors_itemsize(t.dtype);
      if (bytes != t.nbytes()) __builtin_trap();
    }
  } catch (const adala::SafetensorsError&) {
  }
  return 0;
}
