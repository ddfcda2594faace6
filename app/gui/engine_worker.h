#pragma once
// Lives on the engine thread: runs one job at a time (run_pipeline), records it in the run
// database through its own read-write RunStore, and reports as a JobSource (app/gui/job_source.h;
// signals queued to the GUI thread). No torch type in this header.
#include <QString>

#include <memory>

#include "app/gui/job_source.h"
#include "widgets/runs/run_types.h"

namespace adala {
class JobControl;
}

namespace adala::gui {

// Raises the calling thread's nice value to `niceness` (Linux; no-op elsewhere).
void lowerCurrentThreadPriority(int niceness);

class EngineWorker : public JobSource {
  Q_OBJECT
 public:
  explicit EngineWorker(QString dbPath) : dbPath_(std::move(dbPath)) {}

  // Runs on the engine thread (invoked queued); returns when the job is over. Reports through
  // JobSource's signals (queued to the GUI thread).
  void run(qint64 jobId, const adala::widgets::StartRequest& request,
           std::shared_ptr<adala::JobControl> control);

 private:
  QString dbPath_;
};

}  // namespace adala::gui
