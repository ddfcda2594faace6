#include "engine/json/json.h"

#include <iterator>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace adala {
namespace {

constexpr std::size_t kMaxDepth = 256;

// A pointer into the text that publishes how far nlohmann's lexer has read, so the SAX handler
// can name the byte offset of a duplicate key (the lexer has just read its closing quote).
class TrackedIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackedIterator(const char* at, const char** cursor) : at_(at), cursor_(cursor) {}
  reference operator*() const { return *at_; }
  TrackedIterator& operator++() {
    *cursor_ = ++at_;
    return *this;
  }
  TrackedIterator operator++(int) {
    TrackedIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackedIterator& other) const { return at_ == other.at_; }
  bool operator!=(const TrackedIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  const char** cursor_;
};

// Builds the DOM like nlohmann's own SAX DOM parser, and throws on a key seen twice in one
// object or on nesting past kMaxDepth.
class StrictDomBuilder {
 public:
  StrictDomBuilder(Json& root, const char* begin, const char* const* cursor)
      : root_(root), begin_(begin), cursor_(cursor) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(Json::number_integer_t v) { return put(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(v); }
  bool number_float(Json::number_float_t v, const std::string&) { return put(v); }
  bool string(std::string& v) { return put(std::move(v)); }
  bool binary(Json::binary_t& v) { return put(Json::binary(std::move(v))); }

  bool start_object(std::size_t) { return open(Json::object()); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_array() { return close(); }

  // ordered_json's own lookup is a linear scan (its map is a vector), so a header with n keys
  // would take n^2 steps: duplicates are found through a hash set of the open object's keys,
  // and the new member is appended to the vector directly.
  bool key(std::string& name) {
    auto& seen = keys_.back();
    if (!seen.insert(name).second) fail(offset(), "duplicate key \"" + name + "\"");
    auto& members = static_cast<ObjectMembers&>(open_.back()->get_ref<Json::object_t&>());
    members.emplace_back(std::move(name), Json());
    slot_ = &members.back().second;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const Json::exception& e) {
    // nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 5: <what>";
    // keep <what> and name the byte instead.
    const std::string what = e.what();
    const std::size_t colon = what.find(": ");
    fail(position, colon == std::string::npos ? what : what.substr(colon + 2));
  }

 private:
  [[noreturn]] static void fail(std::size_t byte, const std::string& what) {
    throw JsonError(byte, what);
  }

  std::size_t offset() const { return static_cast<std::size_t>(*cursor_ - begin_); }

  Json* place(Json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    *slot_ = std::move(value);
    return slot_;
  }

  bool put(Json&& value) {
    place(std::move(value));
    return true;
  }

  bool open(Json&& container) {
    if (open_.size() >= kMaxDepth)
      fail(offset(), "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    open_.push_back(place(std::move(container)));
    keys_.emplace_back();
    return true;
  }

  bool close() {
    open_.pop_back();
    keys_.pop_back();
    return true;
  }

  Json& root_;
  const char* begin_;
  const char* const* cursor_;
  using ObjectMembers = std::vector<std::pair<const std::string, Json>>;

  std::vector<Json*> open_;  // the containers being filled, outermost first
  std::vector<std::unordered_set<std::string>> keys_;  // per open container: its keys so far
  Json* slot_ = nullptr;                               // the value of the key just read
};

}  // namespace

JsonError::JsonError(std::size_t byte, const std::string& what)
    : std::runtime_error("JSON parse error at byte " + std::to_string(byte) + ": " + what),
      byte_(byte) {}

Json parse_json_strict(std::string_view text) {
  const char* begin = text.data();
  const char* cursor = begin;
  Json root;
  StrictDomBuilder builder(root, begin, &cursor);
  Json::sax_parse(TrackedIterator(begin, &cursor), TrackedIterator(begin + text.size(), &cursor),
                  &builder);
  return root;
}

const char* json_type_name(const Json& value) {
  return value.is_number_integer() ? "integer" : value.type_name();
}

}  // namespace adala
