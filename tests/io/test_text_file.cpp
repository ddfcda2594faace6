#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "engine/io/text_file.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_text_file {

namespace fs = std::filesystem;
using adala::read_text;
using adala::write_text;

namespace {

fs::path fresh_dir(const char* name) {
  const fs::path dir = fs::path(ADALA_TEST_TMP) / "text_file" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The message of the std::runtime_error `f` throws; empty when it throws nothing.
template <class F>
QString error_of(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestTextFile : public QObject {
  Q_OBJECT
 private slots:
  void round_trips_bytes() {
    const std::string path = (fresh_dir("round_trip") / "doc.json").string();
    const std::string text = std::string("{\"a\": 1}\r\n\xc3\xa9") + '\0' + "tail";
    write_text(path, text);
    QCOMPARE(read_text(path), text);
    write_text(path, "short");  // replaces, never appends
    QCOMPARE(read_text(path), std::string("short"));
    write_text(path, "");
    QCOMPARE(read_text(path), std::string());
    QVERIFY(!fs::exists(path + ".tmp"));
  }

  void failed_write_keeps_the_old_content() {
    const fs::path dir = fresh_dir("atomic");
    const std::string path = (dir / "stages.json").string();
    write_text(path, "old");
    fs::create_directory(path + ".tmp");  // the temporary file cannot be created
    const QString error = error_of([&] { write_text(path, "new"); });
    QVERIFY2(error.contains(QString::fromStdString(path)), qPrintable(error));
    QCOMPARE(read_text(path), std::string("old"));
  }

  void failed_rename_keeps_the_old_content_and_no_temporary() {
    const fs::path dir = fresh_dir("rename");
    const std::string path = (dir / "index.json").string();
    fs::create_directories(fs::path(path) / "occupied");  // a non-empty directory is in the way
    const QString error = error_of([&] { write_text(path, "new"); });
    QVERIFY2(error.startsWith("cannot write " + QString::fromStdString(path)), qPrintable(error));
    QVERIFY(fs::is_directory(fs::path(path) / "occupied"));
    QVERIFY(!fs::exists(path + ".tmp"));
  }

  void errors_name_the_path() {
    const fs::path dir = fresh_dir("errors");
    const std::string missing_dir = (dir / "no_such_dir" / "summary.md").string();
    QString error = error_of([&] { write_text(missing_dir, "x"); });
    QVERIFY2(error.startsWith("cannot write " + QString::fromStdString(missing_dir)),
             qPrintable(error));
    const std::string missing = (dir / "absent.json").string();
    error = error_of([&] { (void)read_text(missing); });
    QCOMPARE(error, "cannot read " + QString::fromStdString(missing));
    error = error_of([&] { (void)read_text(dir.string()); });
    QCOMPARE(error, "cannot read " + QString::fromStdString(dir.string()));
  }
};

ADALA_TEST_GUILESS_MAIN(TestTextFile)
}  // namespace test_text_file

#include "test_text_file.moc"
