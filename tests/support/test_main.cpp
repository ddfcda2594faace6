// main() of the adala_tests executable: runs the suite named by the first argument
// (tests/support/test_suite.h) with the arguments after it.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "tests/support/test_suite.h"

namespace adala::test {
namespace {

std::map<std::string, SuiteMain>& suites() {
  static std::map<std::string, SuiteMain> registered;
  return registered;
}

std::string base_name(const char* file) {
  std::string name(file);
  const size_t slash = name.find_last_of('/');
  if (slash != std::string::npos) name.erase(0, slash + 1);
  const size_t dot = name.find('.');
  if (dot != std::string::npos) name.erase(dot);
  return name;
}

int usage(const char* program, const char* problem) {
  std::fprintf(stderr, "%s\nusage: %s SUITE [Qt Test arguments]\nsuites:", problem, program);
  for (const auto& [name, main] : suites()) std::fprintf(stderr, " %s", name.c_str());
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace

bool register_suite(const char* file, SuiteMain main) {
  const std::string name = base_name(file);
  if (!suites().emplace(name, main).second)
    std::fprintf(stderr, "test suite %s is registered twice\n", name.c_str());
  return true;
}

}  // namespace adala::test

int main(int argc, char** argv) {
  using adala::test::suites;
  if (argc < 2) return adala::test::usage(argv[0], "no test suite named");
  const auto suite = suites().find(argv[1]);
  if (suite == suites().end()) {
    const std::string problem = std::string("no test suite named ") + argv[1];
    return adala::test::usage(argv[0], problem.c_str());
  }
  std::vector<char*> args{argv[0]};
  args.insert(args.end(), argv + 2, argv + argc);
  args.push_back(nullptr);
  return suite->second(argc - 1, args.data());
}
