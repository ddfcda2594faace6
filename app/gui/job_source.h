#pragma once
// What runs the workbench's jobs and reports them: the engine worker in this process
// (app/gui/engine_worker.h) and `adala run --nproc N` as a child process (app/gui/run_process.h)
// both report through these signals, and EngineController follows either the same way
// (EngineController::follow). No torch type in this header.
#include <QObject>
#include <QVector>

#include "widgets/runs/run_types.h"

namespace adala::gui {

class JobSource : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

 signals:
  // Recorded (state.runId, in state.runDir) and running: once, before the job's stages, steps,
  // evaluations and artifacts. A job that ends before it is recorded never starts.
  void jobStarted(const adala::widgets::JobState& state);
  // Over, whatever the end (state.status, state.message): the job's last signal.
  void jobFinished(const adala::widgets::JobState& state);
  void steps(const QVector<adala::widgets::StepUpdate>& steps);  // in batches
  void stageChanged(const adala::widgets::StageUpdate& update);
  void evaluation(const adala::widgets::EvalUpdate& update);
  void artifact(const adala::widgets::ArtifactUpdate& update);
  void log(const adala::widgets::LogLine& line);
};

}  // namespace adala::gui
