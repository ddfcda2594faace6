#include "app/gui/main_window.h"

#include <algorithm>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QDir>
#include <QItemSelectionModel>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>

#include "engine/store/run_store.h"
#include "app/report_gui/export_report_dialog.h"
#include "app/i18n/language.h"
#include "app/gui/engine_controller.h"
#include "app/gui/feature_worker.h"
#include "app/gui/scaling_panel.h"
#include "app/gui/theme.h"
#include "engine/train/stage_catalog.h"
#include "resources/resources.h"
#include "widgets/attention_inspector.h"
#include "widgets/attention_mse_plot.h"
#include "widgets/feature_view.h"
#include "widgets/health_heatmap.h"
#include "widgets/plan_frontier_view.h"
#include "widgets/run_browser.h"
#include "widgets/run_compare_table.h"
#include "widgets/run_summary_panel.h"
#include "widgets/segmentation_results.h"
#include "widgets/segmentation_viewer.h"
#include "widgets/stage_launcher.h"
#include "widgets/training_curves_plot.h"

namespace adala::gui {

using namespace adala::widgets;

namespace {

// Stage of a weights file the pipeline writes (stage_output_path), -1 if not one of them.
int stageOfWeights(const QString& path) {
  const StageSpec* stage = stage_by_output_file(QFileInfo(path).fileName().toStdString());
  return stage ? stage->index : -1;
}

QString checkpointLabel(const QString& path, const QString& prefix = {}) {
  const int stage = stageOfWeights(path);
  const QString label = stage >= 0 ? stageTitle(stage) : QFileInfo(path).fileName();
  return prefix.isEmpty() ? label : prefix + QStringLiteral(" · ") + label;
}

}  // namespace

MainWindow::MainWindow(EngineController* controller, QWidget* parent)
    : QMainWindow(parent), controller_(controller) {
  setWindowTitle(tr("AdaLA Workbench"));
  setObjectName(QStringLiteral("MainWindow"));
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

  plot_ = new AttentionMsePlot(this);
  inspector_ = new AttentionInspector(this);
  tabs_ = new QTabWidget(this);
  summary_ = new RunSummaryPanel(this);
  compare_ = new RunCompareTable(this);
  summaryStack_ = new QStackedWidget(this);
  summaryStack_->addWidget(summary_);
  summaryStack_->addWidget(compare_);
  tabs_->addTab(summaryStack_, tr("Summary"));
  tabs_->setTabToolTip(SummaryTab, tr("The opened run: teacher and student top-1, the gap, "
                                      "each stage's time and final loss, its config (Ctrl+0)"));
  tabs_->addTab(plot_, tr("Attention MSE"));
  health_ = new HealthHeatmap(this);
  tabs_->addTab(health_, tr("Numerical health"));
  tabs_->setTabToolTip(HealthTab, tr("Per-block numerical health of the run: linear-attention "
                                     "normalisers, activation size, non-finite values (Ctrl+7)"));
  tabs_->addTab(inspector_, tr("Attention inspector"));
  scaling_ = new ScalingPanel(controller_->databasePath(), this);
  scaling_->setPresets(EngineController::presetNames());
  tabs_->addTab(scaling_, tr("Scaling"));
  tabs_->setTabToolTip(ScalingTab, tr("Resolution scaling: GFLOPs, peak memory and latency of "
                                      "softmax vs linear attention (Ctrl+5)"));
  segmentation_ = new SegmentationViewer(this);
  tabs_->addTab(segmentation_, tr("Segmentation"));
  curves_ = new TrainingCurvesPlot(this);
  tabs_->addTab(curves_, tr("Loss && lr"));
  tabs_->setTabToolTip(tabs_->indexOf(curves_),
                       tr("Every stage's loss, training accuracy and learning rate (Ctrl+9)"));
  features_ = new FeatureView(this);
  tabs_->addTab(features_, tr("Features"));
  tabs_->setTabToolTip(tabs_->indexOf(features_),
                       tr("Teacher vs student patch features of one image (PCA colour maps, "
                          "cosine similarity) and the resolution sweep of the run (Ctrl+8)"));
  plans_ = new PlanFrontierView(this);
  tabs_->addTab(plans_, tr("Plans"));
  tabs_->setTabToolTip(tabs_->indexOf(plans_),
                       tr("Trained attention plans: top-1 against ms / image or peak memory, the "
                          "accuracy-cost frontier, each plan's blocks (Ctrl+Shift+P)"));
  setCentralWidget(tabs_);

  browser_ = new RunBrowser(this);
  runsDock_ = new QDockWidget(tr("Runs"), this);
  runsDock_->setObjectName(QStringLiteral("RunsDock"));
  runsDock_->setWidget(browser_);
  addDockWidget(Qt::LeftDockWidgetArea, runsDock_);

  launcher_ = new StageLauncher(this);
  launcher_->setPresets(EngineController::presetNames());
  launcher_->setPresetDepths(EngineController::presetDepths());
  launcher_->setValidator(&EngineController::validateConfig);
  launcherDock_ = new QDockWidget(tr("Stage launcher"), this);
  launcherDock_->setObjectName(QStringLiteral("LauncherDock"));
  launcherDock_->setWidget(launcher_);
  addDockWidget(Qt::RightDockWidgetArea, launcherDock_);
  resizeDocks({runsDock_, launcherDock_}, {380, 440}, Qt::Horizontal);

  statusLabel_ = new QLabel(this);
  statusBar()->addWidget(statusLabel_, 1);
  auto* dbLabel = new QLabel(tr("database: %1").arg(controller_->databasePath()), this);
  dbLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  statusBar()->addPermanentWidget(dbLabel);

  buildMenus();
  buildToolBar();
  connectController();
  updateRunActions();
  browser_->setDatabasePath(controller_->databasePath());
  plans_->setDatabasePath(controller_->databasePath());
  defaultState_ = saveState();
  restoreLayout();
  updateStatus(tr("Ready."));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildToolBar() {
  auto* bar = addToolBar(tr("Run controls"));
  bar->setObjectName("runToolBar");  // saveState() keys toolbars by object name
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  startAction_->setIcon(workbenchIcon("start"));
  pauseAction_->setIcon(workbenchIcon("pause"));
  cancelAction_->setIcon(workbenchIcon("cancel"));
  pauseAction_->setCheckable(true);
  for (QAction* a : {startAction_, pauseAction_, cancelAction_}) {
    a->setToolTip(QStringLiteral("%1 (%2)").arg(a->text().remove('&'),
                                                a->shortcut().toString(QKeySequence::NativeText)));
    bar->addAction(a);
  }
  if (exportReportAction_) {
    exportReportAction_->setIcon(workbenchIcon("report"));
    bar->addSeparator();
    bar->addAction(exportReportAction_);
  }
  connect(controller_, &EngineController::pausedChanged, pauseAction_, &QAction::setChecked);
}

// Pause and Cancel only mean something while a job is queued or running.
void MainWindow::updateRunActions() {
  const bool busy = controller_->busy();
  // A run on several processes cannot pause (its ranks wait for each other every step).
  pauseAction_->setEnabled(busy && !controller_->processRunning());
  cancelAction_->setEnabled(busy);
}

void MainWindow::buildMenus() {
  auto* file = menuBar()->addMenu(tr("&File"));
  auto* openExperiment = file->addAction(tr("&Open experiment…"), QKeySequence::Open, this,
                                         &MainWindow::openExperimentDialog);
  openExperiment->setIcon(workbenchIcon("open"));
  file->addAction(tr("&Save experiment as…"), QKeySequence(tr("Ctrl+Shift+S")), this,
                  &MainWindow::saveExperimentDialog);
  file->addSeparator();
  file->addAction(tr("Open &checkpoint…"), QKeySequence(tr("Ctrl+Shift+O")), this,
                  &MainWindow::openCheckpointDialog);
  file->addAction(tr("Open &image…"), QKeySequence(tr("Ctrl+I")), this,
                  &MainWindow::openImageDialog);
  file->addAction(tr("Open &segmentation results…"), QKeySequence(tr("Ctrl+Shift+G")), this,
                  &MainWindow::openSegmentationDialog);
  file->addAction(tr("&Export plot…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportPlot);
  file->addAction(tr("Open &benchmark CSV…"), QKeySequence(tr("Ctrl+Shift+B")), this, [this] {
    showTab(ScalingTab);
    scaling_->openCsvDialog();
  });
  exportReportAction_ =
      file->addAction(tr("Export &report…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
        // The runs selected in the run list, else the run being trained.
        QList<qint64> runs = browser_->selectedRuns();
        if (runs.isEmpty() && live_.runId > 0) runs << live_.runId;
        if (runs.isEmpty()) {
          updateStatus(tr("Select one or more runs in the run list to report on."));
          return;
        }
        const QString written =
            adala::report_gui::exportReport(this, controller_->databasePath(), runs);
        if (!written.isEmpty()) updateStatus(tr("Report written to %1").arg(written));
      });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  auto* run = menuBar()->addMenu(tr("&Run"));
  startAction_ =
      run->addAction(tr("&Start"), QKeySequence(tr("Ctrl+Return")), this, &MainWindow::startRun);
  pauseAction_ = run->addAction(tr("&Pause / resume"), QKeySequence(tr("Ctrl+P")), this,
                                [this] { controller_->setPaused(!controller_->paused()); });
  cancelAction_ = run->addAction(tr("&Cancel"), QKeySequence(tr("Ctrl+.")), this,
                                 [this] { controller_->cancelCurrent(); });
  run->addSeparator();
  run->addAction(tr("Show the &live run"), QKeySequence(tr("Ctrl+Shift+L")), this,
                 &MainWindow::showLiveRun);

  auto* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Run s&ummary"), QKeySequence(tr("Ctrl+0")), this,
                  [this] { showTab(SummaryTab); });
  view->addAction(tr("Attention &MSE plots"), QKeySequence(tr("Ctrl+1")), this,
                  [this] { showTab(PlotTab); });
  view->addAction(tr("&Loss and learning rate"), QKeySequence(tr("Ctrl+9")), this,
                  &MainWindow::showTrainingCurves);
  view->addAction(tr("Numerical &health"), QKeySequence(tr("Ctrl+7")), this,
                  [this] { showTab(HealthTab); });
  view->addAction(tr("Attention &inspector"), QKeySequence(tr("Ctrl+2")), this,
                  [this] { showTab(InspectorTab); });
  view->addAction(tr("&Scaling benchmark"), QKeySequence(tr("Ctrl+5")), this,
                  [this] { showTab(ScalingTab); });
  view->addAction(tr("Se&gmentation viewer"), QKeySequence(tr("Ctrl+6")), this,
                  &MainWindow::showSegmentation);
  view->addAction(tr("&Features and resolution sweep"), QKeySequence(tr("Ctrl+8")), this,
                  &MainWindow::showFeatures);
  view->addAction(tr("Attention &plans"), QKeySequence(tr("Ctrl+Shift+P")), this,
                  &MainWindow::showPlans);
  auto* runsToggle = runsDock_->toggleViewAction();
  runsToggle->setShortcut(QKeySequence(tr("Ctrl+3")));
  view->addAction(runsToggle);
  auto* launcherToggle = launcherDock_->toggleViewAction();
  launcherToggle->setShortcut(QKeySequence(tr("Ctrl+4")));
  view->addAction(launcherToggle);
  view->addSeparator();
  logScaleAction_ = view->addAction(tr("&Logarithmic MSE axis"));
  logScaleAction_->setCheckable(true);
  logScaleAction_->setChecked(plot_->logScale());
  logScaleAction_->setShortcut(QKeySequence(tr("Ctrl+L")));
  connect(logScaleAction_, &QAction::toggled, plot_, &AttentionMsePlot::setLogScale);
  connect(plot_, &AttentionMsePlot::logScaleChanged, logScaleAction_, &QAction::setChecked);
  view->addAction(tr("&Refresh runs"), QKeySequence::Refresh, browser_, &RunBrowser::refresh);
  auto* themeMenu = view->addMenu(tr("&Theme"));
  auto* group = new QActionGroup(this);
  const QPair<Theme, QString> themes[] = {{Theme::System, tr("Follow the &system")},
                                          {Theme::Light, tr("&Light")},
                                          {Theme::Dark, tr("&Dark")}};
  for (const auto& [theme, label] : themes) {
    auto* a = themeMenu->addAction(label);
    a->setCheckable(true);
    a->setChecked(ThemeManager::instance()->theme() == theme);
    group->addAction(a);
    connect(a, &QAction::triggered, this, [theme] {
      ThemeManager::instance()->apply(theme);
      QSettings().setValue(QStringLiteral("theme"), themeName(theme));
    });
  }
  auto* languageMenu = view->addMenu(tr("Lan&guage"));
  auto* languages = new QActionGroup(this);
  const QString saved = adala::i18n::saved_language();
  QList<QPair<QString, QString>> choices = {{QString(), tr("Follow the system")}};
  for (const auto& code : adala::i18n::available_languages())
    choices << qMakePair(code, adala::i18n::native_language_name(code));
  for (const auto& [code, label] : choices) {
    auto* a = languageMenu->addAction(label);
    a->setCheckable(true);
    a->setChecked(code == saved);
    languages->addAction(a);
    connect(a, &QAction::triggered, this, [this, code = code] {
      adala::i18n::save_language(code);
      updateStatus(tr("The language changes when the workbench starts again."));
    });
  }
  view->addAction(tr("Reset &layout"), this, [this] {
    restoreState(defaultState_);
    runsDock_->show();
    launcherDock_->show();
  });

  auto* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this,
                  &MainWindow::showShortcuts);
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(
        this, tr("About AdaLA Workbench"),
        tr("<b>AdaLA Workbench</b><p>Adapts a softmax Vision Transformer into a linear-attention "
           "one (ViT-AdaLA: attention alignment, feature alignment, fine-tuning) and shows "
           "every step.</p>"));
  });
}

void MainWindow::connectController() {
  auto* c = controller_;
  connect(launcher_, &StageLauncher::startRequested, this,
          [c](const StartRequest& r) { c->submit(r); });
  connect(launcher_, &StageLauncher::pauseRequested, c, &EngineController::setPaused);
  connect(launcher_, &StageLauncher::cancelRequested, c, &EngineController::cancelCurrent);
  connect(launcher_, &StageLauncher::openFileRequested, this, &MainWindow::openExperimentDialog);

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

void MainWindow::showTab(Tab tab) { tabs_->setCurrentIndex(tab); }

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

void MainWindow::showTrainingCurves() { tabs_->setCurrentWidget(curves_); }

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

void MainWindow::showFeatures() { tabs_->setCurrentWidget(features_); }

void MainWindow::showPlans() { tabs_->setCurrentWidget(plans_); }

void MainWindow::loadFeatures(qint64 id) {
  features_->setRun(id, browser_->runDirOf(id), browser_->nameOf(id));
  features_->setSweep(storedResolutionSweep(controller_->databasePath(), id));
}

void MainWindow::exportPlot() {
  QString filters = tr("PNG image (*.png)");
  filters += tr(";;SVG drawing (*.svg)");
  filters += tr(";;CSV table (*.csv)");
  QString selected;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export the plots"), QStringLiteral("attention-mse.png"), filters, &selected);
  if (path.isEmpty()) return;
  const QString suffix = QFileInfo(path).suffix().toLower();
  bool ok = false;
  if (suffix == QLatin1String("csv"))
    ok = plot_->exportCsv(path);
  else if (suffix == QLatin1String("svg"))
    ok = plot_->exportSvg(path);
  else
    ok = plot_->exportPng(suffix == QLatin1String("png") ? path : path + QStringLiteral(".png"));
  updateStatus(ok ? tr("Exported %1").arg(path) : tr("Could not export %1").arg(path));
}

void MainWindow::openExperimentDialog() {
  const QString start = QSettings().value(QStringLiteral("lastExperiment")).toString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open an experiment"), start,
                                                    tr("Experiments (*.json);;All files (*)"));
  if (!path.isEmpty()) openExperiment(path);
}

void MainWindow::saveExperimentDialog() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save the experiment"), launcher_->filePath(), tr("Experiments (*.json)"));
  if (!path.isEmpty()) launcher_->saveFile(path);
}

void MainWindow::openCheckpointDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a checkpoint"), QString(),
                                                    tr("safetensors (*.safetensors)"));
  if (path.isEmpty()) return;
  inspector_->addCheckpoint(checkpointLabel(path, QFileInfo(path).dir().dirName()), path, true);
  showTab(InspectorTab);
}

void MainWindow::openImageDialog() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open an image"), QString(),
      tr("Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp);;All files (*)"));
  if (path.isEmpty()) return;
  inspector_->setImageFile(path);
  showTab(InspectorTab);
}

void MainWindow::openSegmentationDialog() {
  const QString start = QSettings().value(QStringLiteral("lastSegmentation")).toString();
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Open segmentation results"), start);
  if (!dir.isEmpty()) openSegmentation(dir);
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

void MainWindow::showSegmentation() {
  tabs_->setCurrentWidget(segmentation_);
  segmentation_->setFocus();
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

QString MainWindow::statusMessage() const { return statusLabel_->text(); }

void MainWindow::showShortcuts() {
  QMessageBox::information(
      this, tr("Keyboard shortcuts"),
      tr("<table>"
         "<tr><td>Ctrl+O / Ctrl+Shift+S</td><td>open / save an experiment</td></tr>"
         "<tr><td>Ctrl+Return</td><td>start the selected stages</td></tr>"
         "<tr><td>Ctrl+P</td><td>pause / resume the run</td></tr>"
         "<tr><td>Ctrl+.</td><td>cancel the run (checkpointed, resumable)</td></tr>"
         "<tr><td>Ctrl+1 / Ctrl+2 / Ctrl+5</td><td>plots / inspector / scaling benchmark</td></tr>"
         "<tr><td>Ctrl+3 / Ctrl+4</td><td>show or hide the runs / launcher docks</td></tr>"
         "<tr><td>Ctrl+Shift+B</td><td>open a benchmark CSV (adala bench scaling --csv)</td></tr>"
         "<tr><td>Ctrl+L</td><td>logarithmic MSE axis</td></tr>"
         "<tr><td>Ctrl+E</td><td>export the plots (PNG, SVG, CSV)</td></tr>"
         "<tr><td>F5</td><td>refresh the run list</td></tr>"
         "<tr><td>Ctrl+I / Ctrl+Shift+O</td><td>inspect an image / a checkpoint</td></tr>"
         "<tr><td>arrow keys</td><td>move the inspector's query patch</td></tr>"
         "<tr><td>Page Up / Page Down</td><td>previous / next block</td></tr>"
         "<tr><td>H / Shift+H</td><td>next / previous head</td></tr>"
         "<tr><td>C</td><td>query = class token</td></tr>"
         "</table>") +
          QStringLiteral("<table>") +
          tr("<tr><td>S / Shift+S</td><td>inspector's colour scale: shared, per pane, log, fixed "
             "range</td></tr>") +
          tr("<tr><td>R / G</td><td>inspector: attention rollout / blocks × heads "
             "overview</td></tr>") +
          tr("<tr><td>Ctrl+0</td><td>run summary (or the compare table)</td></tr>") +
          tr("<tr><td>Ctrl+9</td><td>every stage's loss and learning rate</td></tr>") +
          tr("<tr><td>Ctrl+7</td><td>numerical health heatmap</td></tr>") +
          tr("<tr><td>Ctrl+Shift+P</td><td>trained attention plans and their frontier (F5 "
             "reads them again; click a point to open its run)</td></tr>") +
          tr("<tr><td>Ctrl+Shift+G / Ctrl+6</td><td>open segmentation results / show the "
             "viewer</td></tr>") +
          SegmentationViewer::shortcutRows() + QStringLiteral("</table>"));
}

void MainWindow::updateStatus(const QString& message) { statusLabel_->setText(message); }

void MainWindow::restoreLayout() {
  QSettings settings;
  if (settings.contains(QStringLiteral("window/geometry")))
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
  else if (const QScreen* screen = QGuiApplication::primaryScreen()) {
    const QRect avail = screen->availableGeometry();
    resize(std::min(1600, avail.width()), std::min(1000, avail.height()));
  }
  if (settings.contains(QStringLiteral("window/state")))
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
  tabs_->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
  plot_->setLogScale(settings.value(QStringLiteral("plot/logScale"), true).toBool());
}

void MainWindow::saveLayout() {
  QSettings settings;
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  settings.setValue(QStringLiteral("window/tab"), tabs_->currentIndex());
  settings.setValue(QStringLiteral("plot/logScale"), plot_->logScale());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (controller_->busy()) {
    if (!stopping_) {
      const bool stop =
          confirmQuit_
              ? confirmQuit_()
              : QMessageBox::question(
                    this, tr("A run is in progress"),
                    tr("Stop the run and quit?\n\nThe current stage finishes its step, saves a "
                       "checkpoint, and the run is marked interrupted: resume it later from the "
                       "run list."),
                    QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
      if (!stop) {
        event->ignore();
        return;
      }
      stopping_ = true;
      updateStatus(tr("Stopping the run after its current step…"));
      controller_->cancelAll();
    }
    event->ignore();  // closes for real once the controller reports idle
    return;
  }
  saveLayout();
  event->accept();
}

}  // namespace adala::gui
