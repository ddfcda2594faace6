// The `adala` binary's command line (CLI11): generated help, unknown options and values of the
// wrong type refused with exit code 2 and a message naming them, and `bench scaling --progress
// jsonl`, the event stream the workbench follows.
#include <QtTest/QtTest>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "engine/bench/scaling_csv.h"

#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_command_line {

namespace {

using Result = adala_test::AdalaResult;
using adala_test::run_adala;

}  // namespace

class TestCommandLine : public QObject {
  Q_OBJECT
 private slots:
  void help_lists_the_commands() {
    const Result r = run_adala({"--help"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("Commands:"), qPrintable(r.out));
    for (const char* command : {"info", "inspect-weights", "bench", "run", "ablate", "runs"})
      QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\n  %1 +\\S").arg(command))),
               qPrintable(QString(command) + " in:\n" + r.out));
    QVERIFY2(r.out.contains("--threads"), qPrintable(r.out));
    QCOMPARE(run_adala({}).code, 2);  // no command: the overview, and a usage error

    const Result runs = run_adala({"runs", "--help"});
    QCOMPARE(runs.code, 0);
    for (const char* sub :
         {"list", "show", "compare", "export", "delete", "tag", "note", "check", "bench"})
      QVERIFY2(runs.out.contains(QRegularExpression(QStringLiteral("\n  %1 +\\S").arg(sub))),
               qPrintable(QString(sub) + " in:\n" + runs.out));
    const Result scaling = run_adala({"bench", "scaling", "--help"});
    QCOMPARE(scaling.code, 0);
    for (const char* option : {"--res", "--modes", "--csv", "--progress", "--rounds", "--db"})
      QVERIFY2(scaling.out.contains(option), qPrintable(QString(option) + " in:\n" + scaling.out));
    QVERIFY2(scaling.out.contains("224,448,672,1024,2048"), qPrintable(scaling.out));  // a default
  }

  void unknown_option_is_refused() {
    Result r = run_adala({"runs", "list", "--step-ms", "3", "--db", "/nonexistent/runs.sqlite"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("adala runs: ") && r.err.contains("--step-ms") &&
                 r.err.contains("not expected here: --step-ms 3") &&
                 r.err.contains("adala runs list --help"),
             qPrintable(r.err));
    r = run_adala({"info", "--frobnicate"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--frobnicate"), qPrintable(r.err));
    r = run_adala({"bench", "scaling", "--modes", "softmax,quadratic", "--db", "none"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--modes") && r.err.contains("quadratic"), qPrintable(r.err));
    r = run_adala({"frobnicate"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("unknown command \"frobnicate\""), qPrintable(r.err));
  }

  void non_number_is_refused() {
    Result r = run_adala({"info", "--threads", "abc"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--threads") && r.err.contains("abc"), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());  // info did not run
    QVERIFY2(r.err.contains("\"abc\" is not a number"), qPrintable(r.err));
    r = run_adala({"info", "--threads=-1"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--threads"), qPrintable(r.err));
    r = run_adala({"bench", "scaling", "--res", "224,abc", "--db", "none"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--res") && r.err.contains("abc"), qPrintable(r.err));
    r = run_adala({"bench", "scaling", "--rounds", "0", "--db", "none"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--rounds"), qPrintable(r.err));
    r = run_adala({"runs", "bench", "--metrics", "1e3x"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--metrics") && r.err.contains("1e3x"), qPrintable(r.err));
    // --threads anywhere on the line, as before.
    r = run_adala({"info", "--threads", "1"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("intra-op threads 1"), qPrintable(r.out));
    r = run_adala({"--threads", "1", "info"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("intra-op threads 1"), qPrintable(r.out));
  }

  // Every value that used to mean "all cores" or an absurd pool is refused before the command
  // runs; above 4 x the cores only with --force-threads.
  void threads_are_positive_and_bounded() {
    for (const QString& bad :
         {QStringLiteral("0"), QStringLiteral("-3"), QStringLiteral("abc"), QStringLiteral("2abc"),
          QString(), QStringLiteral("99999999999"), QStringLiteral("1.5")}) {
      const Result r = run_adala({"info", "--threads", bad});
      QVERIFY2(r.code == 2, qPrintable(bad + ": " + r.err));
      QVERIFY2(r.err.contains("--threads"), qPrintable(bad + ": " + r.err));
      QVERIFY2(r.out.isEmpty(), qPrintable(bad));
    }
    // The bound the binary states (4 x its count of cores) holds exactly.
    Result r = run_adala({"info", "--threads", "100000"});
    QCOMPARE(r.code, 2);
    const auto match = QRegularExpression(QStringLiteral("at most (\\d+);")).match(r.err);
    QVERIFY2(match.hasMatch() && r.err.contains("--force-threads"), qPrintable(r.err));
    const int limit = match.captured(1).toInt();
    QVERIFY2(limit >= 4 && limit % 4 == 0, qPrintable(r.err));
    r = run_adala({"info", "--threads", QString::number(limit + 1)});
    QCOMPARE(r.code, 2);
    r = run_adala({"info", "--threads", QString::number(limit + 1), "--force-threads"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("intra-op threads %1").arg(limit + 1)),
             qPrintable(r.out));
    r = run_adala({"info", "--threads", QString::number(limit)});
    QCOMPARE(r.code, 0);
  }

  // Bad input to `adala run` is a plain message naming the thing, before any run folder or
  // run row exists.
  void run_refuses_bad_input_before_recording() {
    const QString dir = QStringLiteral(ADALA_TEST_TMP "/cli-run-inputs");
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    const QString db = dir + "/runs.sqlite";
    const QString runs = dir + "/runs";
    auto config = [&](const QString& name, const QString& model) {
      const QString path = dir + "/" + name + ".json";
      QFile f(path);
      f.open(QIODevice::WriteOnly);
      f.write(
          QStringLiteral("{\"name\": \"%1\", \"model\": %2, \"output\": {\"runs_dir\": \"%3\"}}")
              .arg(name, model, runs)
              .toUtf8());
      return path;
    };
    const QString good = config("good", QStringLiteral("{\"preset\": \"fmnist_micro\"}"));
    Result r = run_adala({"run", good, "--stages", "1,1", "--db", db});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--stages: stage 1 is listed twice"), qPrintable(r.err));
    r = run_adala({"run", dir, "--db", db});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(dir + ": is a folder, not a config file"), qPrintable(r.err));
    if (QFileInfo::exists(QStringLiteral("/usr/share/datasets/fashion-mnist"))) {
      const struct {
        const char* name;
        const char* model;
        const char* expected;
      } cases[] = {
          {"chans", R"({"preset": "fmnist_micro", "in_chans": 3})", "model.in_chans: 3, but"},
          {"classes", R"({"preset": "fmnist_micro", "num_classes": 5})",
           "model.num_classes: 5, but Fashion-MNIST has 10 classes"},
          {"patch", R"({"preset": "fmnist_micro", "patch_size": 5})",
           "model.patch_size: 5 does not divide img_size 28"},
      };
      for (const auto& c : cases) {
        r = run_adala({"run", config(c.name, c.model), "--stages", "0", "--db", db});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(c.expected), qPrintable(r.err));
        QVERIFY2(!r.err.contains("c10") && !r.err.contains("Exception raised from"),
                 qPrintable(r.err));
      }
    }
    QVERIFY(!QFileInfo::exists(db));    // no run row, not even a database
    QVERIFY(!QFileInfo::exists(runs));  // no run folder
  }

  // One tiny point: the events in order, each line one JSON object, and the CSV they name.
  void bench_scaling_writes_jsonl_progress() {
    const QString csv = QStringLiteral(ADALA_TEST_TMP "/cli-jsonl.csv");
    QFile::remove(csv);
    const Result r =
        run_adala({"bench",    "scaling", "--preset",     "vit_tiny",   "--res",     "32,48",
                   "--modes",  "linear",  "--rounds",     "1",          "--repeats", "1",
                   "--warmup", "0",       "--in-process", "--no-count", "--db",      "none",
                   "--csv",    csv,       "--progress",   "jsonl"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("wrote " + csv), qPrintable(r.out));  // the table stays on stdout
    QVERIFY2(!r.out.contains("\"event\""), qPrintable(r.out));
    QVector<QJsonObject> events;
    for (const QString& line : r.err.split('\n', Qt::SkipEmptyParts)) {
      if (!line.startsWith('{')) continue;  // the busy-machine warning and such
      QJsonParseError error;
      const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8(), &error);
      QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(), qPrintable(line));
      events << doc.object();
    }
    QStringList names;
    for (const auto& e : events) names << e.value("event").toString();
    // Each resolution's points as soon as they are measured (the workbench plots them live).
    QCOMPARE(names, (QStringList{"start", "progress", "point", "progress", "point", "progress",
                                 "csv", "done"}));
    for (int i : {2, 4}) {
      const QJsonObject row = events[i].value("row").toObject();
      QCOMPARE(row.value("resolution").toString(), QString(i == 2 ? "32" : "48"));
      QCOMPARE(row.value("mode").toString(), QString("linear"));
      const double lo = row.value("ms_per_img_min").toString().toDouble();
      const double mid = row.value("ms_per_img").toString().toDouble();
      const double hi = row.value("ms_per_img_max").toString().toDouble();
      QVERIFY2(lo > 0 && lo <= mid && mid <= hi, qPrintable(QJsonDocument(row).toJson()));
      QVERIFY(row.value("load_1m").toString().toDouble() >= 0);
      QVERIFY(!row.value("load_1m").toString().isEmpty());
    }
    events.remove(4);
    events.remove(2);
    QCOMPARE(events[0].value("total").toInt(), 2);
    QCOMPARE(events[0].value("preset").toString(), QString("vit_tiny"));
    QCOMPARE(events[0].value("resolutions").toArray(), (QJsonArray{32, 48}));
    QCOMPARE(events[0].value("modes").toArray(), (QJsonArray{"linear"}));
    QCOMPARE(events[1].value("done").toInt(), 0);
    QCOMPARE(events[1].value("label").toString(), QString("32px linear"));
    QCOMPARE(events[2].value("done").toInt(), 1);
    QCOMPARE(events[2].value("label").toString(), QString("48px linear"));
    QCOMPARE(events[3].value("done").toInt(), 2);
    QCOMPARE(events[3].value("total").toInt(), 2);
    QCOMPARE(events[3].value("label").toString(), QString());
    QCOMPARE(events[4].value("path").toString(), csv);
    QCOMPARE(events[5].value("points").toInt(), 2);
    QVERIFY(events[5].value("run_id").isNull());  // --db none

    const auto rows = adala::load_scaling_csv(csv.toStdString());
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[1].resolution, int64_t(48));
    QCOMPARE(rows[1].tokens, int64_t(10));  // (48/16)^2 + cls
    QVERIFY(rows[1].ran && rows[1].ms_per_img > 0);
  }

  void bench_scaling_reports_an_error_event() {
    const Result r =
        run_adala({"bench",      "scaling", "--preset", "vit_tiny", "--res",
                   "32",         "--modes", "linear",   "--rounds", "1",
                   "--repeats",  "1",       "--warmup", "0",        "--in-process",
                   "--no-count", "--db",    "none",     "--csv",    "/nonexistent/dir/x.csv",
                   "--progress", "jsonl"});
    QCOMPARE(r.code, 1);
    const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
    QJsonObject error;
    for (const QString& line : lines)
      if (line.startsWith('{')) error = QJsonDocument::fromJson(line.toUtf8()).object();
    QCOMPARE(error.value("event").toString(), QString("error"));
    QVERIFY2(error.value("message").toString().contains("/nonexistent/dir/x.csv"),
             qPrintable(r.err));
    QVERIFY2(r.err.contains("adala bench: error: "), qPrintable(r.err));
  }
};

ADALA_TEST_GUILESS_MAIN(TestCommandLine)
}  // namespace test_command_line

#include "test_command_line.moc"
