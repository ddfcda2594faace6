#include "app/gui/qt_event_sink.h"

#include "app/gui/job_source.h"

namespace adala::gui {

using namespace adala::widgets;

StepUpdate QtEventSink::convert(const StepMetrics& m) {
  StepUpdate u;
  u.stage = QString::fromStdString(m.stage);
  u.step = m.step;
  u.totalSteps = m.total_steps;
  u.epoch = m.epoch;
  u.loss = m.loss;
  u.lr = m.lr;
  u.imagesPerSecond = m.images_per_second;
  u.etaSeconds = m.eta_seconds;
  u.dataWaitShare = m.data_wait_share;
  u.perBlockMse = QVector<double>(m.per_block_mse.begin(), m.per_block_mse.end());
  for (const auto& [k, v] : m.extra) u.extra.insert(QString::fromStdString(k), v);
  return u;
}

EvalUpdate QtEventSink::convert(const EvalMetrics& e) {
  return EvalUpdate{QString::fromStdString(e.stage), QString::fromStdString(e.key), e.value};
}

StageUpdate QtEventSink::convert(const StageEvent& s) {
  StageUpdate u;
  u.stage = QString::fromStdString(s.stage);
  u.kind = static_cast<StageUpdate::Kind>(static_cast<int>(s.kind));
  u.totalSteps = s.total_steps;
  u.step = s.step;
  u.seconds = s.seconds;
  u.message = QString::fromStdString(s.message);
  return u;
}

ArtifactUpdate QtEventSink::convert(const ArtifactEvent& a) {
  return ArtifactUpdate{QString::fromStdString(a.stage), QString::fromStdString(a.kind),
                        QString::fromStdString(a.path)};
}

LogLine QtEventSink::convert(const LogEvent& l) {
  return LogLine{static_cast<LogLine::Level>(static_cast<int>(l.level)),
                 QString::fromStdString(l.message)};
}

void QtEventSink::flush() {
  if (pending_.isEmpty()) return;
  QVector<StepUpdate> batch;
  batch.swap(pending_);
  lastEmit_ = std::chrono::steady_clock::now();
  emit source_->steps(batch);
}

void QtEventSink::on_event(const Event& event) {
  if (const auto* m = std::get_if<StepMetrics>(&event)) {
    pending_.push_back(convert(*m));
    if (std::chrono::steady_clock::now() - lastEmit_ >= interval_) flush();
    return;
  }
  flush();
  if (const auto* e = std::get_if<EvalMetrics>(&event)) {
    emit source_->evaluation(convert(*e));
  } else if (const auto* s = std::get_if<StageEvent>(&event)) {
    emit source_->stageChanged(convert(*s));
  } else if (const auto* a = std::get_if<ArtifactEvent>(&event)) {
    emit source_->artifact(convert(*a));
  } else if (const auto* l = std::get_if<LogEvent>(&event)) {
    emit source_->log(convert(*l));
  }
}

}  // namespace adala::gui
