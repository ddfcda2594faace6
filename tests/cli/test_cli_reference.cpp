// docs/cli-reference.md against `adala cli-reference`: the checked-in reference is what the
// built binary generates from its commands' own --help, the same on every machine and terminal.
#include <QtTest/QtTest>

#include <algorithm>

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_cli_reference {

namespace {

using Result = adala_test::AdalaResult;
using adala_test::run_adala;

const char* const kOutOfDate = "docs/cli-reference.md is out of date: run scripts/cli-reference.sh";

QString checked_in_reference() {
  QFile file(QStringLiteral(ADALA_SOURCE_DIR "/docs/cli-reference.md"));
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

// The document by heading ("## adala runs", "### adala runs list"; "" for what comes before
// the first), in order; a '#' inside a code block is no heading.
QList<QPair<QString, QString>> sections(const QString& text) {
  QList<QPair<QString, QString>> result{{QString(), QString()}};
  bool in_code = false;
  for (const QString& line : text.split('\n')) {
    if (line.startsWith(QLatin1String("```"))) in_code = !in_code;
    if (!in_code && line.startsWith('#'))
      result.append({line, QString()});
    else
      result.last().second += line + '\n';
  }
  return result;
}

QStringList headings(const QList<QPair<QString, QString>>& document) {
  QStringList result;
  for (const auto& section : document) result << section.first;
  return result;
}

// "line N: checked-in | generated", where the two first differ.
QString first_difference(const QString& checked_in, const QString& generated) {
  const QStringList a = checked_in.split('\n'), b = generated.split('\n');
  for (int i = 0; i < std::max(a.size(), b.size()); ++i) {
    const QString left = i < a.size() ? a[i] : QStringLiteral("(end)");
    const QString right = i < b.size() ? b[i] : QStringLiteral("(end)");
    if (left != right)
      return QStringLiteral("line %1:\n  docs/cli-reference.md: %2\n  adala cli-reference:   %3")
          .arg(i + 1)
          .arg(left, right);
  }
  return {};
}

Result run_adala_with(const QStringList& args, const QProcessEnvironment& environment) {
  QProcess p;
  p.setProcessEnvironment(environment);
  p.start(adala_test::adala_binary(), args);
  if (!p.waitForFinished(300000)) p.kill();
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestCliReference : public QObject {
  Q_OBJECT
 private slots:
  void checked_in_reference_is_current() {
    const Result r = run_adala({"cli-reference"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QString checked_in = checked_in_reference();
    QVERIFY2(!checked_in.isEmpty(), "docs/cli-reference.md is missing or empty");
    if (r.out == checked_in) return;
    const auto documented = sections(checked_in), generated = sections(r.out);
    QStringList missing;  // commands this build was compiled without
    for (const QString& heading : headings(documented))
      if (!headings(generated).contains(heading)) missing << heading;
    bool only_missing = !missing.isEmpty();
    for (const QString& heading : headings(generated))
      if (!headings(documented).contains(heading)) only_missing = false;
    if (!only_missing)
      QFAIL(qPrintable(QString(kOutOfDate) + "\n" + first_difference(checked_in, r.out)));
    // A build without OpenCV or segmentation: the commands it has must match (the title's
    // section and the overview list the commands, so they differ).
    const QRegularExpression command_heading(QStringLiteral("^#+ adala \\S"));
    for (const auto& [heading, body] : generated) {
      if (!command_heading.match(heading).hasMatch()) continue;
      for (const auto& [documented_heading, documented_body] : documented)
        if (documented_heading == heading && documented_body != body)
          QFAIL(qPrintable(QString(kOutOfDate) + "\n" + heading + ", " +
                           first_difference(documented_body, body)));
    }
    qInfo("not in this build, not checked: %s", qPrintable(missing.join(", ")));
  }

  // Another home, data folder and terminal width: the same text, none of the paths in it.
  void reference_is_the_same_on_every_machine() {
    const Result here = run_adala({"cli-reference"});
    QCOMPARE(here.code, 0);
    QTemporaryDir dir(QStringLiteral(ADALA_TEST_TMP "/cli-reference-XXXXXX"));
    QVERIFY(dir.isValid());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOME"), dir.path() + "/home");
    environment.insert(QStringLiteral("XDG_DATA_HOME"), dir.path() + "/data");
    environment.insert(QStringLiteral("COLUMNS"), QStringLiteral("40"));
    const Result there = run_adala_with({"cli-reference"}, environment);
    QCOMPARE(there.code, 0);
    QVERIFY2(there.out == here.out, qPrintable(first_difference(here.out, there.out)));
    QVERIFY2(!there.out.contains(dir.path()), qPrintable(there.out));
    QVERIFY(there.out.contains(QLatin1String("(default: ~/.local/share/adala/runs.sqlite)")));
  }

  void reference_has_every_command_and_its_subcommands() {
    const Result r = run_adala({"cli-reference"});
    QCOMPARE(r.code, 0);
    const QStringList listed = headings(sections(r.out));
    for (const char* heading :
         {"# `adala` command-line reference", "## adala", "## adala info", "## adala run",
          "## adala bench", "### adala bench scaling", "### adala bench attention", "## adala runs",
          "### adala runs list", "### adala runs bench", "## adala report"})
      QVERIFY2(listed.contains(QLatin1String(heading)), heading);
    QVERIFY(
        r.out.contains(QLatin1String("generated by `adala cli-reference`"), Qt::CaseInsensitive));
    // Each section holds the command's own --help, word for word.
    const Result scaling = run_adala({"bench", "scaling", "--help"});
    QCOMPARE(scaling.code, 0);
    QVERIFY(r.out.contains(QLatin1String("Usage: adala bench scaling [OPTIONS]")));
    QVERIFY(r.out.contains(scaling.out.section('\n', 0, 2)));
    // Its own --help; anything else is refused as with every command.
    QCOMPARE(run_adala({"cli-reference", "--help"}).code, 0);
    QCOMPARE(run_adala({"cli-reference", "extra"}).code, 2);
  }
};

ADALA_TEST_GUILESS_MAIN(TestCliReference)
}  // namespace test_cli_reference

#include "test_cli_reference.moc"
