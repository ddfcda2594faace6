// StageLauncher's experiment document: loading and saving it, the form filled from it and
// written back into it field by field, and the engine's check of it (the bad field marked).
#include "widgets/launch/stage_launcher.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStyle>
#include <QTabWidget>

#include <cmath>

#include "widgets/common/form_value.h"
#include "widgets/launch/attention_plan_form.h"
#include "widgets/launch/data_source_form.h"

namespace adala::widgets {

namespace {

QJsonValue valueAt(const QJsonObject& root, const QStringList& keys) {
  QJsonValue v = root;
  for (const auto& k : keys) {
    if (!v.isObject()) return QJsonValue::Undefined;
    v = v.toObject().value(k);
  }
  return v;
}

void setAt(QJsonObject& root, QStringList keys, const QJsonValue& value) {
  const QString key = keys.takeFirst();
  if (keys.isEmpty()) {
    if (value.isUndefined())
      root.remove(key);
    else
      root.insert(key, value);
    return;
  }
  QJsonObject child = root.value(key).toObject();
  setAt(child, keys, value);
  if (child.isEmpty() && value.isUndefined())
    root.remove(key);
  else
    root.insert(key, child);
}

}  // namespace

void StageLauncher::setValidator(ConfigValidator validator) {
  validator_ = std::move(validator);
  revalidate();
}

void StageLauncher::setPresetDepths(const QHash<QString, int>& depths) {
  presetDepths_ = depths;
  fillForm();
  revalidate();
}

void StageLauncher::setPresets(const QStringList& presets) {
  auto* combo = combos_.value(QStringLiteral("model.preset"));
  filling_ = true;
  combo->clear();
  combo->addItems(presets);
  filling_ = false;
  fillForm();
  revalidate();
}

QString StageLauncher::baseDir() const {
  return filePath_.isEmpty() ? QDir::currentPath() : QFileInfo(filePath_).absolutePath();
}

bool StageLauncher::loadFile(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    appendLog(tr("Cannot open %1: %2").arg(path, file.errorString()), LogLine::Level::Error);
    return false;
  }
  QJsonParseError error;
  const auto doc = QJsonDocument::fromJson(file.readAll(), &error);
  if (error.error != QJsonParseError::NoError || !doc.isObject()) {
    appendLog(tr("%1 is not a JSON experiment: %2 (offset %3)")
                  .arg(path, error.errorString())
                  .arg(error.offset),
              LogLine::Level::Error);
    return false;
  }
  filePath_ = QFileInfo(path).absoluteFilePath();
  fileLabel_->setText(QFileInfo(path).fileName());
  fileLabel_->setToolTip(filePath_);
  setDocument(doc.object());
  appendLog(tr("Loaded %1").arg(filePath_));
  return true;
}

bool StageLauncher::saveFile(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
    appendLog(tr("Cannot write %1: %2").arg(path, file.errorString()), LogLine::Level::Error);
    return false;
  }
  file.write(QJsonDocument(document_).toJson(QJsonDocument::Indented));
  edited_ = false;
  filePath_ = QFileInfo(path).absoluteFilePath();
  fileLabel_->setText(QFileInfo(path).fileName());
  fileLabel_->setToolTip(filePath_);
  appendLog(tr("Saved %1").arg(filePath_));
  return true;
}

void StageLauncher::setDocument(const QJsonObject& document) {
  document_ = document;
  edited_ = false;
  // A stage switched off in the file is unticked; the rest run.
  const QJsonObject stages = document_.value(QStringLiteral("stages")).toObject();
  for (int s = 0; s < kStageCount; ++s)
    stageChecks_[s]->setChecked(
        stages.value(stageNames()[s]).toObject().value(QStringLiteral("enabled")).toBool(true));
  fillForm();
  revalidate();
}

void StageLauncher::showRunConfig(qint64 runId, const QJsonObject& config) {
  setDocument(config);
  filePath_.clear();
  fileLabel_->setText(tr("run #%1's recorded config").arg(runId));
  fileLabel_->setToolTip(
      tr("The configuration run #%1 was started with; resuming it uses this one.").arg(runId));
}

QByteArray StageLauncher::documentJson() const {
  return QJsonDocument(document_).toJson(QJsonDocument::Compact);
}

QLineEdit* StageLauncher::field(const QString& path) const { return lines_.value(path); }
QComboBox* StageLauncher::combo(const QString& path) const { return combos_.value(path); }

QList<int> StageLauncher::selectedStages() const {
  QList<int> stages;
  for (int s = 0; s < kStageCount; ++s)
    if (stageChecks_[s]->isChecked()) stages << s;
  return stages;
}

void StageLauncher::setSelectedStages(const QList<int>& stages) {
  for (int s = 0; s < kStageCount; ++s) stageChecks_[s]->setChecked(stages.contains(s));
}

void StageLauncher::fillForm() {
  filling_ = true;
  for (auto it = lines_.cbegin(); it != lines_.cend(); ++it) {
    const QJsonValue v = valueAt(document_, it.key().split(QLatin1Char('.')));
    it.value()->setText(v.isUndefined() || v.isNull() ? QString() : v.toVariant().toString());
  }
  for (auto it = combos_.cbegin(); it != combos_.cend(); ++it) {
    const QJsonValue v = valueAt(document_, it.key().split(QLatin1Char('.')));
    auto* c = it.value();
    const QString text =
        v.isString() ? v.toString()
                     : (it.key() == QLatin1String("model.preset") ? QStringLiteral("fmnist_tiny")
                                                                  : QStringLiteral("auto"));
    int index = c->findText(text);
    if (index < 0) {
      c->addItem(text);
      index = c->count() - 1;
    }
    c->setCurrentIndex(index);
  }
  dataForm_->setData(document_.value(QStringLiteral("data")).toObject());
  planForm_->setDepth(modelDepth());
  planForm_->setAttention(document_.value(QStringLiteral("attention")));
  showJson();
  filling_ = false;
}

void StageLauncher::onFieldEdited(const QString& path, const QString& text) {
  if (filling_) return;
  edited_ = true;
  const bool isText = combos_.contains(path) || path == QLatin1String("name") ||
                      path == QLatin1String("teacher.weights") ||
                      path == QLatin1String("output.runs_dir");
  QJsonValue value = QJsonValue::Undefined;
  if (!text.trimmed().isEmpty()) value = isText ? QJsonValue(text) : parseScalar(text);
  setAt(document_, path.split(QLatin1Char('.')), value);
  if (path.startsWith(QLatin1String("model.")) || path == QLatin1String("teacher.weights"))
    updatePlanDepth();
  showJson();
  revalidate();
}

void StageLauncher::onPlanEdited() {
  if (filling_) return;
  edited_ = true;
  setSection(QStringLiteral("attention"),
             planForm_->applyTo(document_.value(QStringLiteral("attention")).toObject()));
}

int StageLauncher::modelDepth() const {
  const QJsonObject model = document_.value(QStringLiteral("model")).toObject();
  const QJsonValue depth = model.value(QStringLiteral("depth"));
  if (depth.isDouble()) {
    const double d = depth.toDouble();
    return d >= 1 && d <= 256 && d == std::floor(d) ? static_cast<int>(d) : 0;
  }
  const QJsonValue preset = model.value(QStringLiteral("preset"));
  if (preset.isString()) return presetDepths_.value(preset.toString(), 0);
  // No preset: the teacher's weights give the model, else the engine's default preset.
  if (!valueAt(document_, {QStringLiteral("teacher"), QStringLiteral("weights")})
           .toString()
           .isEmpty())
    return 0;
  return presetDepths_.value(QStringLiteral("fmnist_tiny"), 0);
}

// A model of other depth: the per-block modes follow it (the form shows one per block).
void StageLauncher::updatePlanDepth() {
  const int depth = modelDepth();
  if (depth == planForm_->depth()) return;
  planForm_->setDepth(depth);
  const QJsonObject attention = document_.value(QStringLiteral("attention")).toObject();
  if (depth > 0 && planForm_->form() == AttentionPlanForm::PerBlock &&
      attention.contains(QStringLiteral("blocks")))
    document_.insert(QStringLiteral("attention"), planForm_->applyTo(attention));
}

void StageLauncher::onDataEdited() {
  if (filling_) return;
  edited_ = true;
  setSection(QStringLiteral("data"),
             dataForm_->applyTo(document_.value(QStringLiteral("data")).toObject()));
}

// A form's part of the document (removed when empty), then the JSON view and the check.
void StageLauncher::setSection(const QString& key, const QJsonObject& section) {
  if (section.isEmpty())
    document_.remove(key);
  else
    document_.insert(key, section);
  showJson();
  revalidate();
}

void StageLauncher::showJson() {
  jsonView_->setPlainText(
      QString::fromUtf8(QJsonDocument(document_).toJson(QJsonDocument::Indented)));
}

void StageLauncher::revalidate() {
  FieldProblem p;
  if (validator_) {
    p = validator_(documentJson(), selectedStages(), baseDir());
  }
  if (p.ok() && selectedStages().isEmpty())
    p = FieldProblem{QStringLiteral("stages"), tr("select at least one stage to run")};
  const bool changed = p.ok() != problem_.ok();
  problem_ = p;
  markProblem();
  updateButtons();
  if (changed) emit validityChanged(problem_.ok());
}

void StageLauncher::markProblem() {
  for (auto it = widgets_.cbegin(); it != widgets_.cend(); ++it) {
    auto* w = it.value();
    const bool bad = !problem_.ok() && it.key() == problem_.field;
    if (w->property("invalid").toBool() != bad) {
      w->setProperty("invalid", bad);
      w->style()->unpolish(w);
      w->style()->polish(w);
    }
    w->setToolTip(bad ? problem_.reason : w->property("baseTip").toString());
  }
  dataForm_->showProblem(problem_.field, problem_.reason);
  planForm_->showProblem(problem_.field, problem_.reason);
  for (int t = 0; t < tabs_->count(); ++t)
    tabs_->setTabText(t, tabs_->tabText(t).remove(QStringLiteral(" ⚠")));
  if (problem_.ok()) {
    problemLabel_->setText(tr("✓ The experiment is valid."));
    problemLabel_->setStyleSheet(QStringLiteral("color: #2ca02c;"));
    return;
  }
  problemLabel_->setStyleSheet(QStringLiteral("color: #d62728; font-weight: bold;"));
  problemLabel_->setText(problem_.field.isEmpty()
                             ? tr("⚠ %1").arg(problem_.reason)
                             : tr("⚠ %1: %2").arg(problem_.field, problem_.reason));
  QWidget* w = widgets_.value(problem_.field);
  if (!w) w = dataForm_->widgetFor(problem_.field);
  if (!w) w = planForm_->widgetFor(problem_.field);
  if (!w && problem_.field.startsWith(QLatin1String("data."))) w = dataForm_;
  if (w)
    for (int t = 0; t < tabs_->count(); ++t)
      if (tabs_->widget(t)->isAncestorOf(w))
        tabs_->setTabText(t, tabs_->tabText(t) + QStringLiteral(" ⚠"));
}

}  // namespace adala::widgets
