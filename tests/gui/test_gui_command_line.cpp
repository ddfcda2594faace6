// The workbench's command line as a user types it: --help needs no display, and --open-run of
// a run the database does not have says so instead of "Showing run N".
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest/QtTest>

#include <filesystem>

#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_command_line {

namespace {

struct Finished {
  int code = -1;
  QString out, err;
};

Finished run_workbench(const QStringList& args, const QProcessEnvironment& env) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(ADALA_BINARY_DIR "/bin/adala-workbench"), args);
  p.waitForFinished(-1);
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestGuiCommandLine : public QObject {
  Q_OBJECT
 private slots:
  void help_needs_no_display() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
    for (const char* flag : {"--help", "--version"}) {
      const Finished f = run_workbench({flag}, env);
      QVERIFY2(f.code == 0, qPrintable(f.err));
      QVERIFY2(f.out.contains(std::string(flag) == "--help" ? "--open-run" : "Workbench"),
               qPrintable(f.out));
    }
  }

  void an_unknown_run_is_named_as_missing() {
    const std::string dir = adala_test::fresh_test_dir("gui-command-line", "open-run");
    const QString db = QString::fromStdString(dir + "/runs.sqlite");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("XDG_CONFIG_HOME", QString::fromStdString(dir));  // no saved window settings
    const Finished f = run_workbench({"--db", db, "--open-run", "999", "--quit-after", "0"}, env);
    QVERIFY2(f.code == 0, qPrintable(f.err));
    QVERIFY2(f.err.contains("adala-workbench: --open-run: There is no run 999 in " + db + "."),
             qPrintable(f.err));
  }
};

ADALA_TEST_GUILESS_MAIN(TestGuiCommandLine)
}  // namespace test_gui_command_line

#include "test_gui_command_line.moc"
