#pragma once
// The suites share one executable, adala_tests (tests/CMakeLists.txt): each suite registers its
// Qt Test class under its file's base name with ADALA_TEST_MAIN (an application as QTEST_MAIN
// makes it), ADALA_TEST_GUILESS_MAIN (a QCoreApplication) or ADALA_TEST_APPLESS_MAIN (none),
// instead of defining main(). ctest runs
// `adala_tests <suite> [Qt Test arguments]`; tests/support/test_main.cpp picks the suite.
#include <QtTest/QtTest>

namespace adala::test {

// A suite's own main, given the arguments after the suite's name (argv[0] kept).
using SuiteMain = int (*)(int argc, char** argv);

// Registers `main` as the suite named by `file`'s base name ("tests/io/test_json.cpp" ->
// "test_json"). Returns true, so that a namespace-scope constant can call it.
bool register_suite(const char* file, SuiteMain main);

}  // namespace adala::test

// Names unique within one translation unit: a unity build (ADALA_UNITY_BUILD) compiles several
// suites in one.
#define ADALA_TEST_CONCAT_(a, b) a##b
#define ADALA_TEST_CONCAT(a, b) ADALA_TEST_CONCAT_(a, b)

// The body of Qt's QTEST_MAIN_WRAPPER (QtTest/qtest.h) in a registered function.
#define ADALA_TEST_MAIN_WITH(TestObject, ...) \
  ADALA_TEST_MAIN_NAMED(TestObject, ADALA_TEST_CONCAT(adala_suite_main_, __COUNTER__), __VA_ARGS__)
#define ADALA_TEST_MAIN_NAMED(TestObject, function, ...)                 \
  namespace {                                                            \
  int function(int argc, char** argv) {                                  \
    QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();   \
    __VA_ARGS__                                                          \
    TestObject tc;                                                       \
    QTEST_SET_MAIN_SOURCE_PATH                                           \
    return QTest::qExec(&tc, argc, argv);                                \
  }                                                                      \
  [[maybe_unused]] const bool ADALA_TEST_CONCAT(function, _registered) = \
      adala::test::register_suite(__FILE__, function);                   \
  }

#define ADALA_TEST_MAIN(TestObject) ADALA_TEST_MAIN_WITH(TestObject, QTEST_MAIN_SETUP())
#define ADALA_TEST_GUILESS_MAIN(TestObject) \
  ADALA_TEST_MAIN_WITH(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
// No application object (QTEST_APPLESS_MAIN).
#define ADALA_TEST_APPLESS_MAIN(TestObject) ADALA_TEST_MAIN_WITH(TestObject, )
// A suite with its own main (e.g. one that re-runs itself as a worker process).
#define ADALA_TEST_CUSTOM_MAIN(function)                                                \
  namespace {                                                                           \
  [[maybe_unused]] const bool ADALA_TEST_CONCAT(adala_suite_registered_, __COUNTER__) = \
      adala::test::register_suite(__FILE__, function);                                  \
  }
