#include "engine/core/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace adala {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Json parse_document() {
    skip_space();
    Json value = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters after the JSON value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonError("JSON parse error at byte " + std::to_string(pos_) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  Json parse_value(int depth) {
    if (depth > 256) fail("nesting deeper than 256 levels");
    if (pos_ >= text_.size()) fail("unexpected end of input");
    char c = peek();
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') return Json(parse_string());
    if (c == 't') return parse_literal("true", Json(true));
    if (c == 'f') return parse_literal("false", Json(false));
    if (c == 'n') return parse_literal("null", Json(nullptr));
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    fail(std::string("unexpected character '") + c + "'");
  }

  Json parse_literal(std::string_view word, Json value) {
    if (text_.substr(pos_, word.size()) != word) fail("invalid literal");
    pos_ += word.size();
    return value;
  }

  Json parse_number() {
    size_t start = pos_;
    bool integer = true;
    if (peek() == '-') ++pos_;
    if (!(peek() >= '0' && peek() <= '9')) fail("invalid number");
    while (peek() >= '0' && peek() <= '9') ++pos_;
    if (peek() == '.') {
      integer = false;
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) fail("invalid number: digits expected after '.'");
      while (peek() >= '0' && peek() <= '9') ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      integer = false;
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) fail("invalid number: digits expected in exponent");
      while (peek() >= '0' && peek() <= '9') ++pos_;
    }
    std::string token(text_.substr(start, pos_ - start));
    if (integer && token.size() < 19) return Json(static_cast<int64_t>(std::strtoll(token.c_str(), nullptr, 10)));
    double v = std::strtod(token.c_str(), nullptr);
    if (integer && std::fabs(v) < 9.2e18) return Json(static_cast<int64_t>(std::strtoll(token.c_str(), nullptr, 10)));
    return Json(v);
  }

  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  uint32_t parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= h - '0';
      else if (h >= 'a' && h <= 'f') v |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F') v |= h - 'A' + 10;
      else fail("invalid hex digit in \\u escape");
    }
    return v;
  }

  std::string parse_string() {
    expect('"');
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character inside string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = parse_hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") fail("unpaired surrogate");
            pos_ += 2;
            uint32_t lo = parse_hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("invalid low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default: fail(std::string("invalid escape '\\") + e + "'");
      }
    }
    return out;
  }

  Json parse_array(int depth) {
    expect('[');
    Json::Array items;
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return Json(std::move(items));
    }
    while (true) {
      skip_space();
      items.push_back(parse_value(depth + 1));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return Json(std::move(items));
      }
      fail("expected ',' or ']' in array");
    }
  }

  Json parse_object(int depth) {
    expect('{');
    Json result = Json::object();
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return result;
    }
    while (true) {
      skip_space();
      if (peek() != '"') fail("expected a string key in object");
      std::string key = parse_string();
      if (result.contains(key)) fail("duplicate key \"" + key + "\"");
      skip_space();
      expect(':');
      skip_space();
      result[key] = parse_value(depth + 1);
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return result;
      }
      fail("expected ',' or '}' in object");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

void dump_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

}  // namespace

Json Json::parse(std::string_view text) { return Parser(text).parse_document(); }

const char* Json::type_name() const {
  switch (type_) {
    case Type::Null: return "null";
    case Type::Bool: return "boolean";
    case Type::Number: return is_integer_ ? "integer" : "number";
    case Type::String: return "string";
    case Type::Array: return "array";
    case Type::Object: return "object";
  }
  return "?";
}

bool Json::as_bool() const {
  if (!is_bool()) throw JsonError(std::string("expected a boolean, got ") + type_name());
  return bool_;
}

double Json::as_double() const {
  if (!is_number()) throw JsonError(std::string("expected a number, got ") + type_name());
  return number_;
}

int64_t Json::as_int() const {
  if (!is_number()) throw JsonError(std::string("expected an integer, got ") + type_name());
  if (is_integer_) return integer_;
  if (std::floor(number_) != number_ || std::fabs(number_) > 9.0e15)
    throw JsonError("expected an integer, got " + std::to_string(number_));
  return static_cast<int64_t>(number_);
}

const std::string& Json::as_string() const {
  if (!is_string()) throw JsonError(std::string("expected a string, got ") + type_name());
  return string_;
}

const Json::Array& Json::as_array() const {
  if (!is_array()) throw JsonError(std::string("expected an array, got ") + type_name());
  return array_;
}

Json::Array& Json::as_array() {
  if (!is_array()) throw JsonError(std::string("expected an array, got ") + type_name());
  return array_;
}

const Json::Object& Json::as_object() const {
  if (!is_object()) throw JsonError(std::string("expected an object, got ") + type_name());
  return object_;
}

const Json* Json::find(const std::string& key) const {
  if (!is_object()) return nullptr;
  for (const auto& kv : object_)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

const Json& Json::at(const std::string& key) const {
  const Json* v = find(key);
  if (!v) throw JsonError("missing key \"" + key + "\"");
  return *v;
}

Json& Json::operator[](const std::string& key) {
  if (is_null()) *this = Json::object();
  if (!is_object()) throw JsonError(std::string("expected an object, got ") + type_name());
  for (auto& kv : object_)
    if (kv.first == key) return kv.second;
  object_.emplace_back(key, Json());
  return object_.back().second;
}

size_t Json::size() const {
  if (is_array()) return array_.size();
  if (is_object()) return object_.size();
  return 0;
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void Json::dump_to(std::string& out, int indent, int level) const {
  auto newline = [&](int lvl) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * lvl), ' ');
  };
  switch (type_) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += bool_ ? "true" : "false"; break;
    case Type::Number: {
      if (is_integer_) {
        out += std::to_string(integer_);
      } else if (!std::isfinite(number_)) {
        out += "null";
      } else {
        // The shortest of 15..17 significant digits that reads back to the same double.
        char buf[32];
        for (int digits = 15; digits <= 17; ++digits) {
          std::snprintf(buf, sizeof buf, "%.*g", digits, number_);
          if (std::strtod(buf, nullptr) == number_) break;
        }
        out += buf;
      }
      break;
    }
    case Type::String: dump_string(out, string_); break;
    case Type::Array: {
      out += '[';
      for (size_t i = 0; i < array_.size(); ++i) {
        if (i) out += ',';
        newline(level + 1);
        array_[i].dump_to(out, indent, level + 1);
      }
      if (!array_.empty()) newline(level);
      out += ']';
      break;
    }
    case Type::Object: {
      out += '{';
      for (size_t i = 0; i < object_.size(); ++i) {
        if (i) out += ',';
        newline(level + 1);
        dump_string(out, object_[i].first);
        out += indent < 0 ? ":" : ": ";
        object_[i].second.dump_to(out, indent, level + 1);
      }
      if (!object_.empty()) newline(level);
      out += '}';
      break;
    }
  }
}

}  // namespace adala
