#pragma once
// Lives on the engine thread: runs one job at a time (run_pipeline), records it in the run
// database through its own read-write RunStore, and reports through signals (queued to the
// GUI thread). No torch type in this header.
#include <QObject>
#include <QString>

#include <memory>

#include "widgets/run_types.h"

namespace adala {
class JobControl;
}

namespace adala::gui {

// Raises the calling thread's nice value to `niceness` (Linux; no-op elsewhere).
void lowerCurrentThreadPriority(int niceness);

class EngineWorker : public QObject {
  Q_OBJECT
 public:
  explicit EngineWorker(QString dbPath) : dbPath_(std::move(dbPath)) {}

  // Runs on the engine thread (invoked queued); returns when the job is over.
  void run(qint64 jobId, const adala::widgets::StartRequest& request,
           std::shared_ptr<adala::JobControl> control);

 signals:
  void jobStarted(const adala::widgets::JobState& state);
  void jobFinished(const adala::widgets::JobState& state);
  void steps(const QVector<adala::widgets::StepUpdate>& steps);
  void stageChanged(const adala::widgets::StageUpdate& update);
  void evaluation(const adala::widgets::EvalUpdate& update);
  void artifact(const adala::widgets::ArtifactUpdate& update);
  void log(const adala::widgets::LogLine& line);

 private:
  QString dbPath_;
};

}  // namespace adala::gui
