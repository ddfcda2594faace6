#include "app/gui/scaling_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QVBoxLayout>
#include <QSettings>

#include <algorithm>

#include "app/gui/scaling_bench_process.h"
#include "engine/model/vit_config.h"
#include "widgets/scaling/scaling_data.h"
#include "widgets/scaling/scaling_form.h"
#include "widgets/scaling/scaling_view.h"

namespace adala::gui {

using namespace adala::widgets;

ScalingPanel::ScalingPanel(const QString& dbPath, QWidget* parent)
    : QWidget(parent), dbPath_(dbPath) {
  auto* layout = new QVBoxLayout(this);
  form_ = new ScalingForm(this);
  view_ = new ScalingView(this);
  layout->addWidget(form_);
  layout->addWidget(view_, 1);
  process_ = new ScalingBenchProcess(this);

  connect(form_, &ScalingForm::runRequested, this, &ScalingPanel::startBenchmark);
  connect(form_, &ScalingForm::cancelRequested, process_, &ScalingBenchProcess::cancel);
  connect(form_, &ScalingForm::openRunRequested, this, &ScalingPanel::openRun);
  connect(form_, &ScalingForm::openCsvRequested, this, &ScalingPanel::openCsvDialog);
  connect(view_, &ScalingView::message, this, &ScalingPanel::status);

  connect(process_, &ScalingBenchProcess::progress, form_, &ScalingForm::setProgress);
  // Points drawn as they arrive, on axes that already span the resolutions to come.
  connect(process_, &ScalingBenchProcess::benchmarkStarted, this,
          [this](const QString&, const QVector<int>& resolutions, const QStringList&) {
            view_->setPlannedResolutions(resolutions);
          });
  connect(process_, &ScalingBenchProcess::pointMeasured, view_, &ScalingView::addSample);
  connect(process_, &ScalingBenchProcess::runRecorded, this, [this](qint64 id) {
    form_->showMessage(tr("Recording benchmark run #%1…").arg(id));
    emit benchmarkRecorded(id);
  });
  connect(process_, &ScalingBenchProcess::succeeded, this, [this](const QString& csv, qint64 id) {
    form_->setRunning(false);
    view_->setPlannedResolutions({});
    QString error;
    const auto samples = readScalingCsv(csv, &error);
    if (samples.isEmpty()) {
      form_->showError(tr("The benchmark finished but its CSV cannot be read: %1").arg(error));
      return;
    }
    view_->setSamples(samples,
                      id > 0 ? tr("benchmark run #%1").arg(id) : tr("benchmark (not recorded)"));
    syncForm();
    form_->showMessage(id > 0
                           ? tr("Done: %1 points, recorded as run #%2.").arg(samples.size()).arg(id)
                           : tr("Done: %1 points.").arg(samples.size()));
    refreshRuns();
    emit benchmarkRecorded(id);
    emit status(tr("Scaling benchmark done."));
  });
  connect(process_, &ScalingBenchProcess::failed, this, [this](const QString& message, qint64 id) {
    form_->setRunning(false);
    view_->setPlannedResolutions({});
    form_->showError(message);
    // What it measured before failing is in the database: show that.
    if (id > 0 && view_->loadRun(dbPath_, id)) {
      syncForm();
      form_->showError(message + QLatin1Char(' ') +
                       tr("Showing the points measured before it failed."));
    }
    refreshRuns();
    if (id > 0) emit benchmarkRecorded(id);
    emit status(tr("Scaling benchmark failed."));
  });
  connect(process_, &ScalingBenchProcess::cancelled, this, [this](qint64 id) {
    form_->setRunning(false);
    view_->setPlannedResolutions({});
    if (id > 0 && view_->loadRun(dbPath_, id)) {
      syncForm();
      form_->showMessage(
          tr("Cancelled. The resolutions measured before are kept in run #%1 and shown.").arg(id));
    } else {
      form_->showMessage(tr("Cancelled before any resolution was measured."));
    }
    refreshRuns();
    if (id > 0) emit benchmarkRecorded(id);
    emit status(tr("Scaling benchmark cancelled."));
  });
  refreshRuns();
}

void ScalingPanel::setPresets(const QStringList& presets) {
  // The models the paper's scaling study covers first, then the rest.
  QStringList ordered;
  for (const char* name : {"vit_small", "vit_base", "vit_large"})
    if (presets.contains(QLatin1String(name))) ordered << QString::fromLatin1(name);
  for (const QString& name : presets)
    if (!ordered.contains(name)) ordered << name;
  QHash<QString, int> depths;
  for (const QString& name : ordered) {
    try {
      depths.insert(name, static_cast<int>(vit_preset(name.toStdString()).depth));
    } catch (const std::exception&) {  // not an engine preset: no per-block plan for it
    }
  }
  form_->setPresetDepths(depths);
  form_->setPresets(ordered, QStringLiteral("vit_small"));
}

void ScalingPanel::startBenchmark(const ScalingRequest& request) {
  // Running first: a program that cannot start may report so before start() returns.
  form_->setRunning(true);
  form_->showMessage(tr("Running adala bench scaling (%1, %2 resolutions × %3 modes)…")
                         .arg(request.preset)
                         .arg(request.resolutions.size())
                         .arg(request.modes.size()));
  emit status(tr("Scaling benchmark running…"));
  // The plots start empty on the requested resolutions and fill as points arrive.
  view_->setSamples({}, tr("benchmark running"));
  view_->setPlannedResolutions(request.resolutions);
  QString error;
  if (!process_->start(request, dbPath_, &error)) {
    form_->setRunning(false);
    view_->setPlannedResolutions({});
    form_->showError(error);
  }
}

void ScalingPanel::syncForm() {
  const auto& samples = view_->samples();
  if (samples.isEmpty() || form_->running()) return;
  QVector<int> resolutions;
  for (const auto& s : samples)
    if (!resolutions.contains(s.resolution)) resolutions << s.resolution;
  std::sort(resolutions.begin(), resolutions.end());
  QStringList text;
  for (int r : resolutions) text << QString::number(r);
  form_->setResolutionsText(text.join(QStringLiteral(", ")));
  form_->setModes(modesOf(samples));
  const QString preset = samples.first().preset;
  if (!preset.isEmpty()) {
    if (form_->presetBox()->findText(preset) < 0) form_->presetBox()->addItem(preset);
    form_->presetBox()->setCurrentText(preset);
  }
}

bool ScalingPanel::openCsv(const QString& path) {
  QString error;
  if (!view_->loadCsv(path, &error)) {
    form_->showError(error);
    return false;
  }
  syncForm();
  form_->showMessage(tr("Showing %1.").arg(QFileInfo(path).fileName()));
  return true;
}

bool ScalingPanel::openRun(qint64 runId) {
  QString error;
  if (!view_->loadRun(dbPath_, runId, &error)) {
    form_->showError(error);
    return false;
  }
  syncForm();
  form_->showMessage(tr("Showing benchmark run #%1.").arg(runId));
  return true;
}

void ScalingPanel::openCsvDialog() {
  QSettings settings;
  const QString start = settings.value(QStringLiteral("scaling/lastCsv")).toString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a benchmark CSV"), start,
                                                    tr("CSV tables (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("scaling/lastCsv"), path);
  openCsv(path);
}

void ScalingPanel::refreshRuns() {
  if (dbPath_.isEmpty() || !QFileInfo::exists(dbPath_)) {
    form_->setEarlierRuns({});
    return;
  }
  form_->setEarlierRuns(listScalingRuns(dbPath_));
}

}  // namespace adala::gui
