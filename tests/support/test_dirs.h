#pragma once
// Scratch folders for the suites: ADALA_TEST_TMP/<group>/<name>-<pid>, emptied first, so that
// two suites (or two runs of one) never share a folder.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace adala_test {

inline std::string fresh_test_dir(const std::string& group, const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(ADALA_TEST_TMP) / group / (name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace adala_test
