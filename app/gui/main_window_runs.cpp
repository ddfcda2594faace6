// What the main window opens: experiments, recorded runs (and their comparison, resumption,
// checkpoints, health, features), the live run, benchmark CSVs and segmentation results.
#include "app/gui/main_window.h"

#include <algorithm>

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStackedWidget>

#include "app/gui/checkpoint_label.h"
#include "app/gui/engine_controller.h"
#include "app/gui/feature_worker.h"
#include "app/gui/scaling_panel.h"
#include "engine/store/run_store.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/inspect/feature_view.h"
#include "widgets/launch/stage_launcher.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/health_heatmap.h"
#include "widgets/runs/run_browser.h"
#include "widgets/runs/run_compare_table.h"
#include "widgets/runs/run_summary_panel.h"
#include "widgets/runs/training_curves_plot.h"
#include "widgets/segmentation/segmentation_results.h"
#include "widgets/segmentation/segmentation_viewer.h"

namespace adala::gui {

using namespace adala::widgets;

bool MainWindow::openExperiment(const QString& path) {
  if (!launcher_->loadFile(path)) return false;
  QSettings().setValue(QStringLiteral("lastExperiment"), QFileInfo(path).absoluteFilePath());
  launcherDock_->show();
  return true;
}

void MainWindow::startRun() { launcher_->start(); }

QList<QPair<QString, QString>> MainWindow::runCheckpoints(qint64 id) const {
  QList<QPair<QString, QString>> list;
  try {
    store::RunStore db(controller_->databasePath().toStdString(), store::OpenMode::ReadOnly);
    QList<QPair<int, QString>> weights;
    for (const auto& a : db.artifacts(id))
      if (a.kind == "weights" && QFileInfo::exists(QString::fromStdString(a.path)))
        weights << qMakePair(stageOfWeights(QString::fromStdString(a.path)),
                             QString::fromStdString(a.path));
    std::sort(weights.begin(), weights.end());
    for (const auto& [stage, path] : weights)
      list << qMakePair(checkpointLabel(path, tr("#%1").arg(id)), path);
  } catch (const std::exception&) {
  }
  return list;
}

bool MainWindow::openBenchmarkCsv(const QString& path) {
  showTab(ScalingTab);
  const bool ok = scaling_->openCsv(path);
  updateStatus(ok ? tr("Showing %1 in the Scaling tab.").arg(path)
                  : tr("Cannot open %1.").arg(path));
  return ok;
}

bool MainWindow::openRun(qint64 id) {
  const QString kind = browser_->kindOf(id);
  if (kind.isEmpty()) {
    updateStatus(tr("There is no run %1 in %2.").arg(id).arg(controller_->databasePath()));
    return false;
  }
  if (kind == QLatin1String("benchmark")) {
    showTab(ScalingTab);
    const bool shown = scaling_->openRun(id);
    updateStatus(shown ? tr("Showing benchmark run %1.").arg(id)
                       : tr("Cannot show benchmark run %1 (see the Scaling tab).").arg(id));
    return shown;
  }
  QString error;
  if (!plot_->loadRuns(controller_->databasePath(), {id}, &error)) {
    updateStatus(tr("Cannot open run %1: %2").arg(id).arg(error));
    return false;
  }
  plotShowsLive_ = false;
  loadHealth(id);
  loadFeatures(id);
  // The launcher offers the run's configuration to edit or run again, unless it holds work of
  // the user's (a live run, or edits not saved).
  const bool keepLauncher = launcher_->isRunning() || launcher_->hasUnsavedEdits();
  if (!keepLauncher) showRecordedConfig(id);
  const QString launcherNote =
      keepLauncher ? tr(" The launcher keeps its unsaved experiment.") : QString();
  const auto checkpoints = runCheckpoints(id);
  if (!checkpoints.isEmpty()) inspector_->setCheckpoints(checkpoints, checkpoints.last().second);
  curves_->loadRuns(controller_->databasePath(), {id});
  summaryStack_->setCurrentWidget(summary_);
  QString summaryError;
  if (!summary_->loadRun(controller_->databasePath(), id, &summaryError)) {
    showTab(PlotTab);
    updateStatus(tr("Showing run %1 (%2 checkpoints); no summary: %3")
                     .arg(id)
                     .arg(checkpoints.size())
                     .arg(summaryError) +
                 launcherNote);
    return true;
  }
  showTab(SummaryTab);
  updateStatus(tr("Showing run %1 (%2 checkpoints).").arg(id).arg(checkpoints.size()) +
               launcherNote);
  return true;
}

void MainWindow::compareRuns(const QList<qint64>& ids) {
  QString error;
  if (!plot_->loadRuns(controller_->databasePath(), ids, &error)) {
    updateStatus(tr("Cannot compare: %1").arg(error));
    return;
  }
  plotShowsLive_ = false;
  curves_->loadRuns(controller_->databasePath(), ids);
  if (!ids.isEmpty()) loadHealth(ids.first());
  // The compare table first (results and the config diff), in the Summary tab.
  QString compareError;
  if (compare_->loadRuns(controller_->databasePath(), ids, &compareError)) {
    summaryStack_->setCurrentWidget(compare_);
    showTab(SummaryTab);
  } else {
    showTab(PlotTab);
    updateStatus(tr("Cannot compare: %1").arg(compareError));
    return;
  }
  QStringList names;
  for (qint64 id : ids) names << QString::number(id);
  updateStatus(tr("Comparing runs %1.").arg(names.join(QStringLiteral(", "))));
}

void MainWindow::resumeRun(qint64 id) {
  const QString dir = browser_->runDirOf(id);
  if (dir.isEmpty()) {
    updateStatus(tr("Run %1 has no recorded folder to resume from.").arg(id));
    return;
  }
  showRecordedConfig(id);
  StartRequest r;
  r.resumeRunDir = dir;
  controller_->submit(r);
  updateStatus(tr("Resuming run %1 from %2…").arg(id).arg(dir));
}

void MainWindow::showRecordedConfig(qint64 id) {
  try {
    store::RunStore db(controller_->databasePath().toStdString(), store::OpenMode::ReadOnly);
    const auto info = db.find_run(id);
    const QJsonDocument config =
        info ? QJsonDocument::fromJson(QByteArray::fromStdString(info->config_json))
             : QJsonDocument();
    if (config.isObject()) launcher_->showRunConfig(id, config.object());
  } catch (const std::exception& e) {
    updateStatus(
        tr("Cannot read the config of run %1: %2").arg(id).arg(QString::fromUtf8(e.what())));
  }
}

void MainWindow::showLiveRun() {
  if (live_.jobId == 0) return;
  plot_->startLiveRun(tr("#%1 %2 (live)").arg(live_.runId).arg(live_.name),
                      controller_->databasePath(), live_.runId);
  plot_->appendSteps(liveSteps_);
  plotShowsLive_ = true;
  loadHealth(live_.runId);
  showTab(PlotTab);
}

void MainWindow::loadHealth(qint64 id) {
  QString error;
  if (!health_->loadRun(controller_->databasePath(), id, &error))
    updateStatus(tr("Cannot read the health metrics of run %1: %2").arg(id).arg(error));
}

void MainWindow::loadFeatures(qint64 id) {
  features_->setRun(id, browser_->runDirOf(id), browser_->nameOf(id));
  features_->setSweep(storedResolutionSweep(controller_->databasePath(), id));
}

bool MainWindow::openSegmentation(const QString& path) {
  QString error;
  const bool ok = segmentation_->openFolder(path, &error);
  showSegmentation();
  if (!ok) {
    updateStatus(tr("Cannot open segmentation results: %1").arg(error));
    return false;
  }
  QSettings().setValue(QStringLiteral("lastSegmentation"), QFileInfo(path).absoluteFilePath());
  updateStatus(tr("Segmentation results of %1").arg(segmentation_->results().dir));
  return true;
}

void MainWindow::offerRunSegmentation(qint64 id, bool load, bool opened) {
  const QString runDir = browser_->runDirOf(id);
  if (runDir.isEmpty()) return;
  const QString dir =
      QFileInfo(QDir(runDir).filePath(QStringLiteral("segmentation"))).absoluteFilePath();
  if (SegmentationResults::findResultDirs(dir).isEmpty()) return;
  if (!load) {
    updateStatus(
        tr("Run %1 has segmentation results: open the run to see them in the Segmentation tab.")
            .arg(id));
    return;
  }
  const bool shown = segmentation_->folder() == dir && segmentation_->hasResults();
  if (shown && !opened) return;  // a refresh of the run list reselects the run
  QString error;
  if (!shown && !segmentation_->openFolder(dir, &error)) {
    updateStatus(tr("Cannot show the segmentation results of run %1: %2").arg(id).arg(error));
    return;
  }
  const QString said =
      tr("Segmentation results of run %1 are in the Segmentation tab (Ctrl+6).").arg(id);
  updateStatus(opened ? statusMessage() + QStringLiteral("  ") + said : said);
}

}  // namespace adala::gui
