#include "widgets/scaling/scaling_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

#include "widgets/launch/attention_blocks_editor.h"

namespace adala::widgets {

namespace {
const char* const kModes[] = {"softmax", "softmax-chunked", "linear", "window-linear"};
constexpr int kModeCount = int(std::size(kModes));
}  // namespace

bool ScalingRequest::usesWindow() const {
  return modes.contains(QLatin1String("window-linear")) ||
         plan.contains(QLatin1String("window+linear"));
}

ScalingForm::ScalingForm(QWidget* parent) : QWidget(parent) {
  // Compact rows above the plots, so the plots get the whole width of the tab.
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* benchBox = new QGroupBox(tr("Resolution scaling benchmark"), this);
  auto* rows = new QVBoxLayout(benchBox);
  rows->addLayout(buildBenchRow(benchBox));
  rows->addLayout(buildModesRow(benchBox));
  rows->addLayout(buildPlanRow(benchBox));

  message_ = new QLabel(benchBox);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rows->addWidget(message_);

  rows->addLayout(buildEarlierRow(benchBox));
  layout->addWidget(benchBox);

  connectControls();
  setTabOrder(planForm_, softmaxBlocks_);
  setTabOrder(softmaxBlocks_, window_);
  blocks_->setTabNeighbours(softmaxBlocks_, window_);
  updatePlanFields();
  updateButtons();
}

// Model, resolutions, batch, Run and Cancel.
QHBoxLayout* ScalingForm::buildBenchRow(QWidget* box) {
  auto* row = new QHBoxLayout;
  preset_ = new QComboBox(box);
  preset_->setToolTip(
      tr("The ViT to measure (random weights: speed and memory do not depend on them)"));
  auto* presetLabel = new QLabel(tr("&Model:"), box);
  presetLabel->setBuddy(preset_);
  row->addWidget(presetLabel);
  row->addWidget(preset_);
  resolutions_ = new QLineEdit(QStringLiteral("224,448,672,1024"), box);
  resolutions_->setToolTip(tr("Square input sides in pixels, separated by commas, from %1 to %2")
                               .arg(kMinResolution)
                               .arg(kMaxResolution));
  resolutions_->setPlaceholderText(QStringLiteral("224,448,1024"));
  resolutions_->setMinimumWidth(140);
  auto* resolutionLabel = new QLabel(tr("Re&solutions:"), box);
  resolutionLabel->setBuddy(resolutions_);
  row->addSpacing(8);
  row->addWidget(resolutionLabel);
  row->addWidget(resolutions_, 1);
  batch_ = new QSpinBox(box);
  batch_->setRange(1, kMaxScalingBatch);
  batch_->setValue(1);
  batch_->setToolTip(
      tr("Images per forward pass (adala bench scaling --batch): 1 measures latency; training "
         "runs at 32-256, where a GPU is no longer launch-bound"));
  auto* batchLabel = new QLabel(tr("&Batch:"), box);
  batchLabel->setBuddy(batch_);
  row->addSpacing(8);
  row->addWidget(batchLabel);
  row->addWidget(batch_);
  run_ = new QPushButton(tr("R&un benchmark"), box);
  run_->setToolTip(
      tr("Runs adala bench scaling in a separate process; each point in a fresh child process"));
  cancel_ = new QPushButton(tr("Cancel"), box);
  cancel_->setToolTip(
      tr("Stop the benchmark (resolutions already measured stay in the run database)"));
  row->addSpacing(8);
  row->addWidget(run_);
  row->addWidget(cancel_);
  return row;
}

// One check box per attention mode, and the progress bar.
QHBoxLayout* ScalingForm::buildModesRow(QWidget* box) {
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Attention:"), box));
  const QString tips[] = {
      tr("Plain softmax attention: holds the N × N scores"),
      tr("Exact softmax computed in query chunks: the memory-lean baseline"),
      tr("ELU+1 linear attention: O(N) in the tokens"),
      tr("Every block window+linear: softmax on the k × k window of patches around each query, "
         "linear attention on the other keys (the window's k below)")};
  static_assert(std::size(tips) == std::size(kModes), "one tip per mode");
  for (int i = 0; i < kModeCount; ++i) {
    modes_[i] = new QCheckBox(QString::fromLatin1(kModes[i]), box);
    modes_[i]->setChecked(i < 3);  // window-linear only when asked for
    modes_[i]->setToolTip(tips[i]);
    row->addWidget(modes_[i]);
  }
  progress_ = new QProgressBar(box);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat(QString());
  progress_->setTextVisible(true);
  row->addSpacing(8);
  row->addWidget(progress_, 1);
  return row;
}

// A hybrid student, as `adala bench scaling --softmax-blocks 0,11` or `--plan S,L,...`.
QHBoxLayout* ScalingForm::buildPlanRow(QWidget* box) {
  auto* row = new QHBoxLayout;
  planForm_ = new QComboBox(box);
  planForm_->addItem(tr("none"));
  planForm_->addItem(tr("softmax blocks, the others linear"));
  planForm_->addItem(tr("per block"));
  planForm_->setToolTip(
      tr("Also measure a hybrid student (the \"plan\" mode): some blocks softmax, the others "
         "linear (--softmax-blocks), or each block's attention chosen (--plan)"));
  auto* planLabel = new QLabel(tr("&Hybrid plan:"), box);
  planLabel->setBuddy(planForm_);
  row->addWidget(planLabel);
  row->addWidget(planForm_);
  softmaxBlocks_ = new QLineEdit(box);
  softmaxBlocks_->setPlaceholderText(QStringLiteral("0,11"));
  softmaxBlocks_->setAccessibleName(tr("Softmax blocks"));
  softmaxBlocks_->setToolTip(
      tr("The blocks that stay softmax, from 0, separated by commas; the others run linear "
         "attention"));
  softmaxBlocks_->setMinimumWidth(100);
  row->addWidget(softmaxBlocks_, 1);
  blocks_ = new AttentionBlocksEditor(box);
  row->addWidget(blocks_, 1);
  window_ = new OddSpinBox(box);
  window_->setToolTip(tr("k of the k × k window of window+linear attention (--window; odd)"));
  auto* windowLabel = new QLabel(tr("&Window k:"), box);
  windowLabel->setBuddy(window_);
  row->addSpacing(8);
  row->addWidget(windowLabel);
  row->addWidget(window_);
  row->addStretch(0);
  return row;
}

// The benchmark runs of the database, to open again, and a CSV to open.
QHBoxLayout* ScalingForm::buildEarlierRow(QWidget* box) {
  auto* row = new QHBoxLayout;
  earlier_ = new QComboBox(box);
  earlier_->setToolTip(tr("Benchmark runs recorded in the run database"));
  earlier_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  earlier_->setMinimumContentsLength(20);
  openRun_ = new QPushButton(tr("&Open run"), box);
  openCsv_ = new QPushButton(tr("Open &CSV…"), box);
  openCsv_->setToolTip(tr("A CSV written by adala bench scaling --csv FILE"));
  auto* earlierLabel = new QLabel(tr("&Earlier results:"), box);
  earlierLabel->setBuddy(earlier_);
  row->addWidget(earlierLabel);
  row->addWidget(earlier_, 1);
  row->addWidget(openRun_);
  row->addWidget(openCsv_);
  return row;
}

void ScalingForm::connectControls() {
  connect(run_, &QPushButton::clicked, this, [this] {
    ScalingRequest request;
    if (validate(&request)) emit runRequested(request);
  });
  connect(resolutions_, &QLineEdit::returnPressed, run_, &QPushButton::click);
  connect(cancel_, &QPushButton::clicked, this, &ScalingForm::cancelRequested);
  connect(openRun_, &QPushButton::clicked, this, [this] {
    if (earlier_->currentIndex() >= 0) emit openRunRequested(earlier_->currentData().toLongLong());
  });
  connect(earlier_, &QComboBox::activated, this, [this] { openRun_->click(); });
  connect(openCsv_, &QPushButton::clicked, this, &ScalingForm::openCsvRequested);
  connect(resolutions_, &QLineEdit::textEdited, this, [this] {
    if (messageIsError_) showMessage(QString());
  });
  connect(softmaxBlocks_, &QLineEdit::returnPressed, run_, &QPushButton::click);
  connect(softmaxBlocks_, &QLineEdit::textEdited, this, [this] {
    if (messageIsError_) showMessage(QString());
  });
  connect(planForm_, &QComboBox::currentIndexChanged, this, &ScalingForm::updatePlanFields);
  connect(preset_, &QComboBox::currentTextChanged, this, &ScalingForm::updateDepth);
}

void ScalingForm::setPresetDepths(const QHash<QString, int>& depths) {
  depths_ = depths;
  updateDepth();
}

void ScalingForm::updateDepth() { blocks_->setDepth(depths_.value(preset_->currentText(), 0)); }

void ScalingForm::updatePlanFields() {
  softmaxBlocks_->setVisible(planForm_->currentIndex() == SoftmaxBlocksPlan);
  blocks_->setVisible(planForm_->currentIndex() == PerBlockPlan);
}

void ScalingForm::setPresets(const QStringList& presets, const QString& current) {
  preset_->clear();
  preset_->addItems(presets);
  const int index = preset_->findText(current);
  if (index >= 0) preset_->setCurrentIndex(index);
}

void ScalingForm::setResolutionsText(const QString& text) { resolutions_->setText(text); }

void ScalingForm::setBatch(int batch) { batch_->setValue(batch); }

void ScalingForm::setModes(const QStringList& modes) {
  for (int i = 0; i < kModeCount; ++i)
    modes_[i]->setChecked(modes.contains(QLatin1String(kModes[i])));
}

QCheckBox* ScalingForm::modeBox(const QString& mode) const {
  for (int i = 0; i < kModeCount; ++i)
    if (mode == QLatin1String(kModes[i])) return modes_[i];
  return nullptr;
}

bool ScalingForm::validate(ScalingRequest* request) {
  ScalingRequest r;
  r.preset = preset_->currentText();
  if (r.preset.isEmpty()) {
    showError(tr("Choose a model."));
    return false;
  }
  QString error;
  r.resolutions = parseResolutionList(resolutions_->text(), &error);
  if (r.resolutions.isEmpty()) {
    showError(tr("Resolutions: %1").arg(error));
    resolutions_->setFocus();
    return false;
  }
  r.batch = batch_->value();
  for (int i = 0; i < kModeCount; ++i)
    if (modes_[i]->isChecked()) r.modes << QString::fromLatin1(kModes[i]);
  const int depth = depths_.value(r.preset, 0);
  if (planForm_->currentIndex() == SoftmaxBlocksPlan) {
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (const QString& token : softmaxBlocks_->text().split(separators, Qt::SkipEmptyParts)) {
      bool ok = false;
      const int b = token.toInt(&ok);
      QString problem;
      if (!ok || b < 0)
        problem = tr("\"%1\" is not a block number").arg(token);
      else if (depth > 0 && b >= depth)
        problem = tr("block %1 is not in 0..%2 (%3 has %4 blocks)")
                      .arg(b)
                      .arg(depth - 1)
                      .arg(r.preset)
                      .arg(depth);
      else if (r.softmaxBlocks.contains(b))
        problem = tr("block %1 is listed twice").arg(b);
      if (!problem.isEmpty()) {
        showError(tr("Softmax blocks: %1").arg(problem));
        softmaxBlocks_->setFocus();
        return false;
      }
      r.softmaxBlocks << b;
    }
    if (r.softmaxBlocks.isEmpty()) {
      showError(tr("Softmax blocks: give the blocks that stay softmax, e.g. 0,11."));
      softmaxBlocks_->setFocus();
      return false;
    }
  } else if (planForm_->currentIndex() == PerBlockPlan) {
    if (depth <= 0) {
      showError(tr("Per-block plan: the blocks of %1 are not known.").arg(r.preset));
      return false;
    }
    r.plan = blocks_->modes();
  }
  if (!r.softmaxBlocks.isEmpty() || !r.plan.isEmpty()) r.modes << QStringLiteral("plan");
  r.window = window_->value();
  if (r.modes.isEmpty()) {
    showError(tr("Choose at least one attention mode."));
    return false;
  }
  showMessage(QString());
  if (request) *request = r;
  return true;
}

void ScalingForm::setEarlierRuns(const QVector<BenchmarkRunEntry>& runs) {
  const qint64 selected = earlier_->currentData().toLongLong();
  earlier_->clear();
  for (const auto& run : runs) {
    earlier_->addItem(tr("#%1 %2 (%3, %4)").arg(run.id).arg(run.name, run.status, run.created),
                      run.id);
  }
  const int index = earlier_->findData(selected);
  if (index >= 0) earlier_->setCurrentIndex(index);
  updateButtons();
}

int ScalingForm::earlierRunCount() const { return earlier_->count(); }

QString ScalingForm::message() const { return message_->text(); }

void ScalingForm::setRunning(bool running) {
  running_ = running;
  if (running) {
    progress_->setRange(0, 0);  // busy until the first progress line
    progress_->setFormat(tr("starting…"));
  } else if (progress_->maximum() == 0) {  // never got a progress line
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(QString());
  }  // else the last progress stays shown ("9 of 9 points")
  updateButtons();
}

void ScalingForm::setProgress(int done, int total, const QString& label) {
  progress_->setRange(0, std::max(1, total));
  progress_->setValue(done);
  progress_->setFormat(label.isEmpty() ? tr("%1 of %2 points").arg(done).arg(total)
                                       : tr("%1 of %2 · %3").arg(done).arg(total).arg(label));
}

void ScalingForm::showError(const QString& message) {
  messageIsError_ = !message.isEmpty();
  message_->setStyleSheet(QStringLiteral("color: #c62828;"));
  message_->setText(message);
}

void ScalingForm::showMessage(const QString& message) {
  messageIsError_ = false;
  message_->setStyleSheet(QString());
  message_->setText(message);
}

void ScalingForm::updateButtons() {
  run_->setEnabled(!running_);
  cancel_->setEnabled(running_);
  preset_->setEnabled(!running_);
  resolutions_->setEnabled(!running_);
  batch_->setEnabled(!running_);
  for (auto* box : modes_) box->setEnabled(!running_);
  for (QWidget* w : {static_cast<QWidget*>(planForm_), static_cast<QWidget*>(softmaxBlocks_),
                     static_cast<QWidget*>(blocks_), static_cast<QWidget*>(window_)})
    w->setEnabled(!running_);
  openRun_->setEnabled(earlier_->count() > 0);
}

}  // namespace adala::widgets
