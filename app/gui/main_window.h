#pragma once
// The workbench window: run browser (left dock), stage launcher (right dock), and the
// run summary (an opened run, or the compare table of several), the attention-MSE plots,
// the numerical-health heatmap, the attention inspector, the
// resolution-scaling benchmark and the trained attention plans as central tabs. Wires the widgets
// to the EngineController; remembers its layout (QSettings); follows the system light/dark palette.
#include <QList>
#include <QMainWindow>
#include <QPair>
#include <QString>
#include <QVector>

#include <functional>

#include "widgets/runs/run_types.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;

namespace adala::widgets {
class AttentionInspector;
class AttentionMsePlot;
class FeatureView;
class HealthHeatmap;
class PlanFrontierView;
class RunBrowser;
class RunCompareTable;
class RunSummaryPanel;
class TrainingCurvesPlot;
class SegmentationViewer;
class StageLauncher;
}  // namespace adala::widgets

namespace adala::gui {

class EngineController;
class ScalingPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  enum Tab { SummaryTab = 0, PlotTab = 1, HealthTab = 2, InspectorTab = 3, ScalingTab = 4 };

  explicit MainWindow(EngineController* controller, QWidget* parent = nullptr);
  ~MainWindow() override;

  widgets::StageLauncher* launcher() const { return launcher_; }
  QLabel* statusLabel() const { return statusLabel_; }
  widgets::AttentionMsePlot* msePlot() const { return plot_; }
  widgets::HealthHeatmap* healthHeatmap() const { return health_; }
  widgets::AttentionInspector* inspector() const { return inspector_; }
  widgets::RunBrowser* runBrowser() const { return browser_; }
  widgets::RunSummaryPanel* summaryPanel() const { return summary_; }
  // The Summary tab's view of several runs (compareRuns): results and the config diff.
  widgets::RunCompareTable* compareTable() const { return compare_; }
  widgets::TrainingCurvesPlot* trainingCurves() const { return curves_; }
  // The "Loss & lr" tab: every stage's loss, training accuracy and learning rate (Ctrl+9).
  void showTrainingCurves();
  widgets::SegmentationViewer* segmentationViewer() const { return segmentation_; }
  ScalingPanel* scalingPanel() const { return scaling_; }
  widgets::FeatureView* featureView() const { return features_; }
  // The Features tab: teacher vs student patch features and the resolution sweep (Ctrl+8).
  void showFeatures();
  widgets::PlanFrontierView* planFrontier() const { return plans_; }
  // The Plans tab: trained attention plans, top-1 against cost, the frontier (Ctrl+Shift+P).
  void showPlans();
  EngineController* controller() const { return controller_; }
  void showTab(Tab tab);

  bool openExperiment(const QString& path);
  void startRun();
  // Shows a recorded run (its summary first, plots from the database, its checkpoints in the
  // inspector); a benchmark run in the Scaling tab.
  // False, with the reason in the status bar, for a run the database does not have.
  bool openRun(qint64 id);
  // A CSV of `adala bench scaling --csv` in the Scaling tab.
  bool openBenchmarkCsv(const QString& path);
  void compareRuns(const QList<qint64>& ids);
  void resumeRun(qint64 id);
  void showLiveRun();
  // A segmentation results folder (or a folder of them, or a run folder) in the Segmentation tab.
  bool openSegmentation(const QString& path);
  void showSegmentation();
  QString statusMessage() const;
  // The stage weights a run recorded, as (label, path), Stage 0 first.
  QList<QPair<QString, QString>> runCheckpoints(qint64 id) const;

  // Asked when the window is closed during a run; the default is a message box. Tests
  // replace it.
  void setQuitConfirmation(std::function<bool()> confirm) { confirmQuit_ = std::move(confirm); }
  bool stopping() const { return stopping_; }

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  // The menus (main_window_menus.cpp), one function a menu.
  void buildMenus();
  void buildFileMenu();
  void buildRunMenu();
  void buildViewMenu();
  void buildThemeMenu(QMenu* view);
  void buildLanguageMenu(QMenu* view);
  void buildHelpMenu();
  void buildToolBar();
  void updateRunActions();
  // The views wired to the controller and to each other (main_window_controller.cpp).
  void connectController();
  void connectLauncher();
  void connectRunProgress();
  void connectRunState();
  void connectInspector();
  void connectFeatures();
  void connectRunList();
  void restoreLayout();
  void saveLayout();
  void exportPlot();
  void openExperimentDialog();
  void saveExperimentDialog();
  void openCheckpointDialog();
  void openImageDialog();
  void openSegmentationDialog();
  // A run's segmentation/ folder: loaded into the Segmentation tab (`opened`: as part of
  // opening the run, said after what openRun says), or only mentioned.
  void offerRunSegmentation(qint64 id, bool load, bool opened = false);
  void showShortcuts();
  void updateStatus(const QString& message);
  // The run's health rows into the Numerical health tab (errors go to the status bar).
  void loadHealth(qint64 id);
  // The run's teacher and student into the Features tab, with its stored resolution sweep.
  void loadFeatures(qint64 id);
  // The launcher shows the config a run was recorded with (before resuming it).
  void showRecordedConfig(qint64 id);

  EngineController* controller_;
  widgets::StageLauncher* launcher_ = nullptr;
  widgets::AttentionMsePlot* plot_ = nullptr;
  widgets::HealthHeatmap* health_ = nullptr;
  widgets::AttentionInspector* inspector_ = nullptr;
  widgets::RunBrowser* browser_ = nullptr;
  widgets::RunSummaryPanel* summary_ = nullptr;
  widgets::RunCompareTable* compare_ = nullptr;
  QStackedWidget* summaryStack_ = nullptr;  // summary_ or compare_
  widgets::TrainingCurvesPlot* curves_ = nullptr;
  widgets::SegmentationViewer* segmentation_ = nullptr;
  ScalingPanel* scaling_ = nullptr;
  widgets::FeatureView* features_ = nullptr;
  widgets::PlanFrontierView* plans_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QDockWidget* runsDock_ = nullptr;
  QDockWidget* launcherDock_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QAction* logScaleAction_ = nullptr;
  QAction* startAction_ = nullptr;
  QAction* pauseAction_ = nullptr;
  QAction* cancelAction_ = nullptr;
  QAction* exportReportAction_ = nullptr;
  QByteArray defaultState_;

  // The live run: every step so far, so the plot can return to it after showing another run.
  widgets::JobState live_;
  QVector<widgets::StepUpdate> liveSteps_;
  bool plotShowsLive_ = false;

  std::function<bool()> confirmQuit_;
  bool stopping_ = false;
};

}  // namespace adala::gui
