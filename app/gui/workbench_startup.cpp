#include "engine/runtime/build_info.h"
#include "engine/runtime/device.h"

#include "app/gui/workbench_startup.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>

#include <cstdio>
#include <memory>

#include "app/i18n/language.h"
#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/theme.h"
#include "app/gui/workbench_options.h"
#include "resources/resources.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/inspect/feature_view.h"
#include "widgets/segmentation/segmentation_viewer.h"
#include "widgets/launch/stage_launcher.h"

namespace adala::gui {

namespace {

using widgets::AttentionInspector;

// Opens the experiment to start (--run, --measure-stall) with its stages and starts it once the
// event loop runs; 2 when it cannot be.
std::optional<int> prepareRun(const WorkbenchOptions& o, MainWindow& window) {
  if (o.startConfig.isEmpty()) {
    if (!o.stages.isEmpty()) window.launcher()->setSelectedStages(o.stages);
    return std::nullopt;
  }
  if (!window.openExperiment(o.startConfig)) {
    std::fprintf(stderr, "adala-workbench: cannot open %s\n", qPrintable(o.startConfig));
    return 2;
  }
  if (!o.stages.isEmpty()) window.launcher()->setSelectedStages(o.stages);
  if (const auto& problem = window.launcher()->problem(); !problem.ok()) {
    std::fprintf(stderr, "adala-workbench: %s: %s\n", qPrintable(problem.field),
                 qPrintable(problem.reason));
    return 2;
  }
  window.showTab(MainWindow::PlotTab);
  QTimer::singleShot(0, &window, [&window] { window.startRun(); });
  return std::nullopt;
}

// --export-figure: writes the figure once the maps asked for are drawn (the rows, and the
// rollout when it is the view), then says where on stderr.
void exportFigureWhenDrawn(AttentionInspector* inspector, const QString& out, bool rollout) {
  auto write = [inspector, out, rollout, done = std::make_shared<bool>(false)] {
    if (*done || inspector->rolloutShown() != rollout) return;
    if (rollout && inspector->rolloutSoftmax().isEmpty()) return;
    *done = true;
    const QString error = inspector->exportFigure(out);
    std::fprintf(stderr, "adala-workbench: %s\n",
                 qPrintable(error.isEmpty() ? QStringLiteral("figure written to ") + out : error));
  };
  if (rollout)
    QObject::connect(inspector, &AttentionInspector::overviewUpdated, inspector, write);
  else
    QObject::connect(inspector, &AttentionInspector::mapsUpdated, inspector, write);
}

// Block, head, query and view apply once the first probe is ready (the first time only).
void applyWhenProbed(const WorkbenchOptions& o, AttentionInspector* inspector,
                     EngineController& controller) {
  auto applied = std::make_shared<bool>(false);
  QObject::connect(&controller, &EngineController::probeReady, inspector, [=] {
    if (*applied) return;
    *applied = true;
    if (o.block) inspector->setBlock(*o.block);
    if (o.head) inspector->setHead(*o.head);
    if (o.queryPatch) inspector->setQueryPatch(o.queryPatch->first, o.queryPatch->second);
    if (o.inspectorView == InspectorView::Rollout) inspector->setRollout(true);
    if (o.inspectorView == InspectorView::Grid) inspector->showBlockHeadGrid();
    inspector->setFocus();
    if (!o.exportFigure.isEmpty())
      exportFigureWhenDrawn(inspector, o.exportFigure, o.inspectorView == InspectorView::Rollout);
  });
}

void setUpInspector(const WorkbenchOptions& o, MainWindow& window, EngineController& controller) {
  AttentionInspector* inspector = window.inspector();
  if (o.scale == widgets::ScaleMode::Fixed)
    inspector->setFixedRange(o.fixedRange);  // checked when the line was read
  else if (o.scale)
    inspector->setScaleMode(*o.scale);
  if (!o.inspect) return;
  if (o.inputSize) inspector->setInputSize(*o.inputSize);
  if (!o.precision.isEmpty()) inspector->setPrecision(o.precision);
  if (!o.dataset.isEmpty()) inspector->setDataset(o.dataset);
  if (!o.image.isEmpty())
    inspector->setImageFile(o.image);
  else if (o.datasetIndex)
    inspector->setDatasetItem(*o.datasetIndex);
  if (!o.checkpoint.isEmpty()) {
    const QFileInfo file(o.checkpoint);
    inspector->addCheckpoint(file.dir().dirName() + QStringLiteral(" · ") + file.fileName(),
                             o.checkpoint, true);
  }
  window.showTab(MainWindow::InspectorTab);
  applyWhenProbed(o, inspector, controller);
}

MainWindow::Tab mainWindowTab(WorkbenchTab tab) {
  switch (tab) {
    case WorkbenchTab::Summary:
      return MainWindow::SummaryTab;
    case WorkbenchTab::Health:
      return MainWindow::HealthTab;
    case WorkbenchTab::Inspector:
      return MainWindow::InspectorTab;
    case WorkbenchTab::Scaling:
      return MainWindow::ScalingTab;
    case WorkbenchTab::Plot:
    case WorkbenchTab::Features:  // shown by showFeatures
    case WorkbenchTab::Plans:     // shown by showPlans
      break;
  }
  return MainWindow::PlotTab;
}

// The segmentation results, the scaling CSV and the tab to show.
void showViews(const WorkbenchOptions& o, MainWindow& window) {
  if (!o.openSegmentation.isEmpty()) {
    if (!window.openSegmentation(o.openSegmentation))
      std::fprintf(stderr, "adala-workbench: %s\n", qPrintable(window.statusMessage()));
    if (o.segmentationImage) window.segmentationViewer()->setPosition(*o.segmentationImage - 1);
  }
  if (!o.scalingCsv.isEmpty() && !window.openBenchmarkCsv(o.scalingCsv))
    std::fprintf(stderr, "adala-workbench: cannot plot %s (see the Scaling tab)\n",
                 qPrintable(o.scalingCsv));
  if (o.tab == WorkbenchTab::Features) {
    window.showFeatures();  // --dataset-index picks the Features tab's image too
    if (o.datasetIndex) window.featureView()->indexBox()->setValue(*o.datasetIndex);
  } else if (o.tab == WorkbenchTab::Plans) {
    window.showPlans();
  } else if (o.tab) {
    window.showTab(mainWindowTab(*o.tab));
  }
}

}  // namespace

void setUpApplication(QApplication& app) {
  QApplication::setOrganizationName(QStringLiteral("AdaLA"));
  QApplication::setApplicationName(QStringLiteral("Workbench"));
  QApplication::setApplicationDisplayName(QApplication::translate("main", "AdaLA Workbench"));
  QApplication::setApplicationVersion(QString::fromLatin1(adala::kProjectVersion));
  QApplication::setWindowIcon(workbenchIcon("adala"));
  QGuiApplication::setDesktopFileName(QStringLiteral("adala-workbench"));
  // English or Korean, following the system unless chosen in View > Language.
  adala::i18n::install_translator(app, adala::i18n::saved_language());
}

void applyProcessOptions(const WorkbenchOptions& o) {
  configure_threads(o.threads);
  const QString theme = o.theme.value_or(
      QSettings().value(QStringLiteral("theme"), QStringLiteral("system")).toString());
  ThemeManager::instance()->apply(themeFromName(theme));
}

std::optional<int> applyWorkbenchOptions(const WorkbenchOptions& o, MainWindow& window,
                                         EngineController& controller) {
  if (!o.experiment.isEmpty()) window.openExperiment(o.experiment);
  if (const auto exitCode = prepareRun(o, window)) return exitCode;
  if (o.openRun && !window.openRun(*o.openRun))
    std::fprintf(stderr, "adala-workbench: --open-run: %s\n", qPrintable(window.statusMessage()));
  if (o.compare) window.compareRuns(*o.compare);
  setUpInspector(o, window, controller);
  showViews(o, window);
  return std::nullopt;
}

}  // namespace adala::gui
