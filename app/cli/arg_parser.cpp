#include "app/cli/arg_parser.h"

#include <cstdlib>

namespace adala::cli {

ArgParser& ArgParser::option(const std::string& name, const std::string& default_value) {
  defaults_[name] = default_value;
  return *this;
}

ArgParser& ArgParser::flag(const std::string& name) {
  flags_.insert(name);
  return *this;
}

void ArgParser::parse(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 3 || a.rfind("--", 0) != 0) {
      positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    if (flags_.count(name)) {
      if (inline_value) throw UsageError("option --" + name + " takes no value");
      flags_set_.insert(name);
      continue;
    }
    if (!defaults_.count(name)) throw UsageError("unknown option --" + name);
    if (!inline_value) {
      if (i + 1 >= args.size()) throw UsageError("option --" + name + " needs a value");
      value = args[++i];
    }
    values_[name] = value;
  }
}

std::string ArgParser::get(const std::string& name) const {
  if (auto it = values_.find(name); it != values_.end()) return it->second;
  if (auto it = defaults_.find(name); it != defaults_.end()) return it->second;
  throw std::logic_error("ArgParser: option --" + name + " was never declared");
}

bool ArgParser::has(const std::string& name) const { return values_.count(name) > 0; }

int64_t ArgParser::get_int(const std::string& name) const {
  const std::string v = get(name);
  char* end = nullptr;
  long long parsed = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0') throw UsageError("option --" + name + " expects an integer, got \"" + v + "\"");
  return parsed;
}

double ArgParser::get_double(const std::string& name) const {
  const std::string v = get(name);
  char* end = nullptr;
  double parsed = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0') throw UsageError("option --" + name + " expects a number, got \"" + v + "\"");
  return parsed;
}

std::vector<std::string> split_list(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) parts.push_back(cur);
  return parts;
}

}  // namespace adala::cli
