// The window's construction (tabs, docks, status bar), its tabs, status line and saved layout.
// Its menus are in main_window_menus.cpp, its wiring to the controller in
// main_window_controller.cpp, opening runs in main_window_runs.cpp, its file dialogs in
// main_window_dialogs.cpp.
#include "app/gui/main_window.h"

#include <algorithm>

#include <QCloseEvent>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

#include "app/gui/engine_controller.h"
#include "app/gui/scaling_panel.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/inspect/feature_view.h"
#include "widgets/launch/stage_launcher.h"
#include "widgets/plans/plan_frontier_view.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/health_heatmap.h"
#include "widgets/runs/run_browser.h"
#include "widgets/runs/run_compare_table.h"
#include "widgets/runs/run_summary_panel.h"
#include "widgets/runs/training_curves_plot.h"
#include "widgets/segmentation/segmentation_viewer.h"

namespace adala::gui {

using namespace adala::widgets;

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

void MainWindow::showTab(Tab tab) { tabs_->setCurrentIndex(tab); }

void MainWindow::showTrainingCurves() { tabs_->setCurrentWidget(curves_); }

void MainWindow::showFeatures() { tabs_->setCurrentWidget(features_); }

void MainWindow::showPlans() { tabs_->setCurrentWidget(plans_); }

void MainWindow::showSegmentation() {
  tabs_->setCurrentWidget(segmentation_);
  segmentation_->setFocus();
}

QString MainWindow::statusMessage() const { return statusLabel_->text(); }

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
