#include "widgets/runs/job_status.h"

#include <QCoreApplication>

#include <array>

namespace adala::widgets {

namespace {

using store::RunStatus;

struct JobStatusEntry {
  JobStatus status;
  std::optional<RunStatus> stored;  // the database's status, when it has one
  const char* name;                 // spelled as the database spells it
  const char* text;                 // shown (translated in context kContext)
};

constexpr const char* kContext = "adala::widgets::JobStatus";

// The one table of job states. lupdate reads the shown words here (QT_TRANSLATE_NOOP).
constexpr std::array<JobStatusEntry, 7> kJobStatuses{{
    {JobStatus::Queued, RunStatus::Queued, store::run_status_name(RunStatus::Queued),
     QT_TRANSLATE_NOOP("adala::widgets::JobStatus", "queued")},
    {JobStatus::Running, RunStatus::Running, store::run_status_name(RunStatus::Running),
     QT_TRANSLATE_NOOP("adala::widgets::JobStatus", "running")},
    {JobStatus::Paused, std::nullopt, "paused",
     QT_TRANSLATE_NOOP("adala::widgets::JobStatus", "paused")},
    {JobStatus::Done, RunStatus::Done, store::run_status_name(RunStatus::Done),
     QT_TRANSLATE_NOOP("adala::widgets::JobStatus", "done")},
    {JobStatus::Interrupted, RunStatus::Interrupted, store::run_status_name(RunStatus::Interrupted),
     QT_TRANSLATE_NOOP("adala::widgets::JobStatus", "interrupted")},
    {JobStatus::Failed, RunStatus::Failed, store::run_status_name(RunStatus::Failed),
     QT_TRANSLATE_NOOP("adala::widgets::JobStatus", "failed")},
    {JobStatus::Cancelled, std::nullopt, "cancelled",
     QT_TRANSLATE_NOOP("adala::widgets::JobStatus", "cancelled")},
}};

constexpr bool tableIsInEnumOrder() {
  for (size_t i = 0; i < kJobStatuses.size(); ++i)
    if (static_cast<size_t>(kJobStatuses[i].status) != i) return false;
  return true;
}
static_assert(tableIsInEnumOrder(), "kJobStatuses is indexed by JobStatus");

constexpr bool everyRunStatusHasItsEntry() {
  for (RunStatus s : {RunStatus::Queued, RunStatus::Running, RunStatus::Done, RunStatus::Failed,
                      RunStatus::Interrupted}) {
    int found = 0;
    for (const auto& e : kJobStatuses) found += e.stored == s;
    if (found != 1) return false;
  }
  return true;
}
static_assert(everyRunStatusHasItsEntry(), "each RunStatus is one job state");

const JobStatusEntry& entry(JobStatus status) { return kJobStatuses[static_cast<size_t>(status)]; }

}  // namespace

const QList<JobStatus>& jobStatuses() {
  static const QList<JobStatus> all = [] {
    QList<JobStatus> list;
    for (const auto& e : kJobStatuses) list << e.status;
    return list;
  }();
  return all;
}

QString jobStatusName(JobStatus status) { return QString::fromLatin1(entry(status).name); }

std::optional<JobStatus> parseJobStatus(const QString& name) {
  for (const auto& e : kJobStatuses)
    if (name == QLatin1String(e.name)) return e.status;
  return std::nullopt;
}

QString jobStatusText(JobStatus status) {
  return QCoreApplication::translate(kContext, entry(status).text);
}

JobStatus jobStatusOf(RunStatus status) {
  for (const auto& e : kJobStatuses)
    if (e.stored == status) return e.status;
  return JobStatus::Failed;  // not reached: every RunStatus has its entry
}

std::optional<RunStatus> runStatusOf(JobStatus status) { return entry(status).stored; }

}  // namespace adala::widgets
