// The main window's file dialogs: experiments, checkpoints, images, segmentation results, and
// exporting the plots.
#include "app/gui/main_window.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

#include "app/gui/checkpoint_label.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/launch/stage_launcher.h"
#include "widgets/runs/attention_mse_plot.h"

namespace adala::gui {

using namespace adala::widgets;

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

}  // namespace adala::gui
