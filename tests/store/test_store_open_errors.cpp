// Files a store must refuse: each gives a clear error naming the file and leaves its bytes
// as they were (sha256 before == after), in read-write and in read-only mode.
#include <QtTest/QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include "engine/store/run_store.h"
#include "store_test_support.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_store_open_errors {

using namespace adala::store;  // the store's API is what these tests exercise

namespace {

struct Refusal {
  StoreErrorKind kind;
  std::string message;
};

Refusal refusal_of(const std::string& path, OpenMode mode) {
  try {
    RunStore store(path, mode);
  } catch (const StoreError& e) {
    return {e.kind(), e.what()};
  }
  return {StoreErrorKind::Sqlite, "<opened without error>"};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A valid database with one run and some metrics, closed (WAL checkpointed into the file).
std::string make_database(const std::string& path) {
  RunStore store(path);
  const int64_t run = store.create_run("r", "{}", "cpu", "", "");
  store.begin_stage(run, "stage2", 2, 100);
  for (int step = 0; step < 200; ++step) store.add_metric(run, "stage2", step, "loss", -1, step);
  store.end_stage(run, "stage2", RunStatus::Done);
  return path;
}

// Checks both modes refuse `path` with `kind`, a message holding `expected` and the path,
// and that the file's bytes did not change.
void expect_refused_untouched(const std::string& path, StoreErrorKind kind,
                              const std::string& expected) {
  const std::string before = store_test::file_sha256(path);
  for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
    const Refusal refusal = refusal_of(path, mode);
    const std::string where = refusal.message + " [mode " +
                              (mode == OpenMode::ReadOnly ? "read-only" : "read-write") + "]";
    QVERIFY2(refusal.kind == kind, where.c_str());
    QVERIFY2(contains(refusal.message, expected), where.c_str());
    QVERIFY2(contains(refusal.message, path), where.c_str());
    QCOMPARE(store_test::file_sha256(path), before);
  }
  QVERIFY(!store_test::fs::exists(path + "-journal"));
}

}  // namespace

class TestStoreOpenErrors : public QObject {
  Q_OBJECT
 private slots:
  void non_sqlite_file() {
    const std::string path = store_test::fresh_dir("open-text") + "/notes.sqlite";
    std::string text;
    for (int i = 0; i < 200; ++i) text += "these are my notes, not a database\n";
    store_test::write_bytes(path, text);
    expect_refused_untouched(path, StoreErrorKind::NotADatabase, "not an SQLite database");
  }

  void tiny_non_sqlite_file() {
    const std::string path = store_test::fresh_dir("open-tiny") + "/x.sqlite";
    store_test::write_bytes(path, "hi");
    expect_refused_untouched(path, StoreErrorKind::NotADatabase, "not an SQLite database");
  }

  void sqlite_database_of_another_program() {
    const std::string path = store_test::fresh_dir("open-foreign") + "/other.sqlite";
    {
      store_test::RawDb raw(path);
      raw.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('a');");
    }
    expect_refused_untouched(path, StoreErrorKind::NotADatabase, "not an AdaLA run database");
  }

  // The schema page (page 1 past its 100-byte header) overwritten with garbage.
  void corrupt_schema_page() {
    const std::string path = make_database(store_test::fresh_dir("open-corrupt1") + "/runs.sqlite");
    std::string bytes = store_test::read_bytes(path);
    for (size_t i = 100; i < 4096 && i < bytes.size(); ++i) bytes[i] = char(0xA5 ^ (i * 31));
    store_test::write_bytes(path, bytes);
    expect_refused_untouched(path, StoreErrorKind::Corrupt, "damaged");
  }

  // The root page of the runs table overwritten: the schema reads fine, the table does not.
  void corrupt_table_page() {
    const std::string path = make_database(store_test::fresh_dir("open-corrupt2") + "/runs.sqlite");
    long long root = 0, page_size = 0;
    {
      store_test::RawDb raw(path);
      root = raw.integer("SELECT rootpage FROM sqlite_master WHERE name = 'runs'");
      page_size = raw.integer("PRAGMA page_size");
    }
    std::string bytes = store_test::read_bytes(path);
    QVERIFY(static_cast<long long>(bytes.size()) >= root * page_size);
    for (long long i = (root - 1) * page_size; i < root * page_size; ++i)
      bytes[i] = char(0xFF - i % 7);
    store_test::write_bytes(path, bytes);
    expect_refused_untouched(path, StoreErrorKind::Corrupt, "damaged");
  }

  // Only the first page survived (a truncated copy).
  void truncated_file() {
    const std::string path = make_database(store_test::fresh_dir("open-trunc") + "/runs.sqlite");
    std::string bytes = store_test::read_bytes(path);
    QVERIFY(bytes.size() > 8192);
    store_test::write_bytes(path, bytes.substr(0, 4096));
    expect_refused_untouched(path, StoreErrorKind::Corrupt, "damaged");
  }

  void newer_schema() {
    const std::string path = make_database(store_test::fresh_dir("open-newer") + "/runs.sqlite");
    {
      store_test::RawDb raw(path);
      raw.exec("PRAGMA user_version = 99");
    }
    expect_refused_untouched(path, StoreErrorKind::NewerSchema, "schema version 99");
    const Refusal refusal = refusal_of(path, OpenMode::ReadWrite);
    QVERIFY2(contains(refusal.message, "newer AdaLA"), refusal.message.c_str());
    store_test::RawDb raw(path);
    QCOMPARE(raw.integer("PRAGMA user_version"), 99LL);
  }

  // Tests run as root, where chmod does not stop writes: use directories that cannot be
  // created at all (a regular file in the way; a /proc path).
  void directory_that_cannot_exist() {
    const std::string dir = store_test::fresh_dir("open-nodir");
    const std::string blocker = dir + "/plain-file";
    store_test::write_bytes(blocker, "I am a file");
    const std::string path = blocker + "/sub/runs.sqlite";
    const Refusal refusal = refusal_of(path, OpenMode::ReadWrite);
    QVERIFY2(refusal.kind == StoreErrorKind::Io, refusal.message.c_str());
    QVERIFY2(contains(refusal.message, "cannot create directory"), refusal.message.c_str());
    QVERIFY2(contains(refusal.message, path), refusal.message.c_str());
    QCOMPARE(store_test::read_bytes(blocker), std::string("I am a file"));

    const Refusal in_proc = refusal_of("/proc/adala-no-such-dir/runs.sqlite", OpenMode::ReadWrite);
    QVERIFY2(in_proc.kind == StoreErrorKind::Io, in_proc.message.c_str());
    QVERIFY2(contains(in_proc.message, "/proc/adala-no-such-dir"), in_proc.message.c_str());
  }

  // /proc/self exists but takes no new files (EACCES even for root) .
  void directory_that_takes_no_files() {
    const std::string path = "/proc/self/runs.sqlite";
    const Refusal refusal = refusal_of(path, OpenMode::ReadWrite);
    QVERIFY2(refusal.kind == StoreErrorKind::Io, refusal.message.c_str());
    QVERIFY2(contains(refusal.message, path), refusal.message.c_str());
  }

  // As a normal user, a chmod 0555 directory is read-only too.
  void read_only_directory_for_non_root() {
    if (geteuid() == 0) QSKIP("root ignores directory permissions");
    const std::string dir = store_test::fresh_dir("open-rodir");
    store_test::fs::permissions(
        dir, store_test::fs::perms::owner_read | store_test::fs::perms::owner_exec);
    const Refusal refusal = refusal_of(dir + "/runs.sqlite", OpenMode::ReadWrite);
    store_test::fs::permissions(dir, store_test::fs::perms::owner_all);
    QVERIFY2(refusal.kind == StoreErrorKind::Io, refusal.message.c_str());
    QVERIFY2(contains(refusal.message, "not writable"), refusal.message.c_str());
  }

  // A database someone else wrote, in a directory this user cannot write (a shared results
  // folder, a read-only mount): reading it needs no -shm file. Root ignores permissions, so
  // as root a forked child drops to nobody first. The folder name needs URI escaping.
  void reads_a_database_in_a_read_only_directory() {
    // Under the system temp folder: `nobody` must be able to reach it, and a checkout can lie
    // below a folder only its owner may enter (/root).
    namespace fs = store_test::fs;
    const std::string dir =
        (fs::temp_directory_path() / ("adala-open-ro dir?%#-" + std::to_string(getpid()))).string();
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = make_database(dir + "/runs.sqlite");
    const std::string before = store_test::file_sha256(path);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                             fs::perms::group_exec | fs::perms::others_read |
                             fs::perms::others_exec);
    int channel[2];
    QVERIFY(pipe(channel) == 0);
    const pid_t child = fork();
    if (child == 0) {
      close(channel[0]);
      std::string answer;
      if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) {
        answer = "cannot drop to nobody";
      } else {
        try {
          RunStore reader(path, OpenMode::ReadOnly);
          const auto runs = reader.list_runs();
          answer = std::to_string(runs.size()) + " runs, " +
                   std::to_string(reader.metric_count(runs.at(0).id)) + " metrics, " +
                   runs.at(0).status;
        } catch (const std::exception& e) {
          answer = std::string("error: ") + e.what();
        }
      }
      const ssize_t written = write(channel[1], answer.data(), answer.size());
      _exit(written == static_cast<ssize_t>(answer.size()) ? 0 : 1);
    }
    close(channel[1]);
    std::string answer;
    char buffer[512];
    for (ssize_t n; (n = read(channel[0], buffer, sizeof buffer)) > 0;) answer.append(buffer, n);
    close(channel[0]);
    int status = 0;
    waitpid(child, &status, 0);
    fs::permissions(dir, fs::perms::owner_all);
    QVERIFY2(answer == "1 runs, 200 metrics, queued", answer.c_str());
    const bool no_shm = !fs::exists(path + "-shm");
    const bool unchanged = store_test::file_sha256(path) == before;
    fs::remove_all(dir);
    QVERIFY(no_shm);
    QVERIFY(unchanged);
  }

  void read_only_mode_never_creates() {
    const std::string dir = store_test::fresh_dir("open-ro-missing");
    const std::string path = dir + "/nested/runs.sqlite";
    const Refusal refusal = refusal_of(path, OpenMode::ReadOnly);
    QVERIFY2(refusal.kind == StoreErrorKind::NotFound, refusal.message.c_str());
    QVERIFY2(contains(refusal.message, "no run database at " + path), refusal.message.c_str());
    QVERIFY(!store_test::fs::exists(dir + "/nested"));
  }

  void read_only_store_refuses_writes_and_keeps_the_file() {
    const std::string path = make_database(store_test::fresh_dir("open-ro-write") + "/runs.sqlite");
    const std::string before = store_test::file_sha256(path);
    {
      RunStore store(path, OpenMode::ReadOnly);
      QCOMPARE(store.list_runs().size(), size_t(1));
      QCOMPARE(store.metrics(1).size(), size_t(200));
      try {
        store.create_run("x", "{}", "cpu", "", "");
        QFAIL("a read-only store wrote");
      } catch (const StoreError& e) {
        QCOMPARE(e.kind(), StoreErrorKind::ReadOnly);
        QVERIFY2(contains(e.what(), "read-only"), e.what());
      }
      QVERIFY_EXCEPTION_THROWN(store.add_metric(1, "s", 0, "k", -1, 1.0), StoreError);
    }
    QCOMPARE(store_test::file_sha256(path), before);
  }

  void path_is_a_directory() {
    const std::string dir = store_test::fresh_dir("open-isdir");
    const Refusal refusal = refusal_of(dir, OpenMode::ReadWrite);
    QVERIFY2(refusal.kind == StoreErrorKind::Io, refusal.message.c_str());
    QVERIFY2(contains(refusal.message, "is a directory"), refusal.message.c_str());
  }
};

ADALA_TEST_GUILESS_MAIN(TestStoreOpenErrors)
}  // namespace test_store_open_errors

#include "test_store_open_errors.moc"
