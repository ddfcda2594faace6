// libFuzzer target: the strict JSON parser (duplicate keys, depth, UTF-8) never crashes and
// either returns a document or throws JsonError; what it returns dumps and parses back equal.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/json/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  adala::Json doc;
  try {
    doc = adala::parse_json_strict(text);
  } catch (const adala::JsonError&) {
    return 0;
  }
  const std::string dumped = doc.dump();
  if (adala::parse_json_strict(dumped) != doc) __builtin_trap();
  return 0;
}
