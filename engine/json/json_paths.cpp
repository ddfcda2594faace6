#include "engine/json/json_paths.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace adala {
namespace {

std::string number_g12(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.12g", v);
  return buffer;
}

// A scalar as a compact JSON document writes it (numbers shortest, as Qt's QJsonDocument).
std::string compact_scalar(const Json& v) {
  if (v.is_number_float()) {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, v.get<double>()).ptr;
    return std::string(buffer, end);
  }
  return v.dump();
}

void flatten_into(const Json& value, const std::string& prefix,
                  std::map<std::string, std::string>& out) {
  if (value.is_object()) {
    if (value.empty() && !prefix.empty()) out.emplace(prefix, "{}");
    for (auto it = value.begin(); it != value.end(); ++it)
      flatten_into(it.value(), prefix.empty() ? it.key() : prefix + '.' + it.key(), out);
  } else if (value.is_array()) {
    bool scalars = true;
    for (const auto& v : value) scalars = scalars && !v.is_object() && !v.is_array();
    if (scalars) {
      std::string line = "[";
      for (size_t i = 0; i < value.size(); ++i) line += (i ? "," : "") + compact_scalar(value[i]);
      out[prefix] = line + "]";
    } else {
      for (size_t i = 0; i < value.size(); ++i)
        flatten_into(value[i], prefix + '[' + std::to_string(i) + ']', out);
    }
  } else if (value.is_string()) {
    out[prefix] = value.get<std::string>();
  } else if (value.is_boolean()) {
    out[prefix] = value.get<bool>() ? "true" : "false";
  } else if (value.is_number()) {
    out[prefix] = number_g12(value.get<double>());
  } else if (value.is_null()) {
    out[prefix] = "null";
  }
}

}  // namespace

std::map<std::string, std::string> flatten_json_paths(const Json& document,
                                                      const std::string& prefix) {
  std::map<std::string, std::string> out;
  flatten_into(document, prefix, out);
  return out;
}

}  // namespace adala
