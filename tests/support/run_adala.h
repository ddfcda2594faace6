#pragma once
// Runs the built `adala` binary (ADALA_BINARY_DIR/bin/adala) for the suites that test the CLI
// as a user calls it: exit code, stdout and stderr.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace adala_test {

struct AdalaResult {
  int code = -1;  // -1 when the process crashed or had to be killed
  QString out, err;
};

// The binary, for suites that drive the process themselves (signals, reading while it runs).
inline QString adala_binary() { return QStringLiteral(ADALA_BINARY_DIR "/bin/adala"); }

inline AdalaResult run_adala(const QStringList& args) {
  QProcess p;
  p.start(adala_binary(), args);
  // A generous bound for a loaded machine: every call in these suites finishes in seconds.
  if (!p.waitForFinished(300000)) p.kill();
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace adala_test
