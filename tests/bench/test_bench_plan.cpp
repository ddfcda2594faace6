// `adala bench stage2 --plan / --softmax-blocks / --window` (and bench scaling's, read by the
// same function): a hybrid student's Stage 2 step is timed as the "plan" mode, the plan named
// in the table; plans that do not fit the preset, or conflict, are refused naming the option.
#include <QtTest/QtTest>

#include <QRegularExpression>

#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_bench_plan {

namespace {

using Result = adala_test::AdalaResult;
using adala_test::run_adala;

// The quick form of a benchmark on fmnist_micro (2 blocks, 28 px): one step, in this process.
QStringList stage2(const QStringList& extra) {
  return QStringList{
             "bench", "stage2",   "--preset",    "fmnist_micro", "--res", "28",       "--batch",
             "2",     "--rounds", "1",           "--repeats",    "1",     "--warmup", "0",
             "--db",  "none",     "--in-process"} +
         extra;
}

// The table's row of a mode: "plan  12.3  ..." with a time, not a failure note.
bool hasTimedRow(const QString& out, const QString& mode) {
  const QRegularExpression row(QStringLiteral("^%1 +[0-9]+\\.[0-9] ").arg(mode),
                               QRegularExpression::MultilineOption);
  return row.match(out).hasMatch();
}

}  // namespace

class TestBenchPlan : public QObject {
  Q_OBJECT
 private slots:
  void stage2_times_a_hybrid_student() {
    Result r = run_adala(stage2({"--modes", "softmax", "--plan", "softmax,window+linear"}));
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("plan: 2 blocks: softmax, window+linear (k = 3)"), qPrintable(r.out));
    QVERIFY2(hasTimedRow(r.out, "softmax"), qPrintable(r.out));
    QVERIFY2(hasTimedRow(r.out, "plan"), qPrintable(r.out));
    QVERIFY2(!hasTimedRow(r.out, "linear"), qPrintable(r.out));  // not asked for

    // --softmax-blocks: those softmax, the others linear; "plan" may be named in --modes.
    r = run_adala(stage2({"--modes", "plan", "--softmax-blocks", "1"}));
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("plan: 2 blocks: linear, softmax\n"), qPrintable(r.out));
    QVERIFY2(hasTimedRow(r.out, "plan"), qPrintable(r.out));
    QVERIFY2(!hasTimedRow(r.out, "softmax"), qPrintable(r.out));

    // The window's k reaches the plan.
    r = run_adala(stage2({"--modes", "linear", "--plan", "window+linear,linear", "--window", "5"}));
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("plan: 2 blocks: window+linear, linear (k = 5)"), qPrintable(r.out));
    QVERIFY2(hasTimedRow(r.out, "linear") && hasTimedRow(r.out, "plan"), qPrintable(r.out));
  }

  void stage2_refuses_a_plan_that_does_not_fit() {
    const std::pair<QStringList, QString> bad[] = {
        {{"--plan", "softmax,linear,linear"}, "--plan: 3 modes, fmnist_micro has 2 blocks"},
        {{"--softmax-blocks", "2"}, "--softmax-blocks: block 2 is not in 0..1 (fmnist_micro)"},
        {{"--plan", "softmax,linear", "--softmax-blocks", "0"},
         "give either --plan or --softmax-blocks"},
        {{"--modes", "softmax,plan"}, "--modes: \"plan\" needs --plan or --softmax-blocks"},
        {{"--plan", "window+linear,linear", "--window", "4"}, "--window: "},
        {{"--plan", "softmax,quadratic"}, "--plan"},
        {{"--modes", "window-linear"}, "--modes"},
    };
    for (const auto& [args, expected] : bad) {
      const Result r = run_adala(stage2(args));
      QVERIFY2(r.code == 2, qPrintable(args.join(' ') + ": " + r.err));
      QVERIFY2(r.err.contains(expected), qPrintable(args.join(' ') + ": " + r.err));
      QVERIFY2(!r.out.contains("ms/step"), qPrintable(r.out));  // nothing ran
    }
  }

  // bench scaling reads the same options the same way.
  void scaling_reads_the_same_options() {
    Result r = run_adala(
        {"bench",     "scaling", "--preset",         "vit_tiny", "--res",        "32",
         "--modes",   "linear",  "--softmax-blocks", "0,11",     "--rounds",     "1",
         "--repeats", "1",       "--warmup",         "0",        "--in-process", "--no-count",
         "--db",      "none"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(QRegularExpression(QStringLiteral("(^| )plan "), QRegularExpression::MultilineOption)
                 .match(r.out)
                 .hasMatch(),
             qPrintable(r.out));
    r = run_adala(
        {"bench", "scaling", "--preset", "vit_tiny", "--softmax-blocks", "12", "--db", "none"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--softmax-blocks: block 12 is not in 0..11 (vit_tiny)"),
             qPrintable(r.err));
  }
};

ADALA_TEST_GUILESS_MAIN(TestBenchPlan)
}  // namespace test_bench_plan

#include "test_bench_plan.moc"
