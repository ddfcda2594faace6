#pragma once
// Helpers shared by the store suites: scratch directories under ADALA_TEST_TMP, file
// digests, and raw sqlite3 access for building fixtures by hand (never mocks).
#include <sqlite3.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "engine/store/sha256.h"
#include "tests/support/test_dirs.h"

namespace store_test {

namespace fs = std::filesystem;

// An empty directory ADALA_TEST_TMP/store/<name>-<pid>, wiped first.
inline std::string fresh_dir(const std::string& name) {
  return adala_test::fresh_test_dir("store", name);
}

inline std::string file_sha256(const std::string& path) {
  return adala::store::sha256_file(path).sha256;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// A raw connection for fixtures and for inspecting what RunStore wrote.
class RawDb {
 public:
  explicit RawDb(const std::string& path, int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) {
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      throw std::runtime_error("raw open failed: " + std::string(sqlite3_errmsg(db_)));
    }
  }
  ~RawDb() { sqlite3_close(db_); }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string message = error ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error("raw exec failed: " + message + " in: " + sql);
    }
  }
  // First column of the first row as text ("" if no row / NULL).
  std::string scalar(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      throw std::runtime_error("raw prepare failed: " + std::string(sqlite3_errmsg(db_)));
    }
    std::string value;
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW && sqlite3_column_text(stmt, 0)) {
      value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    const bool failed = rc != SQLITE_ROW && rc != SQLITE_DONE;
    const std::string message = sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
    if (failed) throw std::runtime_error("raw step failed: " + message);
    return value;
  }
  long long integer(const std::string& sql) { return std::stoll(scalar(sql)); }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace store_test
