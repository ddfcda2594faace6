#pragma once
// The one exception type of the run database. Every message names the database file and
// the cause; kind() lets callers (CLI, GUI) react without parsing the text.
#include <stdexcept>
#include <string>

namespace adala::store {

enum class StoreErrorKind {
  Io,               // cannot create/open/write the file or its directory
  NotFound,         // read-only open of a file that does not exist
  NotADatabase,     // the file is not an SQLite database at all
  Corrupt,          // an SQLite file whose pages are damaged
  NewerSchema,      // written by a newer AdaLA: user_version > supported
  OlderSchema,      // read-only open of a file that needs a migration first
  ReadOnly,         // a write through a store opened OpenMode::ReadOnly
  Busy,             // another writer held the lock past busy_timeout
  Constraint,       // a row breaks the schema (unknown run, bad status, ...)
  InvalidArgument,  // caller error caught before SQLite (unknown status, missing file)
  Sqlite,           // any other SQLite failure
};

const char* store_error_kind_name(StoreErrorKind kind);

class StoreError : public std::runtime_error {
 public:
  StoreError(StoreErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  StoreErrorKind kind() const { return kind_; }

 private:
  StoreErrorKind kind_;
};

}  // namespace adala::store
