// StageLauncher's form: the tabs and fields, the run buttons and the progress bars, built and
// connected. The document behind the form: stage_launcher_document.cpp; a run's progress:
// stage_launcher_run.cpp.
#include "widgets/launch/stage_launcher.h"

#include <iterator>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/launch/attention_plan_form.h"
#include "widgets/launch/data_source_form.h"

namespace adala::widgets {

namespace {

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

// A tab's page in a scroll area of its own, so a short launcher scrolls the form.
QScrollArea* scrolledPage(QWidget* page) {
  auto* scroll = new QScrollArea;
  scroll->setWidget(page);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

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
  return scrolledPage(general);
}

// Data: each stage's source, the loader's settings.
QWidget* StageLauncher::buildDataPage() {
  dataForm_ = new DataSourceForm;
  connect(dataForm_, &DataSourceForm::edited, this, &StageLauncher::onDataEdited);
  return scrolledPage(dataForm_);
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
  return scrolledPage(stagesPage);
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

}  // namespace adala::widgets
