// The main window's views wired to the EngineController and to each other.
#include "app/gui/main_window.h"

#include <QAction>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QTabWidget>
#include <QTreeView>

#include "app/gui/checkpoint_label.h"
#include "app/gui/engine_controller.h"
#include "app/gui/scaling_panel.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/inspect/feature_view.h"
#include "widgets/launch/stage_launcher.h"
#include "widgets/plans/plan_frontier_view.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/health_heatmap.h"
#include "widgets/runs/job_status.h"
#include "widgets/runs/run_browser.h"
#include "widgets/runs/run_summary_panel.h"
#include "widgets/runs/training_curves_plot.h"
#include "widgets/segmentation/segmentation_viewer.h"

namespace adala::gui {

using namespace adala::widgets;

void MainWindow::connectController() {
  connectLauncher();
  connectRunProgress();
  connectRunState();
  connectInspector();
  connectFeatures();
  connectRunList();
}

void MainWindow::connectLauncher() {
  auto* c = controller_;
  connect(launcher_, &StageLauncher::startRequested, this,
          [c](const StartRequest& r) { c->submit(r); });
  connect(launcher_, &StageLauncher::pauseRequested, c, &EngineController::setPaused);
  connect(launcher_, &StageLauncher::cancelRequested, c, &EngineController::cancelCurrent);
  connect(launcher_, &StageLauncher::openFileRequested, this, &MainWindow::openExperimentDialog);
}

// The live run's start, steps, stages, log and checkpoints into the views that follow it.
void MainWindow::connectRunProgress() {
  auto* c = controller_;
  connect(c, &EngineController::jobStarted, this, [this](const JobState& s) {
    live_ = s;
    liveSteps_.clear();
    launcher_->onJobStarted(s);
    // A resumed run's plots start from its recorded history.
    plot_->startLiveRun(tr("#%1 %2 (live)").arg(s.runId).arg(s.name), controller_->databasePath(),
                        s.runId);
    plotShowsLive_ = true;
    loadHealth(s.runId);
    // The loss and lr tab follows the live run step by step (its history first, if resumed).
    if (s.runId > 0) curves_->loadRuns(controller_->databasePath(), {s.runId});
    browser_->setPausedRun(-1);
    browser_->refresh();
    browser_->selectRun(s.runId);
    updateStatus(tr("Run %1 (%2) running in %3").arg(s.runId).arg(s.name, s.runDir));
  });
  connect(c, &EngineController::steps, this, [this](const QVector<StepUpdate>& steps) {
    liveSteps_ += steps;
    launcher_->onSteps(steps);
    if (plotShowsLive_) plot_->appendSteps(steps);
    curves_->appendSteps(live_.runId, steps);  // only while it shows the live run
  });
  connect(c, &EngineController::stageChanged, this, [this](const StageUpdate& u) {
    launcher_->onStage(u);
    browser_->refresh();
    // The heatmap follows the live run stage by stage (not step by step).
    if (live_.runId > 0 && health_->runId() == live_.runId) loadHealth(live_.runId);
    // So do the loss and lr curves (one small read per stage change).
    if (live_.runId > 0 && curves_->runs().size() == 1 &&
        curves_->runs().first().runId == live_.runId)
      curves_->loadRuns(controller_->databasePath(), {live_.runId});
  });
  connect(c, &EngineController::log, launcher_, &StageLauncher::onLog);
  connect(c, &EngineController::evaluation, this, [this](const EvalUpdate& e) {
    launcher_->appendLog(tr("%1 %2 = %3").arg(e.stage, e.key).arg(e.value, 0, 'g', 4));
  });
  connect(c, &EngineController::artifact, this, [this](const ArtifactUpdate& a) {
    if (a.kind == QLatin1String("weights"))
      inspector_->addCheckpoint(checkpointLabel(a.path, tr("#%1").arg(live_.runId)), a.path,
                                inspector_->checkpoint().isEmpty());
  });
}

// Pause, the end of a job, and the run actions that depend on whether one is running.
void MainWindow::connectRunState() {
  auto* c = controller_;
  connect(c, &EngineController::pausedChanged, launcher_, &StageLauncher::onPaused);
  connect(c, &EngineController::pausedChanged, this, [this](bool paused) {
    if (live_.runId <= 0) return;
    browser_->setPausedRun(paused ? live_.runId : -1);
    updateStatus(
        paused ? tr("Run %1 (%2) paused; Resume (%3) goes on from the same step.")
                     .arg(live_.runId)
                     .arg(live_.name, pauseAction_->shortcut().toString(QKeySequence::NativeText))
               : tr("Run %1 (%2) running in %3").arg(live_.runId).arg(live_.name, live_.runDir));
  });
  connect(c, &EngineController::jobFinished, this, [this](const JobState& s) {
    launcher_->onJobFinished(s);
    browser_->setPausedRun(-1);
    browser_->refresh();
    if (s.runId > 0 && health_->runId() == s.runId) loadHealth(s.runId);
    if (s.runId > 0) summary_->loadRun(controller_->databasePath(), s.runId);
    if (s.runId > 0) curves_->loadRuns(controller_->databasePath(), {s.runId});
    updateStatus(tr("Run %1: %2. %3").arg(s.runId).arg(jobStatusText(s.status), s.message));
  });
  connect(c, &EngineController::jobQueued, this, &MainWindow::updateRunActions);
  connect(c, &EngineController::jobStarted, this, &MainWindow::updateRunActions);
  connect(c, &EngineController::jobFinished, this, &MainWindow::updateRunActions);
  connect(c, &EngineController::idle, this, [this] {
    if (stopping_) close();
  });
}

void MainWindow::connectInspector() {
  auto* c = controller_;
  connect(inspector_, &AttentionInspector::probeRequested, c, &EngineController::requestProbe);
  connect(inspector_, &AttentionInspector::probeCancelRequested, c, &EngineController::cancelProbe);
  connect(inspector_, &AttentionInspector::rowsRequested, c, &EngineController::requestRows);
  connect(inspector_, &AttentionInspector::overviewRequested, c,
          &EngineController::requestOverview);
  connect(inspector_, &AttentionInspector::openCheckpointRequested, this,
          &MainWindow::openCheckpointDialog);
  connect(inspector_, &AttentionInspector::openImageRequested, this, &MainWindow::openImageDialog);
  connect(inspector_, &AttentionInspector::openDatasetRequested, this, [this](bool folder) {
    const QString path =
        folder
            ? QFileDialog::getExistingDirectory(this, tr("Open class folders or an image folder"))
            : QFileDialog::getOpenFileName(
                  this, tr("Open an image list or a run's config"), QString(),
                  tr("Image lists and configs (*.txt *.tsv *.json);;All files (*)"));
    if (!path.isEmpty()) inspector_->setDataset(path);
  });
  connect(c, &EngineController::probeProgress, inspector_, &AttentionInspector::onProbeProgress);
  connect(c, &EngineController::probeReady, inspector_, &AttentionInspector::onProbeReady);
  connect(c, &EngineController::probeFailed, inspector_, &AttentionInspector::onProbeFailed);
  connect(c, &EngineController::rowsReady, inspector_, &AttentionInspector::onRows);
  connect(c, &EngineController::overviewReady, inspector_, &AttentionInspector::onOverview);
}

void MainWindow::connectFeatures() {
  auto* c = controller_;
  connect(features_, &FeatureView::mapsRequested, c, &EngineController::requestFeatureMaps);
  connect(features_, &FeatureView::sweepRequested, c, &EngineController::requestResolutionSweep);
  connect(features_, &FeatureView::openImageRequested, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open an image"), QString(),
        tr("Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp);;All files (*)"));
    if (!path.isEmpty()) features_->setImageFile(path);
  });
  connect(c, &EngineController::featureMapsReady, features_, &FeatureView::onMapsReady);
  connect(c, &EngineController::featureMapsFailed, features_, &FeatureView::onMapsFailed);
  connect(c, &EngineController::sweepProgress, features_, &FeatureView::onSweepProgress);
  connect(c, &EngineController::sweepReady, features_, &FeatureView::setSweep);
  connect(c, &EngineController::sweepReady, browser_, &RunBrowser::refresh);
  connect(c, &EngineController::sweepFailed, features_, &FeatureView::onSweepFailed);
}

// The run list, the plans and the scaling panel: opening, comparing and resuming runs.
void MainWindow::connectRunList() {
  connect(scaling_, &ScalingPanel::status, this, &MainWindow::updateStatus);
  connect(scaling_, &ScalingPanel::benchmarkRecorded, browser_, &RunBrowser::refresh);
  connect(browser_, &RunBrowser::runOpened, this, &MainWindow::openRun);
  // A plan's point or row opens its run as the run list does (and shows it selected there).
  connect(plans_, &PlanFrontierView::runOpened, this, [this](qint64 id) {
    browser_->selectRun(id);
    if (openRun(id)) offerRunSegmentation(id, true, true);
  });
  // The plans follow the database as the run list reads it (F5, a run's stages and its end).
  connect(browser_, &RunBrowser::refreshed, plans_, &PlanFrontierView::refresh);
  connect(browser_, &RunBrowser::compareRequested, this, &MainWindow::compareRuns);
  connect(browser_, &RunBrowser::resumeRequested, this, &MainWindow::resumeRun);
  // A run with segmentation results: opening it loads them; selecting it loads them when the
  // Segmentation tab is showing, and otherwise says they are there.
  connect(browser_, &RunBrowser::runOpened, this,
          [this](qint64 id) { offerRunSegmentation(id, true, true); });
  connect(browser_->view()->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    const auto ids = browser_->selectedRuns();
    if (ids.size() == 1) offerRunSegmentation(ids.first(), tabs_->currentWidget() == segmentation_);
  });
}

}  // namespace adala::gui
