#include "widgets/stage_launcher.h"

#include <iterator>

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/attention_plan_form.h"
#include "widgets/data_source_form.h"
#include "widgets/form_value.h"

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

QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const qint64 s = static_cast<qint64>(std::llround(seconds));
  if (s >= 3600)
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// Config key and the label shown for it.
const struct {
  const char* key;
  const char* label;
} kStageParams[] = {
    {"epochs", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "epochs")},
    {"max_steps", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "max steps")},
    {"batch_size", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "batch size")},
    {"lr", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "learning rate")},
    {"warmup_steps", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "warm-up steps")},
    {"weight_decay", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "weight decay")},
    {"grad_clip", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "gradient clip")},
    {"log_every", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "log every")},
    {"checkpoint_every", QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "checkpoint every")}};

const char* const kStageShortNames[] = {
    QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "0 teacher"),
    QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "1 attention"),
    QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "2 feature"),
    QT_TRANSLATE_NOOP("adala::widgets::StageLauncher", "3 fine-tune")};
static_assert(std::size(kStageShortNames) == kStageCount, "one short name per stage of kStages");

}  // namespace

StageLauncher::StageLauncher(QWidget* parent) : QWidget(parent) {
  setStyleSheet(QStringLiteral(
      "QLineEdit[invalid=\"true\"], QComboBox[invalid=\"true\"] { border: 2px solid #d62728; }"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buildFileRow());

  tabs_ = new QTabWidget(this);
  tabs_->addTab(buildExperimentPage(), tr("Experiment"));
  tabs_->addTab(buildDataPage(), tr("Data"));
  tabs_->addTab(buildStagesPage(), tr("Stages"));
  jsonView_ = new QPlainTextEdit;
  jsonView_->setReadOnly(true);
  jsonView_->setLineWrapMode(QPlainTextEdit::NoWrap);
  tabs_->addTab(jsonView_, tr("JSON"));
  layout->addWidget(tabs_, 3);

  problemLabel_ = new QLabel(this);
  problemLabel_->setWordWrap(true);
  problemLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(problemLabel_);
  layout->addLayout(buildRunButtons());
  layout->addLayout(buildProgressGrid());

  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(5000);
  log_->setPlaceholderText(tr("Run log"));
  layout->addWidget(log_, 2);

  // A small, valid default experiment until a file is opened.
  QJsonObject doc;
  doc.insert(QStringLiteral("name"), QStringLiteral("experiment"));
  doc.insert(QStringLiteral("model"),
             QJsonObject{{QStringLiteral("preset"), QStringLiteral("fmnist_tiny")}});
  setDocument(doc);
}

// The children outlive the members: a field's last signal as it goes (the window's spin box
// fixes an even k up when it loses focus) must not reach the document.
StageLauncher::~StageLauncher() { disconnect(planForm_, nullptr, this, nullptr); }

QHBoxLayout* StageLauncher::buildFileRow() {
  auto* fileRow = new QHBoxLayout;
  fileLabel_ = new QLabel(tr("(unsaved experiment)"), this);
  fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  fileRow->addWidget(fileLabel_, 1);
  auto* openButton = new QPushButton(tr("Open…"), this);
  openButton->setToolTip(tr("Open an experiment file (Ctrl+O)"));
  fileRow->addWidget(openButton);
  connect(openButton, &QPushButton::clicked, this, &StageLauncher::openFileRequested);
  return fileRow;
}

// Experiment: top-level, model, data and output fields.
QWidget* StageLauncher::buildExperimentPage() {
  auto* general = new QWidget;
  auto* form = new QFormLayout(general);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->addRow(tr("Name"), addLineField("name", tr("experiment"), tr("Run name (no '/')")));
  form->addRow(tr("Seed"),
               addLineField("seed", QStringLiteral("0"), tr("Random seed of weights and batches")));
  form->addRow(
      tr("Device"),
      addComboField("device",
                    {QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda")}, true));
  form->addRow(tr("Threads"),
               addLineField("threads", tr("all cores"), tr("LibTorch threads (0 = all cores)")));
  form->addRow(tr("Model preset"),
               addComboField("model.preset", {QStringLiteral("fmnist_tiny")}, false));
  planForm_ = new AttentionPlanForm(general);
  connect(planForm_, &AttentionPlanForm::edited, this, &StageLauncher::onPlanEdited);
  auto* planLabel = new QLabel(tr("Attention &plan"), general);
  planLabel->setBuddy(planForm_->formCombo());
  form->addRow(planLabel, planForm_);
  form->addRow(
      tr("Teacher weights"),
      addLineField("teacher.weights", tr("train Stage 0"),
                   tr("Pretrained softmax teacher (.safetensors); empty: Stage 0 trains one")));
  form->addRow(tr("Runs folder"), addLineField("output.runs_dir", QStringLiteral("runs"),
                                               tr("Where run folders (weights, checkpoints) go")));
  auto* scroll = new QScrollArea;
  scroll->setWidget(general);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

void StageLauncher::onPlanEdited() {
  if (filling_) return;
  edited_ = true;
  const QJsonObject attention =
      planForm_->applyTo(document_.value(QStringLiteral("attention")).toObject());
  if (attention.isEmpty())
    document_.remove(QStringLiteral("attention"));
  else
    document_.insert(QStringLiteral("attention"), attention);
  jsonView_->setPlainText(
      QString::fromUtf8(QJsonDocument(document_).toJson(QJsonDocument::Indented)));
  revalidate();
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

// Data: each stage's source, the loader's settings.
QWidget* StageLauncher::buildDataPage() {
  dataForm_ = new DataSourceForm;
  connect(dataForm_, &DataSourceForm::edited, this, &StageLauncher::onDataEdited);
  auto* scroll = new QScrollArea;
  scroll->setWidget(dataForm_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

void StageLauncher::onDataEdited() {
  if (filling_) return;
  edited_ = true;
  const QJsonObject data = dataForm_->applyTo(document_.value(QStringLiteral("data")).toObject());
  if (data.isEmpty())
    document_.remove(QStringLiteral("data"));
  else
    document_.insert(QStringLiteral("data"), data);
  jsonView_->setPlainText(
      QString::fromUtf8(QJsonDocument(document_).toJson(QJsonDocument::Indented)));
  revalidate();
}

// Stages: one column per stage, one row per hyper-parameter; the header selects the stages.
QWidget* StageLauncher::buildStagesPage() {
  auto* stagesPage = new QWidget;
  auto* grid = new QGridLayout(stagesPage);
  grid->setHorizontalSpacing(4);
  for (int s = 0; s < kStageCount; ++s) {
    stageChecks_[s] = new QCheckBox(tr(kStageShortNames[s]), stagesPage);
    stageChecks_[s]->setChecked(true);
    stageChecks_[s]->setToolTip(tr("Run %1").arg(stageTitle(s)));
    grid->addWidget(stageChecks_[s], 0, 1 + s);
    connect(stageChecks_[s], &QCheckBox::toggled, this, [this] { revalidate(); });
  }
  int row = 1;
  for (const auto& param : kStageParams) {
    auto* label = new QLabel(tr(param.label), stagesPage);
    label->setToolTip(QStringLiteral("stages.<stage>.%1").arg(QString::fromLatin1(param.key)));
    grid->addWidget(label, row, 0);
    for (int s = 0; s < kStageCount; ++s) {
      const QString path =
          QStringLiteral("stages.%1.%2").arg(stageNames()[s], QString::fromLatin1(param.key));
      auto* edit = addLineField(path, tr("default"),
                                tr("%1: %2 (%3)").arg(stageTitle(s), tr(param.label), path));
      edit->setMinimumWidth(44);
      grid->addWidget(edit, row, 1 + s);
    }
    ++row;
  }
  grid->setRowStretch(row, 1);
  auto* scroll = new QScrollArea;
  scroll->setWidget(stagesPage);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

QHBoxLayout* StageLauncher::buildRunButtons() {
  auto* buttons = new QHBoxLayout;
  startButton_ = new QPushButton(tr("Start"), this);
  startButton_->setToolTip(tr("Start the selected stages (Ctrl+Return)"));
  startButton_->setDefault(true);
  pauseButton_ = new QPushButton(tr("Pause"), this);
  pauseButton_->setToolTip(tr("Pause or resume after the current step (Ctrl+P)"));
  cancelButton_ = new QPushButton(tr("Cancel"), this);
  cancelButton_->setToolTip(
      tr("Stop after the current step; the run is checkpointed and can be resumed (Ctrl+.)"));
  auto* processesLabel = new QLabel(tr("Processes:"), this);
  processes_ = new QSpinBox(this);
  processes_->setRange(1, std::max(1, QThread::idealThreadCount()));
  processes_->setValue(1);
  processes_->setToolTip(
      tr("Data-parallel worker processes on this machine (adala run --nproc). 1 trains inside "
         "the workbench; more start that many `adala run` processes, each training on its share "
         "of every batch, with the plots showing the metrics averaged over them. Such a run "
         "cannot be paused; Cancel checkpoints it and it resumes from the run list."));
  processesLabel->setBuddy(processes_);
  processesLabel->setToolTip(processes_->toolTip());
  buttons->addWidget(processesLabel);
  buttons->addWidget(processes_);
  for (auto* b : {startButton_, pauseButton_, cancelButton_}) buttons->addWidget(b);
  connect(startButton_, &QPushButton::clicked, this, &StageLauncher::start);
  connect(pauseButton_, &QPushButton::clicked, this, [this] { emit pauseRequested(!paused_); });
  connect(cancelButton_, &QPushButton::clicked, this, &StageLauncher::cancelRequested);
  return buttons;
}

// One progress bar and status line per stage.
QGridLayout* StageLauncher::buildProgressGrid() {
  auto* progress = new QGridLayout;
  for (int s = 0; s < kStageCount; ++s) {
    progress->addWidget(new QLabel(stageTitle(s), this), 2 * s, 0, 1, 2);
    bars_[s] = new QProgressBar(this);
    bars_[s]->setRange(0, 1);
    bars_[s]->setValue(0);
    bars_[s]->setFormat(tr("%v / %m"));
    progress->addWidget(bars_[s], 2 * s + 1, 0);
    barLabels_[s] = new QLabel(this);
    barLabels_[s]->setMinimumWidth(0);
    barLabels_[s]->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    progress->addWidget(barLabels_[s], 2 * s + 1, 1);
  }
  progress->setColumnStretch(0, 1);
  progress->setColumnStretch(1, 2);
  return progress;
}

QLineEdit* StageLauncher::addLineField(const QString& path, const QString& placeholder,
                                       const QString& tip) {
  auto* edit = new QLineEdit(this);
  edit->setPlaceholderText(placeholder);
  edit->setToolTip(tip);
  edit->setProperty("fieldPath", path);
  edit->setProperty("baseTip", tip);
  edit->setAccessibleName(path);
  lines_.insert(path, edit);
  widgets_.insert(path, edit);
  connect(edit, &QLineEdit::textEdited, this,
          [this, path](const QString& text) { onFieldEdited(path, text); });
  return edit;
}

QComboBox* StageLauncher::addComboField(const QString& path, const QStringList& items,
                                        bool editable) {
  auto* combo = new QComboBox(this);
  combo->setEditable(editable);
  combo->addItems(items);
  combo->setProperty("fieldPath", path);
  combo->setAccessibleName(path);
  combos_.insert(path, combo);
  widgets_.insert(path, combo);
  connect(combo, &QComboBox::currentTextChanged, this, [this, path](const QString& text) {
    if (!filling_) onFieldEdited(path, text);
  });
  return combo;
}

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
  jsonView_->setPlainText(
      QString::fromUtf8(QJsonDocument(document_).toJson(QJsonDocument::Indented)));
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
  jsonView_->setPlainText(
      QString::fromUtf8(QJsonDocument(document_).toJson(QJsonDocument::Indented)));
  revalidate();
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

void StageLauncher::updateButtons() {
  startButton_->setEnabled(problem_.ok() && !running_);
  startButton_->setToolTip(problem_.ok()
                               ? tr("Start the selected stages (Ctrl+Return)")
                               : tr("Fix %1 first: %2").arg(problem_.field, problem_.reason));
  pauseButton_->setEnabled(running_ && runProcesses_ <= 1);
  pauseButton_->setText(paused_ ? tr("Resume") : tr("Pause"));
  pauseButton_->setToolTip(
      running_ && runProcesses_ > 1
          ? tr("A run on %1 processes cannot be paused: its processes wait for each other at "
               "every step. Cancel it instead (it checkpoints) and resume it from the run list.")
                .arg(runProcesses_)
          : tr("Pause or resume after the current step (Ctrl+P)"));
  processes_->setEnabled(!running_);
  cancelButton_->setEnabled(running_);
  for (int t = 0; t < 3; ++t) tabs_->widget(t)->setEnabled(!running_);  // the form, not JSON
}

void StageLauncher::start() {
  revalidate();
  if (!problem_.ok() || running_) return;
  StartRequest r;
  r.stages = selectedStages();
  // The ticks decide: a ticked stage the file switched off ("enabled": false) runs.
  QJsonObject document = document_;
  QJsonObject stages = document.value(QStringLiteral("stages")).toObject();
  for (int s : r.stages) {
    QJsonObject stage = stages.value(stageNames()[s]).toObject();
    if (stage.contains(QStringLiteral("enabled"))) {
      stage.remove(QStringLiteral("enabled"));
      stages[stageNames()[s]] = stage;
    }
  }
  if (!stages.isEmpty()) document[QStringLiteral("stages")] = stages;
  r.configJson = QJsonDocument(document).toJson(QJsonDocument::Compact);
  r.configDir = baseDir();
  r.processes = processes_->value();
  startedStages_ = r.stages;
  emit startRequested(r);
}

void StageLauncher::resetProgress() {
  for (int s = 0; s < kStageCount; ++s) {
    bars_[s]->setRange(0, 1);
    bars_[s]->setValue(0);
    barLabels_[s]->clear();
    barLabels_[s]->setToolTip(QString());
    waitedSteps_[s] = 0.0;
    countedSteps_[s] = 0;
    lastStep_[s] = 0;
  }
}

void StageLauncher::onJobStarted(const JobState& state) {
  running_ = true;
  paused_ = false;
  activeStage_ = -1;
  runProcesses_ = std::max(1, state.processes);
  resetProgress();
  if (!startedStages_.isEmpty())
    for (int s = 0; s < kStageCount; ++s)
      if (!startedStages_.contains(s)) barLabels_[s]->setText(tr("not in this run"));
  startedStages_.clear();
  appendLog(tr("Run %1 started in %2").arg(state.runId).arg(state.runDir));
  updateButtons();
}

void StageLauncher::onSteps(const QVector<StepUpdate>& steps) {
  if (steps.isEmpty()) return;
  // Only the newest step of each stage matters for the bars.
  for (int s = 0; s < kStageCount; ++s) {
    const StepUpdate* last = nullptr;
    for (const auto& m : steps)
      if (stageIndex(m.stage) == s) last = &m;
    if (!last) continue;
    bars_[s]->setRange(0, static_cast<int>(std::max<qint64>(1, last->totalSteps)));
    bars_[s]->setValue(static_cast<int>(last->step));
    for (const auto& m : steps)
      if (stageIndex(m.stage) == s) countDataWait(s, m);
    // Data wait before the loss: on a narrow dock the end of the line is cut (the tooltip
    // keeps it whole).
    const QString text = tr("ETA %1 · %2 img/s · data %3% · loss %4")
                             .arg(formatDuration(last->etaSeconds))
                             .arg(last->imagesPerSecond, 0, 'f', 0)
                             .arg(std::lround(100.0 * std::clamp(last->dataWaitShare, 0.0, 1.0)))
                             .arg(last->loss, 0, 'g', 3);
    barLabels_[s]->setText(text);
    barLabels_[s]->setToolTip(text);
  }
}

// A report's share covers the steps since the previous report (or the stage's start).
void StageLauncher::countDataWait(int s, const StepUpdate& m) {
  const qint64 covered = m.step - lastStep_[s];
  lastStep_[s] = m.step;
  if (covered <= 0 || !std::isfinite(m.dataWaitShare)) return;
  waitedSteps_[s] += std::clamp(m.dataWaitShare, 0.0, 1.0) * double(covered);
  countedSteps_[s] += covered;
}

void StageLauncher::onStage(const StageUpdate& u) {
  const int s = stageIndex(u.stage);
  if (s < 0) return;
  switch (u.kind) {
    case StageUpdate::Kind::Started:
      bars_[s]->setRange(0, static_cast<int>(std::max<qint64>(1, u.totalSteps)));
      bars_[s]->setValue(static_cast<int>(u.step));
      waitedSteps_[s] = 0.0;
      countedSteps_[s] = 0;
      lastStep_[s] = u.step;
      barLabels_[s]->setText(u.step > 0 ? tr("resumed at step %1").arg(u.step) : tr("started"));
      activeStage_ = s;
      break;
    case StageUpdate::Kind::Finished:
      bars_[s]->setValue(bars_[s]->maximum());
      barLabels_[s]->setText(
          countedSteps_[s] > 0
              ? tr("done in %1 · data wait %2%")
                    .arg(formatDuration(u.seconds))
                    .arg(std::lround(100.0 * waitedSteps_[s] / double(countedSteps_[s])))
              : tr("done in %1").arg(formatDuration(u.seconds)));
      break;
    case StageUpdate::Kind::Cancelled:
      barLabels_[s]->setText(tr("interrupted at step %1").arg(u.step));
      break;
    case StageUpdate::Kind::Failed:
      barLabels_[s]->setText(tr("failed"));
      break;
  }
  if (u.kind != StageUpdate::Kind::Started && activeStage_ == s) activeStage_ = -1;
}

void StageLauncher::onLog(const LogLine& line) { appendLog(line.message, line.level); }

void StageLauncher::onJobFinished(const JobState& state) {
  running_ = false;
  paused_ = false;
  runProcesses_ = 1;
  const auto level = state.status == JobStatus::Failed ? LogLine::Level::Error
                     : state.status == JobStatus::Done ? LogLine::Level::Info
                                                       : LogLine::Level::Warning;
  const QString status = jobStatusText(state.status);
  appendLog(state.message.isEmpty()
                ? tr("Run %1: %2").arg(state.runId).arg(status)
                : tr("Run %1: %2 — %3").arg(state.runId).arg(status, state.message),
            level);
  updateButtons();
}

void StageLauncher::onPaused(bool paused) {
  paused_ = paused;
  appendLog(paused ? tr("Paused (after the current step).") : tr("Resumed."));
  // An ETA frozen while paused would read as a stalled run.
  if (running_ && activeStage_ >= 0) {
    const int s = activeStage_;
    barLabels_[s]->setText(
        paused ? tr("paused at step %1 of %2").arg(bars_[s]->value()).arg(bars_[s]->maximum())
               : tr("resumed at step %1").arg(bars_[s]->value()));
    barLabels_[s]->setToolTip(barLabels_[s]->text());
  }
  updateButtons();
}

void StageLauncher::appendLog(const QString& text, LogLine::Level level) {
  const QString time = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
  const QString color = level == LogLine::Level::Error     ? QStringLiteral("#d62728")
                        : level == LogLine::Level::Warning ? QStringLiteral("#e67e22")
                                                           : QString();
  const QString body = text.toHtmlEscaped();
  log_->appendHtml(
      color.isEmpty()
          ? QStringLiteral("<span>%1 %2</span>").arg(time, body)
          : QStringLiteral("<span style=\"color:%1\">%2 %3</span>").arg(color, time, body));
}

}  // namespace adala::widgets
