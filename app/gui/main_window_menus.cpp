// The main window's menus, tool bar and the keyboard shortcuts' help.
#include "app/gui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QToolBar>

#include "app/gui/engine_controller.h"
#include "app/gui/scaling_panel.h"
#include "app/gui/theme.h"
#include "app/i18n/language.h"
#include "app/report_gui/export_report_dialog.h"
#include "resources/resources.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/run_browser.h"
#include "widgets/segmentation/segmentation_viewer.h"

namespace adala::gui {

using namespace adala::widgets;

void MainWindow::buildMenus() {
  buildFileMenu();
  buildRunMenu();
  buildViewMenu();
  buildHelpMenu();
}

void MainWindow::buildFileMenu() {
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
}

void MainWindow::buildRunMenu() {
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
}

void MainWindow::buildViewMenu() {
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
  buildThemeMenu(view);
  buildLanguageMenu(view);
  view->addAction(tr("Reset &layout"), this, [this] {
    restoreState(defaultState_);
    runsDock_->show();
    launcherDock_->show();
  });
}

void MainWindow::buildThemeMenu(QMenu* view) {
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
}

void MainWindow::buildLanguageMenu(QMenu* view) {
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
}

void MainWindow::buildHelpMenu() {
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

}  // namespace adala::gui
