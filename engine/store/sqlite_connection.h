#pragma once
// Thin RAII layer over the sqlite3 C API: a connection, prepared statements and a
// transaction guard. Every failure becomes a StoreError naming the database file.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/store/store_error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace adala::store::sqlite {

class Connection;

class Statement {
 public:
  Statement(Connection& connection, const std::string& sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;

  // Parameters are 1-based, as in SQLite.
  Statement& bind(int index, int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, const std::string& value);
  Statement& bind_null(int index);
  Statement& bind_floats(int index, const std::vector<float>& values);  // little-endian BLOB
  Statement& bind_optional_text(int index, const std::string& value);   // "" -> NULL

  bool step();  // true while a row is available
  void run();   // steps to completion, then resets for reuse
  void reset();

  int64_t int64_at(int column) const;
  double double_at(int column) const;     // NULL reads as NaN (SQLite stores NaN as NULL)
  std::string text_at(int column) const;  // NULL reads as ""
  bool null_at(int column) const;
  std::vector<float> floats_at(int column) const;

 private:
  Connection* connection_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

class Connection {
 public:
  // flags: SQLITE_OPEN_* bits. Throws StoreError (kind from the SQLite result).
  Connection(const std::string& path, int flags);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

  void exec(const std::string& sql);
  int64_t query_int(const std::string& sql);  // first column of the first row
  Statement& cached(const std::string& sql);  // prepared once, reset after each use
  int64_t last_insert_rowid() const;
  int changes() const;

  [[noreturn]] void fail(int result_code, const std::string& doing) const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  std::map<std::string, std::unique_ptr<Statement>> cache_;
};

// BEGIN IMMEDIATE ... COMMIT; rolls back when destroyed uncommitted (exceptions).
class Transaction {
 public:
  explicit Transaction(Connection& connection);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& connection_;
  bool open_ = true;
};

}  // namespace adala::store::sqlite
