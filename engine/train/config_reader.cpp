#include "engine/train/config_reader.h"

#include <cmath>
#include <sstream>

namespace adala {

namespace {
const Json& empty_object() {
  static const Json empty = Json::object();
  return empty;
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
                      std::string("expected an object, got ") + object_.type_name());
}

const Json* ConfigReader::take(const std::string& key) {
  known_.insert(key);
  return object_.find(key);
}

double ConfigReader::number(const std::string& key, double fallback, double min, double max,
                            bool min_exclusive) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_number()) throw ConfigError(field(key), std::string("expected a number, got ") + v->type_name());
  const double x = v->as_double();
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
  if (!v->is_integer()) throw ConfigError(field(key), std::string("expected an integer, got ") + v->type_name());
  const int64_t x = v->as_int();
  if (x < min || x > max)
    throw ConfigError(field(key), "out of range: " + std::to_string(x) + " (allowed " +
                                      std::to_string(min) + ".." + std::to_string(max) + ")");
  return x;
}

std::string ConfigReader::string(const std::string& key, const std::string& fallback,
                                 const std::vector<std::string>& allowed) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_string()) throw ConfigError(field(key), std::string("expected a string, got ") + v->type_name());
  const std::string& s = v->as_string();
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
  if (!v->is_bool()) throw ConfigError(field(key), std::string("expected true or false, got ") + v->type_name());
  return v->as_bool();
}

std::vector<int64_t> ConfigReader::integers(const std::string& key, const std::vector<int64_t>& fallback,
                                            int64_t min, int64_t max, size_t min_count) {
  const Json* v = take(key);
  if (!v) return fallback;
  if (!v->is_array()) throw ConfigError(field(key), std::string("expected an array of integers, got ") + v->type_name());
  std::vector<int64_t> out;
  for (size_t i = 0; i < v->as_array().size(); ++i) {
    const Json& e = v->as_array()[i];
    const std::string where = field(key) + "[" + std::to_string(i) + "]";
    if (!e.is_integer()) throw ConfigError(where, std::string("expected an integer, got ") + e.type_name());
    if (e.as_int() < min || e.as_int() > max)
      throw ConfigError(where, "out of range: " + std::to_string(e.as_int()) + " (allowed " +
                                   std::to_string(min) + ".." + std::to_string(max) + ")");
    out.push_back(e.as_int());
  }
  if (out.size() < min_count)
    throw ConfigError(field(key), "needs at least " + std::to_string(min_count) + " entries");
  return out;
}

ConfigReader ConfigReader::child(const std::string& key) {
  const Json* v = take(key);
  return ConfigReader(v ? *v : empty_object(), field(key));
}

void ConfigReader::finish() const {
  for (const auto& kv : object_.as_object()) {
    if (known_.count(kv.first)) continue;
    std::string list;
    for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
    throw ConfigError(field(kv.first), "unknown key (known keys here: " + list + ")");
  }
}

}  // namespace adala
