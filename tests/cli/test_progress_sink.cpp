// The CLI progress bar fed with events as a stage reports them: each line shows the data-wait
// share of its report, and the stage's end line the stage's mean, weighted by the steps each
// report covers.
#include <QtTest/QtTest>

#include <cstdio>
#include <string>

#include "app/cli/progress_sink.h"
#include "tests/support/test_suite.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_progress_sink {

using namespace adala;

namespace {

StepMetrics step(const std::string& stage, int64_t step, int64_t total, double share) {
  StepMetrics m;
  m.stage = stage;
  m.step = step;
  m.total_steps = total;
  m.loss = 0.5;
  m.lr = 1e-3;
  m.images_per_second = 100.0;
  m.eta_seconds = 3.0;
  m.data_wait_share = share;
  return m;
}

StageEvent stage_event(const std::string& stage, StageEvent::Kind kind, int64_t total, int64_t at) {
  StageEvent e;
  e.stage = stage;
  e.kind = kind;
  e.total_steps = total;
  e.step = at;
  e.seconds = 12.0;
  return e;
}

// Everything the sink wrote to a (non-terminal) file.
class Captured {
 public:
  Captured() : file_(std::tmpfile()), sink_(file_) {}
  ~Captured() { std::fclose(file_); }
  void feed(const Event& e) { sink_.on_event(e); }
  std::string text() {
    std::fflush(file_);
    std::rewind(file_);
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) out.append(buf, n);
    return out;
  }

 private:
  std::FILE* file_;
  cli::ProgressBarSink sink_;
};

QStringList lines(const std::string& text) {
  return QString::fromStdString(text).split('\n', Qt::SkipEmptyParts);
}

}  // namespace

class TestProgressSink : public QObject {
  Q_OBJECT
 private slots:
  void share_is_a_whole_percentage() {
    QCOMPARE(cli::format_share(0.0), std::string("0%"));
    QCOMPARE(cli::format_share(0.124), std::string("12%"));
    QCOMPARE(cli::format_share(0.125001), std::string("13%"));
    QCOMPARE(cli::format_share(1.0), std::string("100%"));
    QCOMPARE(cli::format_share(1.7), std::string("100%"));  // clamped
    QCOMPARE(cli::format_share(std::nan("")), std::string("--%"));
  }

  void each_line_shows_its_data_wait_share() {
    Captured c;
    c.feed(stage_event("teacher", StageEvent::Kind::Started, 20, 0));
    c.feed(step("teacher", 10, 20, 0.12));
    c.feed(step("teacher", 20, 20, 0.40));
    const QStringList out = lines(c.text());
    QCOMPARE(out.size(), 3);
    QVERIFY2(out[1].contains("data  12% ETA"), qPrintable(out[1]));
    QVERIFY2(out[2].contains("data  40% ETA"), qPrintable(out[2]));
  }

  // Reports at steps 4, 5 and 20 of a stage resumed at step 0: shares 0.5 (4 steps), 1.0 (1
  // step), 0.1 (15 steps) -> (2 + 1 + 1.5) / 20 = 22.5% -> "23%" (not the plain mean, 53%).
  void end_line_reports_the_stage_mean_weighted_by_steps() {
    Captured c;
    c.feed(stage_event("attention_alignment", StageEvent::Kind::Started, 20, 0));
    c.feed(step("attention_alignment", 4, 20, 0.5));
    c.feed(step("attention_alignment", 5, 20, 1.0));
    c.feed(step("attention_alignment", 20, 20, 0.1));
    c.feed(stage_event("attention_alignment", StageEvent::Kind::Finished, 20, 20));
    const QStringList out = lines(c.text());
    QVERIFY2(out.last().startsWith("== attention_alignment done in 00:12, data wait 23%"),
             qPrintable(out.last()));
  }

  // A resumed stage counts only the steps it ran; the next stage starts from zero again.
  void resumed_and_following_stages_start_afresh() {
    Captured c;
    c.feed(stage_event("teacher", StageEvent::Kind::Started, 10, 0));
    c.feed(step("teacher", 10, 10, 0.9));
    c.feed(stage_event("teacher", StageEvent::Kind::Finished, 10, 10));
    c.feed(stage_event("fine_tuning", StageEvent::Kind::Started, 10, 6));
    c.feed(step("fine_tuning", 8, 10, 0.3));
    c.feed(step("fine_tuning", 10, 10, 0.1));
    c.feed(stage_event("fine_tuning", StageEvent::Kind::Cancelled, 10, 10));
    const QStringList out = lines(c.text());
    QVERIFY2(out[2].contains("teacher done in 00:12, data wait 90%"), qPrintable(out[2]));
    // (0.3 * 2 + 0.1 * 2) / 4 = 20%
    QVERIFY2(out.last().contains("fine_tuning cancelled in 00:12, data wait 20%"),
             qPrintable(out.last()));
  }

  void a_stage_without_reports_has_no_mean() {
    Captured c;
    c.feed(stage_event("feature_alignment", StageEvent::Kind::Started, 10, 0));
    c.feed(stage_event("feature_alignment", StageEvent::Kind::Failed, 10, 0));
    const QStringList out = lines(c.text());
    QVERIFY2(out.last().startsWith("== feature_alignment failed in 00:12 "),
             qPrintable(out.last()));
    QVERIFY(!out.last().contains("data wait"));
  }
};

ADALA_TEST_APPLESS_MAIN(TestProgressSink)
}  // namespace test_progress_sink

#include "test_progress_sink.moc"
