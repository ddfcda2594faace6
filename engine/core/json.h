#pragma once
// A small JSON value with a strict parser and a writer. The engine uses it for safetensors
// headers and experiment configs; keeping it in-tree keeps engine/core "LibTorch + std only".
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace adala {

class JsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Json {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };
  using Array = std::vector<Json>;
  // Keys keep insertion order so written files read the way they were built.
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : type_(Type::Bool), bool_(b) {}
  Json(int v) : type_(Type::Number), number_(v), is_integer_(true), integer_(v) {}
  Json(int64_t v)
      : type_(Type::Number), number_(static_cast<double>(v)), is_integer_(true), integer_(v) {}
  Json(uint64_t v) : Json(static_cast<int64_t>(v)) {}
  Json(double v) : type_(Type::Number), number_(v) {}
  Json(const char* s) : type_(Type::String), string_(s) {}
  Json(std::string s) : type_(Type::String), string_(std::move(s)) {}
  Json(Array a) : type_(Type::Array), array_(std::move(a)) {}
  Json(Object o) : type_(Type::Object), object_(std::move(o)) {}

  static Json object() { return Json(Object{}); }
  static Json array() { return Json(Array{}); }

  // Parses a whole document; errors carry the byte offset and what was expected.
  static Json parse(std::string_view text);
  std::string dump(int indent = -1) const;

  Type type() const { return type_; }
  const char* type_name() const;
  bool is_null() const { return type_ == Type::Null; }
  bool is_bool() const { return type_ == Type::Bool; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_integer() const { return type_ == Type::Number && is_integer_; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  bool as_bool() const;
  double as_double() const;
  int64_t as_int() const;
  const std::string& as_string() const;
  const Array& as_array() const;
  Array& as_array();
  const Object& as_object() const;

  bool contains(const std::string& key) const { return find(key) != nullptr; }
  const Json* find(const std::string& key) const;
  const Json& at(const std::string& key) const;
  // Inserts or replaces.
  Json& operator[](const std::string& key);
  void push_back(Json v) { as_array().push_back(std::move(v)); }
  size_t size() const;

 private:
  void dump_to(std::string& out, int indent, int level) const;

  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0.0;
  bool is_integer_ = false;
  int64_t integer_ = 0;
  std::string string_;
  Array array_;
  Object object_;
};

}  // namespace adala
