#include "engine/store/sqlite_connection.h"

#include <sqlite3.h>

#include <cstring>
#include <limits>

namespace adala::store::sqlite {
namespace {

StoreErrorKind kind_of(int result_code) {
  switch (result_code & 0xff) {
    case SQLITE_CORRUPT:
      return StoreErrorKind::Corrupt;
    case SQLITE_NOTADB:
      return StoreErrorKind::NotADatabase;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StoreErrorKind::Busy;
    case SQLITE_READONLY:
      return StoreErrorKind::ReadOnly;
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_PERM:
      return StoreErrorKind::Io;
    case SQLITE_CONSTRAINT:
      return StoreErrorKind::Constraint;
    default:
      return StoreErrorKind::Sqlite;
  }
}

}  // namespace

// --- Connection ---------------------------------------------------------------------------

Connection::Connection(const std::string& path, int flags) : path_(path) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    if (db_ && sqlite3_system_errno(db_) != 0) {
      message += std::string(" (") + std::strerror(sqlite3_system_errno(db_)) + ")";
    }
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError(kind_of(rc), "cannot open run database " + path + ": " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Connection::~Connection() {
  cache_.clear();  // statements must be finalized before the connection closes
  sqlite3_close_v2(db_);
}

void Connection::fail(int result_code, const std::string& doing) const {
  const std::string detail = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(result_code);
  const StoreErrorKind kind = kind_of(result_code);
  std::string message;
  if (kind == StoreErrorKind::Corrupt || kind == StoreErrorKind::NotADatabase) {
    message = "run database " + path_ + " is damaged (" + detail + ") while " + doing +
              "; the file was left untouched";
  } else if (kind == StoreErrorKind::Busy) {
    message =
        "run database " + path_ + " is locked by another writer (" + detail + ") while " + doing;
  } else {
    message = "run database " + path_ + ": " + doing + " failed: " + detail;
  }
  throw StoreError(kind, message);
}

void Connection::exec(const std::string& sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
  if (error) sqlite3_free(error);
  if (rc != SQLITE_OK) fail(rc, "executing \"" + sql.substr(0, 60) + "\"");
}

int64_t Connection::query_int(const std::string& sql) {
  Statement statement(*this, sql);
  if (!statement.step()) fail(SQLITE_ERROR, "reading \"" + sql + "\" (no row)");
  return statement.int64_at(0);
}

Statement& Connection::cached(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    it = cache_.emplace(sql, std::make_unique<Statement>(*this, sql)).first;
  }
  it->second->reset();
  return *it->second;
}

int64_t Connection::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
int Connection::changes() const { return sqlite3_changes(db_); }

// --- Statement ----------------------------------------------------------------------------

Statement::Statement(Connection& connection, const std::string& sql)
    : connection_(&connection), sql_(sql) {
  const int rc = sqlite3_prepare_v2(connection.handle(), sql.c_str(), -1, &stmt_, nullptr);
  if (rc != SQLITE_OK) connection.fail(rc, "preparing \"" + sql.substr(0, 60) + "\"");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : connection_(other.connection_), stmt_(other.stmt_), sql_(std::move(other.sql_)) {
  other.stmt_ = nullptr;
}

Statement& Statement::bind(int index, int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) connection_->fail(rc, "binding a parameter");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  const int rc = sqlite3_bind_double(stmt_, index, value);
  if (rc != SQLITE_OK) connection_->fail(rc, "binding a parameter");
  return *this;
}

Statement& Statement::bind(int index, const std::string& value) {
  const int rc = sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                                   SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) connection_->fail(rc, "binding a parameter");
  return *this;
}

Statement& Statement::bind_null(int index) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) connection_->fail(rc, "binding a parameter");
  return *this;
}

Statement& Statement::bind_optional_text(int index, const std::string& value) {
  return value.empty() ? bind_null(index) : bind(index, value);
}

Statement& Statement::bind_floats(int index, const std::vector<float>& values) {
  static_assert(std::numeric_limits<float>::is_iec559, "float rows are stored as IEEE-754");
  // x86-64 and aarch64 are little-endian: the BLOB is the raw float32 array.
  const int rc =
      sqlite3_bind_blob(stmt_, index, values.data(),
                        static_cast<int>(values.size() * sizeof(float)), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) connection_->fail(rc, "binding a float row");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3_reset(stmt_);
  connection_->fail(rc, "running \"" + sql_.substr(0, 60) + "\"");
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t Statement::int64_at(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::double_at(int column) const {
  if (null_at(column)) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text_at(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  if (!text) return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool Statement::null_at(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::vector<float> Statement::floats_at(int column) const {
  const void* blob = sqlite3_column_blob(stmt_, column);
  const size_t bytes = static_cast<size_t>(sqlite3_column_bytes(stmt_, column));
  std::vector<float> values(bytes / sizeof(float));
  if (blob && !values.empty()) std::memcpy(values.data(), blob, values.size() * sizeof(float));
  return values;
}

// --- Transaction --------------------------------------------------------------------------

Transaction::Transaction(Connection& connection) : connection_(connection) {
  connection_.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  connection_.exec("COMMIT");
  open_ = false;
}

}  // namespace adala::store::sqlite
