#pragma once
// JSON is nlohmann's (ordered_json: keys keep insertion order, so written files read the way
// they were built). On top of it, the one thing the engine needs that nlohmann's own parser
// does not do: refuse duplicate keys (a safetensors header or a config with two "lr" entries is
// ambiguous), with every parse error naming its byte offset.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace adala {

using Json = nlohmann::ordered_json;

// Thrown by parse_json_strict: "JSON parse error at byte N: <what>".
class JsonError : public std::runtime_error {
 public:
  JsonError(std::size_t byte, const std::string& what);
  std::size_t byte() const { return byte_; }

 private:
  std::size_t byte_;
};

// One whole JSON document (nothing but whitespace after it). Refuses duplicate object keys and
// nesting deeper than 256 levels.
Json parse_json_strict(std::string_view text);

// nlohmann's type_name, except "integer" for integral numbers: config errors tell an integer
// field given 1.5 ("got number") from a boolean field given 1 ("got integer").
const char* json_type_name(const Json& value);

}  // namespace adala
