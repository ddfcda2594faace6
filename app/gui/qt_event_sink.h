#pragma once
// Engine events -> Qt value types, on the engine thread. Step metrics are batched and
// emitted at most every `interval` (and before any other event, so order is kept); every
// other event is emitted at once. Emitting goes through the job source's signals
// (app/gui/job_source.h), which Qt queues to the GUI thread.
#include <QVector>

#include <chrono>

#include "engine/train/events.h"
#include "widgets/runs/run_types.h"

namespace adala::gui {

class JobSource;

class QtEventSink : public EventSink {
 public:
  explicit QtEventSink(JobSource* source,
                       std::chrono::milliseconds interval = std::chrono::milliseconds(50))
      : source_(source), interval_(interval) {}
  void on_event(const Event& event) override;
  void flush();  // emits the pending steps now

  // The engine's events as the views receive them (also for runs in other processes,
  // app/gui/run_process.h).
  static adala::widgets::StepUpdate convert(const StepMetrics& m);
  static adala::widgets::EvalUpdate convert(const EvalMetrics& e);
  static adala::widgets::StageUpdate convert(const StageEvent& s);
  static adala::widgets::ArtifactUpdate convert(const ArtifactEvent& a);
  static adala::widgets::LogLine convert(const LogEvent& l);

 private:
  JobSource* source_;
  std::chrono::milliseconds interval_;
  QVector<adala::widgets::StepUpdate> pending_;
  std::chrono::steady_clock::time_point lastEmit_{};
};

}  // namespace adala::gui
