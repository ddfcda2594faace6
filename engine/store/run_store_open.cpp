// Opening a run database: every check that can refuse a file runs before anything is
// written to it, so a refused file keeps its bytes.
#include <pwd.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "engine/store/process_identity.h"
#include "engine/store/run_store_impl.h"
#include "engine/store/schema.h"

namespace adala::store {
namespace fs = std::filesystem;
namespace {

bool has_sqlite_header(const fs::path& file, const std::string& shown) {
  char header[16] = {};
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw StoreError(StoreErrorKind::Io,
                     "cannot read run database " + shown + ": " + std::strerror(errno));
  }
  in.read(header, sizeof(header));
  return in.gcount() == sizeof(header) && std::memcmp(header, "SQLite format 3\0", 16) == 0;
}

// Refuses a path that cannot be (or hold) a run database, before SQLite sees it.
void check_file_before_open(const fs::path& file, const std::string& shown, OpenMode mode) {
  std::error_code ec;
  const bool exists = fs::exists(file, ec);
  if (!exists && mode == OpenMode::ReadOnly) {
    throw StoreError(StoreErrorKind::NotFound, "no run database at " + shown +
                                                   " (nothing to read; runs are recorded by "
                                                   "`adala run`)");
  }
  if (exists && fs::is_directory(file, ec)) {
    throw StoreError(StoreErrorKind::Io,
                     "run database path " + shown + " is a directory, not a file");
  }
  if (exists && fs::file_size(file, ec) > 0 && !has_sqlite_header(file, shown)) {
    throw StoreError(StoreErrorKind::NotADatabase,
                     shown +
                         " is not an SQLite database (it does not start with the SQLite "
                         "header); refusing to open it, the file was left untouched");
  }
  if (mode == OpenMode::ReadOnly) return;

  const fs::path dir = file.parent_path();
  fs::create_directories(dir, ec);
  if (ec) {
    throw StoreError(StoreErrorKind::Io, "cannot create directory " + dir.string() +
                                             " for the run database " + shown + ": " +
                                             ec.message());
  }
  // WAL keeps -wal and -shm files next to the database: the directory must be writable.
  if (access(dir.c_str(), W_OK) != 0) {
    throw StoreError(StoreErrorKind::Io, "directory " + dir.string() + " of the run database " +
                                             shown + " is not writable: " + std::strerror(errno) +
                                             " (open the database read-only to view it)");
  }
  if (exists && access(file.c_str(), W_OK) != 0) {
    throw StoreError(StoreErrorKind::Io, "run database " + shown +
                                             " is not writable: " + std::strerror(errno) +
                                             " (open it read-only to view it)");
  }
}

// A file: URI for sqlite3_open_v2 with SQLITE_OPEN_URI: every byte outside the unreserved set
// percent-encoded, so '?', '#' and '%' in a path stay part of it.
std::string file_uri(const std::string& path, const std::string& query) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789ABCDEF";
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri + "?" + query;
}

// A reader in a directory it cannot write cannot create the WAL index (-shm) SQLite needs to
// read a WAL database, so it opens the file immutable instead: no locks, no -shm, no WAL.
// Nothing else can be writing there either (a writer needs the directory too), so what it
// reads is the last checkpoint; a -wal file left by a writer that died is not read.
std::unique_ptr<sqlite::Connection> open_connection(const fs::path& file, const std::string& shown,
                                                    bool read_only) {
  if (!read_only || access(file.parent_path().c_str(), W_OK) == 0) {
    const int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    return std::make_unique<sqlite::Connection>(file.string(), flags);
  }
  std::error_code ec;
  const fs::path wal = file.string() + "-wal";
  if (fs::exists(wal, ec) && fs::file_size(wal, ec) > 0) {
    std::cerr << "adala: the directory of run database " << shown
              << " is read-only; reading it without its -wal file (changes not yet "
                 "checkpointed into the database are not shown)\n";
  }
  return std::make_unique<sqlite::Connection>(file_uri(file.string(), "immutable=1"),
                                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
}

std::vector<std::string> table_names(sqlite::Connection& db) {
  std::vector<std::string> names;
  sqlite::Statement list(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  while (list.step()) names.push_back(list.text_at(0));
  return names;
}

// Reads the schema and the first page of every table: a damaged file fails here, before
// any write. (A full scan is integrity_check(); too slow for every open of a large file.)
void check_structure(sqlite::Connection& db, int version, const std::string& shown) {
  const std::vector<std::string> present = table_names(db);
  if (version == 0) {
    bool foreign = false;
    for (const auto& name : present) foreign = foreign || name.rfind("sqlite_", 0) != 0;
    if (foreign) {
      throw StoreError(
          StoreErrorKind::NotADatabase,
          shown +
              " is an SQLite database but not an AdaLA run database "
              "(schema version 0 with tables of its own); the file was left untouched");
    }
    return;
  }
  for (const std::string& table : tables_of_version(version)) {
    bool found = false;
    for (const auto& name : present) found = found || name == table;
    if (!found) {
      throw StoreError(StoreErrorKind::Corrupt,
                       "run database " + shown + " claims schema version " +
                           std::to_string(version) + " but has no table \"" + table +
                           "\"; the file was left untouched");
    }
    // NOT INDEXED: read the table's own pages, not a smaller index that covers the query.
    sqlite::Statement probe(db, "SELECT 1 FROM " + table + " NOT INDEXED LIMIT 1");
    probe.step();
  }
}

}  // namespace

std::string RunStore::default_path() {
  fs::path base;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && xdg[0] == '/') {
    base = xdg;
  } else {
    const char* home = std::getenv("HOME");
    if (!home || !home[0]) {
      const passwd* entry = getpwuid(getuid());
      home = entry ? entry->pw_dir : nullptr;
    }
    if (!home || !home[0]) {
      throw StoreError(StoreErrorKind::Io,
                       "cannot place the run database: neither XDG_DATA_HOME nor HOME is set "
                       "(pass --db FILE)");
    }
    base = fs::path(home) / ".local" / "share";
  }
  return (base / "adala" / "runs.sqlite").string();
}

bool RunStore::upgrade_schema(const std::string& path) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return false;
  try {
    RunStore reader(path, OpenMode::ReadOnly);
    return false;  // current already
  } catch (const StoreError& e) {
    if (e.kind() != StoreErrorKind::OlderSchema) throw;
  }
  RunStore writer(path);  // migrates
  return true;
}

RunStore::Impl::Impl(const std::string& given_path, OpenMode mode)
    : path(given_path), read_only(mode == OpenMode::ReadOnly) {
  if (given_path.empty()) {
    throw StoreError(StoreErrorKind::InvalidArgument, "run database path is empty");
  }
  const fs::path file = fs::absolute(given_path).lexically_normal();
  check_file_before_open(file, given_path, mode);
  canonical_path = fs::weakly_canonical(file).string();

  db = open_connection(file, given_path, read_only);
  sqlite3_busy_timeout(db->handle(), static_cast<int>(kDefaultBusyTimeout.count()));

  const int version = static_cast<int>(db->query_int("PRAGMA user_version"));
  if (version > kSchemaVersion) {
    throw StoreError(StoreErrorKind::NewerSchema,
                     "run database " + given_path + " has schema version " +
                         std::to_string(version) + ", newer than version " +
                         std::to_string(kSchemaVersion) +
                         " that this build of AdaLA supports; use a newer AdaLA (the file was "
                         "left untouched)");
  }
  check_structure(*db, version, given_path);

  if (read_only) {
    if (version < kSchemaVersion) {
      throw StoreError(StoreErrorKind::OlderSchema,
                       "run database " + given_path + " has schema version " +
                           std::to_string(version) +
                           " (current: " + std::to_string(kSchemaVersion) +
                           "); a read-only open cannot upgrade it, open it read-write once "
                           "(e.g. `adala runs list`)");
    }
    return;
  }
  // Migrate before switching to WAL: a file in rollback-journal mode that fails a
  // migration keeps its exact bytes.
  if (version < kSchemaVersion) migrate(*db, version);
  {
    // Scoped: a statement still stepping would make later COMMITs fail.
    sqlite::Statement wal(*db, "PRAGMA journal_mode = WAL");
    const std::string journal_mode = wal.step() ? wal.text_at(0) : "";
    if (journal_mode != "wal") {
      throw StoreError(StoreErrorKind::Io, "run database " + given_path +
                                               " cannot use WAL journaling (journal mode \"" +
                                               journal_mode + "\")");
    }
  }
  db->exec("PRAGMA synchronous = NORMAL");
  db->exec("PRAGMA foreign_keys = ON");
  mark_abandoned_runs_interrupted();
}

bool RunStore::Impl::writer_gone(int64_t run, const std::string& writer_token) const {
  switch (writer_state(writer_token)) {
    case WriterState::Gone:
      return true;
    case WriterState::OtherLiveProcess:
      return false;
    case WriterState::ThisProcess:
      return !is_live_run(canonical_path, run);
  }
  return true;
}

void RunStore::Impl::mark_abandoned_runs_interrupted() {
  std::vector<int64_t> abandoned;
  {
    sqlite::Statement running(*db, "SELECT id, writer FROM runs WHERE status = ?1");
    running.bind(1, run_status_name(RunStatus::Running));
    while (running.step()) {
      if (writer_gone(running.int64_at(0), running.text_at(1))) {
        abandoned.push_back(running.int64_at(0));
      }
    }
  }
  mark_interrupted(abandoned);
}

void RunStore::Impl::interrupt_runs_running_here() {
  mark_interrupted({runs_running_here.begin(), runs_running_here.end()});
}

// The runs (still running) and their running stages become interrupted, in one transaction;
// no runs, no write.
void RunStore::Impl::mark_interrupted(const std::vector<int64_t>& runs) {
  if (runs.empty()) return;
  sqlite::Transaction transaction(*db);
  for (int64_t run : runs) {
    db->cached(std::string("UPDATE runs SET status = ?2, writer = NULL, ended_at = ") + kSqlNow +
               " WHERE id = ?1 AND status = ?3")
        .bind(1, run)
        .bind(2, run_status_name(RunStatus::Interrupted))
        .bind(3, run_status_name(RunStatus::Running))
        .run();
    db->cached(std::string("UPDATE stages SET status = ?2, ended_at = ") + kSqlNow +
               " WHERE run_id = ?1 AND status = ?3")
        .bind(1, run)
        .bind(2, run_status_name(RunStatus::Interrupted))
        .bind(3, run_status_name(RunStatus::Running))
        .run();
  }
  transaction.commit();
}

RunStore::RunStore(const std::string& path, OpenMode mode)
    : impl_(std::make_unique<Impl>(path, mode)) {}

RunStore::~RunStore() {
  if (!impl_ || impl_->read_only) return;
  try {
    impl_->finish_artifact_digests();
  } catch (const std::exception& e) {
    std::cerr << "adala: artifact checksums were not written: " << e.what() << "\n";
  }
  const size_t pending = pending_rows();
  try {
    flush();
  } catch (const std::exception& e) {
    std::cerr << "adala: " << pending << " buffered metric rows were not written: " << e.what()
              << "\n";
  }
  try {
    impl_->interrupt_runs_running_here();
  } catch (const std::exception& e) {
    std::cerr << "adala: could not mark unfinished runs interrupted: " << e.what() << "\n";
  }
  for (int64_t run : impl_->runs_running_here) unregister_live_run(impl_->canonical_path, run);
}

RunStore::RunStore(RunStore&&) noexcept = default;
RunStore& RunStore::operator=(RunStore&& other) noexcept {
  if (this != &other) {
    RunStore dying(std::move(*this));  // flushes and closes the store being replaced
    impl_ = std::move(other.impl_);
  }
  return *this;
}

const std::string& RunStore::path() const { return impl_->path; }
bool RunStore::read_only() const { return impl_->read_only; }
int RunStore::schema_version() {
  return static_cast<int>(impl_->db->query_int("PRAGMA user_version"));
}

std::string RunStore::integrity_check() {
  sqlite::Statement check(*impl_->db, "PRAGMA integrity_check");
  std::string findings;
  while (check.step()) findings += (findings.empty() ? "" : "\n") + check.text_at(0);
  return findings;
}

}  // namespace adala::store
