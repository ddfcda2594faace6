// A run from StageLauncher: Start, Pause and Cancel, the stages' progress bars (ETA, images/s,
// data wait, loss) and the run log.
#include "widgets/launch/stage_launcher.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>

#include <algorithm>
#include <cmath>

namespace adala::widgets {

namespace {

QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const qint64 s = static_cast<qint64>(std::llround(seconds));
  if (s >= 3600)
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

void StageLauncher::updateButtons() {
  startButton_->setEnabled(problem_.ok() && !running_);
  startButton_->setToolTip(problem_.ok()
                               ? tr("Start the selected stages (Ctrl+Return)")
                               : tr("Fix %1 first: %2").arg(problem_.field, problem_.reason));
  pauseButton_->setEnabled(running_ && runProcesses_ <= 1);
  pauseButton_->setText(paused_ ? tr("Resume") : tr("Pause"));
  pauseButton_->setToolTip(
      running_ && runProcesses_ > 1
          ? tr("A run on %1 processes cannot be paused: its processes wait for each other at "
               "every step. Cancel it instead (it checkpoints) and resume it from the run list.")
                .arg(runProcesses_)
          : tr("Pause or resume after the current step (Ctrl+P)"));
  processes_->setEnabled(!running_);
  cancelButton_->setEnabled(running_);
  for (int t = 0; t < 3; ++t) tabs_->widget(t)->setEnabled(!running_);  // the form, not JSON
}

void StageLauncher::start() {
  revalidate();
  if (!problem_.ok() || running_) return;
  StartRequest r;
  r.stages = selectedStages();
  // The ticks decide: a ticked stage the file switched off ("enabled": false) runs.
  QJsonObject document = document_;
  QJsonObject stages = document.value(QStringLiteral("stages")).toObject();
  for (int s : r.stages) {
    QJsonObject stage = stages.value(stageNames()[s]).toObject();
    if (stage.contains(QStringLiteral("enabled"))) {
      stage.remove(QStringLiteral("enabled"));
      stages[stageNames()[s]] = stage;
    }
  }
  if (!stages.isEmpty()) document[QStringLiteral("stages")] = stages;
  r.configJson = QJsonDocument(document).toJson(QJsonDocument::Compact);
  r.configDir = baseDir();
  r.processes = processes_->value();
  startedStages_ = r.stages;
  emit startRequested(r);
}

void StageLauncher::resetProgress() {
  for (int s = 0; s < kStageCount; ++s) {
    bars_[s]->setRange(0, 1);
    bars_[s]->setValue(0);
    barLabels_[s]->clear();
    barLabels_[s]->setToolTip(QString());
    waitedSteps_[s] = 0.0;
    countedSteps_[s] = 0;
    lastStep_[s] = 0;
  }
}

void StageLauncher::onJobStarted(const JobState& state) {
  running_ = true;
  paused_ = false;
  activeStage_ = -1;
  runProcesses_ = std::max(1, state.processes);
  resetProgress();
  if (!startedStages_.isEmpty())
    for (int s = 0; s < kStageCount; ++s)
      if (!startedStages_.contains(s)) barLabels_[s]->setText(tr("not in this run"));
  startedStages_.clear();
  appendLog(tr("Run %1 started in %2").arg(state.runId).arg(state.runDir));
  updateButtons();
}

void StageLauncher::onSteps(const QVector<StepUpdate>& steps) {
  if (steps.isEmpty()) return;
  // Only the newest step of each stage matters for the bars.
  for (int s = 0; s < kStageCount; ++s) {
    const StepUpdate* last = nullptr;
    for (const auto& m : steps)
      if (stageIndex(m.stage) == s) last = &m;
    if (!last) continue;
    bars_[s]->setRange(0, static_cast<int>(std::max<qint64>(1, last->totalSteps)));
    bars_[s]->setValue(static_cast<int>(last->step));
    for (const auto& m : steps)
      if (stageIndex(m.stage) == s) countDataWait(s, m);
    // Data wait before the loss: on a narrow dock the end of the line is cut (the tooltip
    // keeps it whole).
    // Steps reported before the pause can arrive after it: the label keeps saying paused.
    const QString text =
        paused_ ? pausedAtText(s)
                : tr("ETA %1 · %2 img/s · data %3% · loss %4")
                      .arg(formatDuration(last->etaSeconds))
                      .arg(last->imagesPerSecond, 0, 'f', 0)
                      .arg(std::lround(100.0 * std::clamp(last->dataWaitShare, 0.0, 1.0)))
                      .arg(last->loss, 0, 'g', 3);
    barLabels_[s]->setText(text);
    barLabels_[s]->setToolTip(text);
  }
}

// A report's share covers the steps since the previous report (or the stage's start).
void StageLauncher::countDataWait(int s, const StepUpdate& m) {
  const qint64 covered = m.step - lastStep_[s];
  lastStep_[s] = m.step;
  if (covered <= 0 || !std::isfinite(m.dataWaitShare)) return;
  waitedSteps_[s] += std::clamp(m.dataWaitShare, 0.0, 1.0) * double(covered);
  countedSteps_[s] += covered;
}

void StageLauncher::onStage(const StageUpdate& u) {
  const int s = stageIndex(u.stage);
  if (s < 0) return;
  switch (u.kind) {
    case StageUpdate::Kind::Started:
      bars_[s]->setRange(0, static_cast<int>(std::max<qint64>(1, u.totalSteps)));
      bars_[s]->setValue(static_cast<int>(u.step));
      waitedSteps_[s] = 0.0;
      countedSteps_[s] = 0;
      lastStep_[s] = u.step;
      barLabels_[s]->setText(u.step > 0 ? tr("resumed at step %1").arg(u.step) : tr("started"));
      activeStage_ = s;
      break;
    case StageUpdate::Kind::Finished:
      bars_[s]->setValue(bars_[s]->maximum());
      barLabels_[s]->setText(
          countedSteps_[s] > 0
              ? tr("done in %1 · data wait %2%")
                    .arg(formatDuration(u.seconds))
                    .arg(std::lround(100.0 * waitedSteps_[s] / double(countedSteps_[s])))
              : tr("done in %1").arg(formatDuration(u.seconds)));
      break;
    case StageUpdate::Kind::Cancelled:
      barLabels_[s]->setText(tr("interrupted at step %1").arg(u.step));
      break;
    case StageUpdate::Kind::Failed:
      barLabels_[s]->setText(tr("failed"));
      break;
  }
  if (u.kind != StageUpdate::Kind::Started && activeStage_ == s) activeStage_ = -1;
}

void StageLauncher::onLog(const LogLine& line) { appendLog(line.message, line.level); }

void StageLauncher::onJobFinished(const JobState& state) {
  running_ = false;
  paused_ = false;
  runProcesses_ = 1;
  const auto level = state.status == JobStatus::Failed ? LogLine::Level::Error
                     : state.status == JobStatus::Done ? LogLine::Level::Info
                                                       : LogLine::Level::Warning;
  const QString status = jobStatusText(state.status);
  appendLog(state.message.isEmpty()
                ? tr("Run %1: %2").arg(state.runId).arg(status)
                : tr("Run %1: %2 — %3").arg(state.runId).arg(status, state.message),
            level);
  updateButtons();
}

QString StageLauncher::pausedAtText(int stage) const {
  return tr("paused at step %1 of %2").arg(bars_[stage]->value()).arg(bars_[stage]->maximum());
}

void StageLauncher::onPaused(bool paused) {
  paused_ = paused;
  appendLog(paused ? tr("Paused (after the current step).") : tr("Resumed."));
  // An ETA frozen while paused would read as a stalled run.
  if (running_ && activeStage_ >= 0) {
    const int s = activeStage_;
    barLabels_[s]->setText(paused ? pausedAtText(s)
                                  : tr("resumed at step %1").arg(bars_[s]->value()));
    barLabels_[s]->setToolTip(barLabels_[s]->text());
  }
  updateButtons();
}

void StageLauncher::appendLog(const QString& text, LogLine::Level level) {
  const QString time = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
  const QString color = level == LogLine::Level::Error     ? QStringLiteral("#d62728")
                        : level == LogLine::Level::Warning ? QStringLiteral("#e67e22")
                                                           : QString();
  const QString body = text.toHtmlEscaped();
  log_->appendHtml(
      color.isEmpty()
          ? QStringLiteral("<span>%1 %2</span>").arg(time, body)
          : QStringLiteral("<span style=\"color:%1\">%2 %3</span>").arg(color, time, body));
}

}  // namespace adala::widgets
