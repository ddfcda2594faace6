#pragma once
// A job's state as the workbench passes it between the engine, the controller and the views:
// the store's RunStatus (engine/store/run_status.h) for what a recorded run can be, and what
// only the workbench knows of a job: paused (held between two steps) and cancelled (ended
// before it started, so no run was recorded). One table (job_status.cpp) spells each state and
// holds its shown, translated word.
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

#include "engine/store/run_status.h"

namespace adala::widgets {

enum class JobStatus { Queued, Running, Paused, Done, Interrupted, Failed, Cancelled };

// Every state, in table order.
const QList<JobStatus>& jobStatuses();

// The state as spelled in the database ("done", ...; "paused", "cancelled"): never translated.
QString jobStatusName(JobStatus status);
// The state of that spelling, or nullopt.
std::optional<JobStatus> parseJobStatus(const QString& name);
// The word shown for the state, in the interface language ("done" -> "완료").
QString jobStatusText(JobStatus status);

// A recorded run's status as a job state, and back (nullopt for paused and cancelled, which the
// database does not hold).
JobStatus jobStatusOf(store::RunStatus status);
std::optional<store::RunStatus> runStatusOf(JobStatus status);

}  // namespace adala::widgets

Q_DECLARE_METATYPE(adala::widgets::JobStatus)
