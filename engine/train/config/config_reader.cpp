#include "engine/train/config/config_reader.h"

#include <cmath>
#include <cstdint>
#include <sstream>

namespace adala {

namespace {
const Json& empty_object() {
  static const Json empty = Json::object();
  return empty;
}

// nlohmann keeps integers above INT64_MAX as unsigned: they are out of range, not negative.
int64_t integer_in_range(const Json& v, const std::string& where, int64_t min, int64_t max) {
  if (!v.is_number_integer())
    throw ConfigError(where, std::string("expected an integer, got ") + json_type_name(v));
  const bool huge = v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX);
  const int64_t x = huge ? INT64_MAX : v.get<int64_t>();
  if (huge || x < min || x > max)
    throw ConfigError(where, "out of range: " + v.dump() + " (allowed " + std::to_string(min) +
                                 ".." + std::to_string(max) + ")");
  return x;
}

std::string format_number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
}  // namespace

ConfigReader::ConfigReader(const Json& object, std::string path)
    : object_(object.is_null() ? empty_object() : object), path_(std::move(path)) {
  if (!object_.is_object())
    throw ConfigError(path_.empty() ? "config" : path_,
                      std::string("expected an object, got ") + json_type_name(object_));
}

const Json* ConfigReader::take(const std::string& key) {
  known_.insert(key);
  const auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

double ConfigReader::number(const std::string& key, double fallback, double min, double max,
                            bool min_exclusive) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_number())
    throw ConfigError(field(key), std::string("expected a number, got ") + json_type_name(*v));
  const double x = v->get<double>();
  const bool low = min_exclusive ? !(x > min) : x < min;
  if (low || x > max || !std::isfinite(x))
    throw ConfigError(field(key), "out of range: " + format_number(x) + " (allowed " +
                                      (min_exclusive ? "> " : ">= ") + format_number(min) +
                                      " and <= " + format_number(max) + ")");
  return x;
}

int64_t ConfigReader::integer(const std::string& key, int64_t fallback, int64_t min, int64_t max) {
  const Json* v = take(key);
  if (!v) return fallback;
  return integer_in_range(*v, field(key), min, max);
}

std::string ConfigReader::string(const std::string& key, const std::string& fallback,
                                 const std::vector<std::string>& allowed) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_string())
    throw ConfigError(field(key), std::string("expected a string, got ") + json_type_name(*v));
  const auto& s = v->get_ref<const std::string&>();
  if (!allowed.empty()) {
    bool ok = false;
    std::string list;
    for (const auto& a : allowed) {
      ok = ok || a == s;
      list += (list.empty() ? "" : ", ") + a;
    }
    if (!ok) throw ConfigError(field(key), "unknown value \"" + s + "\" (allowed: " + list + ")");
  }
  return s;
}

bool ConfigReader::boolean(const std::string& key, bool fallback) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_boolean())
    throw ConfigError(field(key), std::string("expected true or false, got ") + json_type_name(*v));
  return v->get<bool>();
}

std::vector<int64_t> ConfigReader::integers(const std::string& key,
                                            const std::vector<int64_t>& fallback, int64_t min,
                                            int64_t max, size_t min_count) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_array())
    throw ConfigError(field(key),
                      std::string("expected an array of integers, got ") + json_type_name(*v));
  std::vector<int64_t> out;
  for (size_t i = 0; i < v->size(); ++i) {
    const Json& e = (*v)[i];
    out.push_back(integer_in_range(e, field(key) + "[" + std::to_string(i) + "]", min, max));
  }
  if (out.size() < min_count)
    throw ConfigError(field(key), "needs at least " + std::to_string(min_count) + " entries");
  return out;
}

std::vector<double> ConfigReader::numbers(const std::string& key,
                                          const std::vector<double>& fallback, double min,
                                          double max, size_t min_count, size_t max_count) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_array())
    throw ConfigError(field(key),
                      std::string("expected an array of numbers, got ") + json_type_name(*v));
  if (v->size() < min_count || v->size() > max_count)
    throw ConfigError(field(key),
                      "needs " + std::to_string(min_count) +
                          (min_count == max_count ? "" : ".." + std::to_string(max_count)) +
                          " entries, got " + std::to_string(v->size()));
  std::vector<double> out;
  for (size_t i = 0; i < v->size(); ++i) {
    const Json& e = (*v)[i];
    const std::string where = field(key) + "[" + std::to_string(i) + "]";
    if (!e.is_number())
      throw ConfigError(where, std::string("expected a number, got ") + json_type_name(e));
    const double x = e.get<double>();
    if (!std::isfinite(x) || x < min || x > max)
      throw ConfigError(where, "out of range: " + format_number(x) + " (allowed " +
                                   format_number(min) + ".." + format_number(max) + ")");
    out.push_back(x);
  }
  return out;
}

std::vector<std::string> ConfigReader::strings(const std::string& key,
                                               const std::vector<std::string>& fallback) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_array())
    throw ConfigError(field(key),
                      std::string("expected an array of strings, got ") + json_type_name(*v));
  std::vector<std::string> out;
  for (size_t i = 0; i < v->size(); ++i) {
    const Json& e = (*v)[i];
    const std::string where = field(key) + "[" + std::to_string(i) + "]";
    if (!e.is_string())
      throw ConfigError(where, std::string("expected a string, got ") + json_type_name(e));
    if (e.get_ref<const std::string&>().empty()) throw ConfigError(where, "must not be empty");
    out.push_back(e.get<std::string>());
  }
  return out;
}

ConfigReader ConfigReader::child(const std::string& key) {
  const Json* v = take(key);
  return ConfigReader(v ? *v : empty_object(), field(key));
}

void ConfigReader::finish() const {
  for (const auto& kv : object_.items()) {
    if (known_.count(kv.key())) continue;
    std::string list;
    for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
    throw ConfigError(field(kv.key()), "unknown key (known keys here: " + list + ")");
  }
}

std::vector<int64_t> read_distinct_blocks(ConfigReader& r, const std::string& key,
                                          const std::vector<int64_t>& fallback, int64_t max_block) {
  auto blocks = r.integers(key, fallback, 1, max_block, 1);
  for (size_t i = 1; i < blocks.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (blocks[i] == blocks[j])
        throw ConfigError(r.field(key), "block " + std::to_string(blocks[i]) + " is listed twice");
  return blocks;
}

}  // namespace adala
