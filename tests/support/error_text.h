#pragma once
// The message of the exception `f` throws, or "" when it throws none: for the suites that check
// an error's words.
#include <exception>
#include <string>

namespace adala_test {

template <typename F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace adala_test
