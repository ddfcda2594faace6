// The job states' one table (widgets/runs/job_status.h): every state spelled once and read back,
// the recorded ones as the database spells them (engine/store/run_status.h), and shown in the
// interface language.
#include <QSet>
#include <QtTest/QtTest>

#include "tests/gui/gui_test_support.h"
#include "tests/support/test_suite.h"
#include "widgets/runs/job_status.h"
#include "widgets/runs/run_types.h"
#include "app/i18n/language.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_job_status {

using namespace adala;
using namespace adala::widgets;
using store::RunStatus;

namespace {

constexpr RunStatus kRunStatuses[] = {RunStatus::Queued, RunStatus::Running, RunStatus::Done,
                                      RunStatus::Failed, RunStatus::Interrupted};

}  // namespace

class TestGuiJobStatus : public QObject {
  Q_OBJECT
 private slots:
  void every_state_reads_back_from_its_name() {
    QCOMPARE(jobStatuses().size(), 7);
    QSet<QString> names;
    for (JobStatus status : jobStatuses()) {
      const QString name = jobStatusName(status);
      QVERIFY(!name.isEmpty());
      QVERIFY2(!names.contains(name), qPrintable(name));
      names.insert(name);
      QCOMPARE(parseJobStatus(name), status);
    }
    QCOMPARE(parseJobStatus(QStringLiteral("paused")), JobStatus::Paused);
    QCOMPARE(parseJobStatus(QStringLiteral("cancelled")), JobStatus::Cancelled);
    for (const char* unknown : {"", "Done", "stopped", "done "})
      QCOMPARE(parseJobStatus(QString::fromLatin1(unknown)), std::nullopt);
  }

  void recorded_states_are_the_databases() {
    for (RunStatus recorded : kRunStatuses) {
      const JobStatus status = jobStatusOf(recorded);
      QCOMPARE(runStatusOf(status), recorded);
      QCOMPARE(jobStatusName(status), QString::fromLatin1(store::run_status_name(recorded)));
    }
    // What only a job can be: the database has no such status.
    QCOMPARE(runStatusOf(JobStatus::Paused), std::nullopt);
    QCOMPARE(runStatusOf(JobStatus::Cancelled), std::nullopt);
    QCOMPARE(store::parse_run_status("paused"), std::nullopt);
    QCOMPARE(store::parse_run_status("cancelled"), std::nullopt);
  }

  void shown_words_follow_the_interface_language() {
    for (JobStatus status : jobStatuses()) QCOMPARE(jobStatusText(status), jobStatusName(status));
    QCOMPARE(i18n::install_translator(*qApp, QStringLiteral("ko")), QStringLiteral("ko"));
    QCOMPARE(jobStatusText(JobStatus::Done), QStringLiteral("완료"));
    QCOMPARE(jobStatusText(JobStatus::Paused), QStringLiteral("일시 정지됨"));
    QSet<QString> words;
    for (JobStatus status : jobStatuses()) {
      const QString word = jobStatusText(status);
      QVERIFY2(word != jobStatusName(status), qPrintable(word));  // every one translated
      words.insert(word);
    }
    QCOMPARE(words.size(), jobStatuses().size());
    i18n::install_translator(*qApp, QStringLiteral("en"));
    QCOMPARE(jobStatusText(JobStatus::Done), QStringLiteral("done"));
  }

  void a_job_state_keeps_its_status_through_a_variant() {
    JobState state;
    QCOMPARE(state.status, JobStatus::Queued);
    state.status = JobStatus::Interrupted;
    const QVariant v = QVariant::fromValue(state);
    QCOMPARE(v.value<JobState>().status, JobStatus::Interrupted);
  }
};

ADALA_TEST_GUILESS_MAIN(TestGuiJobStatus)
}  // namespace test_gui_job_status

#include "test_gui_job_status.moc"
