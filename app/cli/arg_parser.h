#pragma once
// Small command-line parser: positional arguments, --key value / --key=value options and
// boolean --flags. Unknown options are errors that name the option.
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace adala::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ArgParser {
 public:
  ArgParser& option(const std::string& name, const std::string& default_value = "");
  ArgParser& flag(const std::string& name);
  // Throws UsageError on an unknown option or a missing value.
  void parse(const std::vector<std::string>& args);

  const std::vector<std::string>& positional() const { return positional_; }
  std::string get(const std::string& name) const;
  bool has(const std::string& name) const;  // given on the command line
  bool flag_set(const std::string& name) const { return flags_set_.count(name) > 0; }
  int64_t get_int(const std::string& name) const;
  double get_double(const std::string& name) const;

 private:
  std::map<std::string, std::string> defaults_;
  std::set<std::string> flags_;
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_set_;
  std::vector<std::string> positional_;
};

// Splits "a,b,c" into its parts (empty parts dropped).
std::vector<std::string> split_list(const std::string& text, char sep = ',');

}  // namespace adala::cli
