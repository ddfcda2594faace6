#include "widgets/inspect/attention_inspector.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QDir>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/inspect/attention_grid_view.h"
#include "widgets/common/caption_label.h"
#include "widgets/common/image_pane.h"
#include "widgets/common/pane_grid.h"

namespace adala::widgets {

AttentionInspector::AttentionInspector(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  auto* top = new QVBoxLayout(this);
  top->addLayout(buildSourceRow());
  top->addLayout(buildViewRow());
  top->addLayout(buildPanesRow(), 1);
  auto* bottom = new QHBoxLayout;
  bottom->addLayout(buildStatusColumn(), 1);
  bottom->addWidget(buildHeadTable());
  top->addLayout(bottom);

  probeTimer_ = new QTimer(this);
  probeTimer_->setSingleShot(true);
  probeTimer_->setInterval(0);
  connect(probeTimer_, &QTimer::timeout, this, &AttentionInspector::emitProbe);

  connectControls();
  itemSpin_->setEnabled(true);
  updateQueryLabel();
}

// Checkpoint and image source.
QHBoxLayout* AttentionInspector::buildSourceRow() {
  auto* row1 = new QHBoxLayout;
  row1->addWidget(caption(tr("Checkpoint:"), this));
  checkpointCombo_ = new QComboBox(this);
  checkpointCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  checkpointCombo_->setMinimumContentsLength(12);
  checkpointCombo_->setToolTip(
      tr("Stage checkpoint whose softmax and linear attention are compared"));
  row1->addWidget(checkpointCombo_, 2);
  auto* openCheckpoint = new QPushButton(tr("Open…"), this);
  openCheckpoint->setToolTip(tr("Open a .safetensors checkpoint (Ctrl+Shift+O)"));
  row1->addWidget(openCheckpoint);
  connect(openCheckpoint, &QPushButton::clicked, this,
          &AttentionInspector::openCheckpointRequested);
  row1->addSpacing(8);
  row1->addWidget(caption(tr("Image:"), this));
  sourceCombo_ = new QComboBox(this);
  sourceCombo_->addItem(tr("Dataset item"));
  sourceCombo_->addItem(tr("Image file"));
  row1->addWidget(sourceCombo_);
  itemSpin_ = new QSpinBox(this);
  itemSpin_->setRange(0, 9999);
  itemSpin_->setToolTip(tr("Index in the dataset"));
  row1->addWidget(itemSpin_);
  datasetButton_ = new QPushButton(this);
  datasetButton_->setToolTip(
      tr("Where dataset items come from: the checkpoint's run (its evaluation data), class "
         "folders, an image folder, an image list, or Fashion-MNIST's test split"));
  auto* datasetMenu = new QMenu(datasetButton_);
  datasetMenu->addAction(tr("The checkpoint's run (its evaluation data)"), this,
                         [this] { setDataset(QString(), false); });
  datasetMenu->addAction(tr("Fashion-MNIST test split"), this, [this] { setDataset(QString()); });
  datasetMenu->addAction(tr("Class folders or an image folder…"), this,
                         [this] { emit openDatasetRequested(true); });
  datasetMenu->addAction(tr("Image list or run config file…"), this,
                         [this] { emit openDatasetRequested(false); });
  datasetButton_->setMenu(datasetMenu);
  // Its text (the data set's name) may be cut rather than widen the window past the screen.
  datasetButton_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  datasetButton_->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 16);
  row1->addWidget(datasetButton_, 1);
  updateDatasetButton();
  openImageButton_ = new QPushButton(tr("Open image…"), this);
  openImageButton_->setToolTip(tr("Inspect any image file (Ctrl+I)"));
  row1->addWidget(openImageButton_);
  imageFileLabel_ = new QLabel(this);
  imageFileLabel_->setMinimumWidth(0);
  imageFileLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  row1->addWidget(imageFileLabel_, 1);
  return row1;
}

// Input size, block, head and query; then overlay, colours and the other views.
QVBoxLayout* AttentionInspector::buildViewRow() {
  auto* rows = new QVBoxLayout;
  rows->addLayout(buildInputRow());
  rows->addLayout(buildDisplayRow());
  return rows;
}

// Input size, precision and normalisation; block, head and the CLS query.
QHBoxLayout* AttentionInspector::buildInputRow() {
  auto* row = new QHBoxLayout;
  row->addWidget(caption(tr("Input:"), this));
  sizeCombo_ = new QComboBox(this);
  sizeCombo_->addItem(tr("model's size"), 0);
  sizeCombo_->addItem(tr("image's size"), -1);
  for (int s : {56, 112, 224, 512, 1024}) sizeCombo_->addItem(tr("%1 × %1").arg(s), s);
  sizeCombo_->setToolTip(tr("Resolution the model sees (position embeddings are interpolated)"));
  row->addWidget(sizeCombo_);
  precisionCombo_ = new QComboBox(this);
  precisionCombo_->addItem(QStringLiteral("fp32"), QStringLiteral("fp32"));
  precisionCombo_->addItem(QStringLiteral("bf16"), QStringLiteral("bf16"));
  precisionCombo_->setToolTip(
      tr("Precision of the forward pass: float32, or bfloat16 autocast (linear attention's "
         "state and normaliser stay float32)"));
  row->addWidget(precisionCombo_);
  // What `adala predict --mean/--std` override: the inspector letterboxes images itself, so
  // of the preprocessing only the normalisation applies here.
  row->addWidget(caption(tr("Mean:"), this));
  meanEdit_ = new QLineEdit(this);
  stdEdit_ = new QLineEdit(this);
  for (QLineEdit* edit : {meanEdit_, stdEdit_}) {
    edit->setPlaceholderText(tr("file's"));
    edit->setMaximumWidth(110);
    edit->setToolTip(
        tr("Per-channel values, e.g. 0.5,0.5,0.5 (one value: all channels); empty: "
           "the checkpoint's adala.pretrained_cfg"));
  }
  row->addWidget(meanEdit_);
  row->addWidget(caption(tr("Std:"), this));
  row->addWidget(stdEdit_);
  row->addSpacing(8);
  row->addWidget(caption(tr("Block:"), this));
  blockSlider_ = new QSlider(Qt::Horizontal, this);
  blockSlider_->setRange(0, 0);
  blockSlider_->setPageStep(1);
  blockSlider_->setTickPosition(QSlider::TicksBelow);
  blockSlider_->setMinimumWidth(60);
  blockSlider_->setToolTip(tr("Transformer block (Page Up / Page Down)"));
  row->addWidget(blockSlider_, 1);
  blockLabel_ = new QLabel(this);
  blockLabel_->setMinimumWidth(40);
  row->addWidget(blockLabel_);
  row->addWidget(caption(tr("Head:"), this));
  headCombo_ = new QComboBox(this);
  headCombo_->setToolTip(tr("Attention head (H / Shift+H)"));
  row->addWidget(headCombo_);
  clsButton_ = new QPushButton(tr("Query = CLS"), this);
  clsButton_->setToolTip(tr("Use the class (first prefix) token as the query (C)"));
  row->addWidget(clsButton_);
  return row;
}

// The display: overlay, colour map and scale, and the views beyond one block and head.
QHBoxLayout* AttentionInspector::buildDisplayRow() {
  auto* row = new QHBoxLayout;
  row->addWidget(caption(tr("Overlay:"), this));
  opacitySlider_ = new QSlider(Qt::Horizontal, this);
  opacitySlider_->setRange(0, 100);
  opacitySlider_->setValue(static_cast<int>(opacity_ * 100));
  opacitySlider_->setMaximumWidth(100);
  opacitySlider_->setMinimumWidth(50);
  opacitySlider_->setToolTip(tr("Opacity of the attention overlay on the image"));
  row->addWidget(opacitySlider_);
  colormapCombo_ = new QComboBox(this);
  colormapCombo_->addItems(colormapNames());
  colormapCombo_->setToolTip(tr("Colour map (OpenCV)"));
  row->addWidget(colormapCombo_);
  scaleCombo_ = new QComboBox(this);
  scaleCombo_->addItems(scaleModeNames());
  scaleCombo_->setToolTip(
      tr("How weights map to colours (S): one scale for the three maps, each map on its own "
         "0..max, log10 of the weights (from max / 10⁴ up), or a range you type"));
  row->addWidget(scaleCombo_);
  rangeEdit_ = new QLineEdit(QStringLiteral("0..0.01"), this);
  rangeEdit_->setPlaceholderText(tr("min..max"));
  rangeEdit_->setToolTip(tr("The fixed colour range, minimum..maximum (Enter applies)"));
  rangeEdit_->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 14);
  rangeEdit_->setVisible(false);
  row->addWidget(rangeEdit_);
  row->addStretch(1);
  rolloutButton_ = new QPushButton(tr("Rollout"), this);
  rolloutButton_->setCheckable(true);
  rolloutButton_->setToolTip(
      tr("Show the query's attention rollout through all blocks (heads averaged, half residual "
         "per block) of each path instead of one block and head (R)"));
  row->addWidget(rolloutButton_);
  gridButton_ = new QPushButton(tr("Blocks × heads…"), this);
  gridButton_->setToolTip(
      tr("Every block and head's map of this query, side by side; click one to select it (G)"));
  row->addWidget(gridButton_);
  exportButton_ = new QPushButton(tr("Export figure…"), this);
  exportButton_->setToolTip(
      tr("Save the four panes, their colour scales and a caption as a PNG or PDF figure"));
  exportButton_->setEnabled(false);
  row->addWidget(exportButton_);
  return row;
}

// The image, the two attention maps and their difference, with the colour bar.
QHBoxLayout* AttentionInspector::buildPanesRow() {
  auto* panesRow = new QHBoxLayout;
  const QString titles[4] = {tr("Image (click a patch)"), tr("Softmax attention"),
                             tr("Linear attention"), tr("|linear − softmax|")};
  auto* paneGrid = new PaneGrid(this);
  QList<QWidget*> paneList;
  for (int i = 0; i < 4; ++i) {
    panes_[i] = new ImagePane(titles[i], paneGrid);
    paneList << panes_[i];
    connect(panes_[i], &ImagePane::clicked, this, &AttentionInspector::onPaneClicked);
  }
  paneGrid->setPanes(paneList);
  panesRow->addWidget(paneGrid, 1);
  return panesRow;
}

// Query and statistics, status line with progress and Cancel.
QVBoxLayout* AttentionInspector::buildStatusColumn() {
  auto* info = new QVBoxLayout;
  queryLabel_ = new QLabel(this);
  queryLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  queryLabel_->setWordWrap(
      true);  // a 1024 x 1024 input's five-digit tokens must not widen the window
  statsLabel_ = new QLabel(this);
  statsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  statsLabel_->setWordWrap(true);
  info->addWidget(queryLabel_);
  info->addWidget(statsLabel_);
  auto* statusRow = new QHBoxLayout;
  statusLabel_ = new QLabel(tr("Choose a checkpoint to inspect."), this);
  statusLabel_->setWordWrap(true);
  statusRow->addWidget(statusLabel_, 1);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setTextVisible(true);
  progress_->setFormat(tr("forward pass %p%"));
  progress_->setVisible(false);
  progress_->setMaximumWidth(220);
  statusRow->addWidget(progress_);
  cancelButton_ = new QPushButton(tr("Cancel"), this);
  cancelButton_->setVisible(false);
  statusRow->addWidget(cancelButton_);
  info->addLayout(statusRow);
  info->addStretch(1);
  return info;
}

QTableWidget* AttentionInspector::buildHeadTable() {
  headTable_ = new QTableWidget(0, 3, this);
  headTable_->setHorizontalHeaderLabels({tr("Head"), tr("KL"), tr("MSE")});
  headTable_->horizontalHeaderItem(1)->setToolTip(tr("KL(softmax ‖ linear) of the two rows"));
  headTable_->horizontalHeaderItem(2)->setToolTip(tr("Mean squared difference of the two rows"));
  headTable_->verticalHeader()->setVisible(false);
  headTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  headTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
  headTable_->setSelectionMode(QAbstractItemView::SingleSelection);
  headTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  headTable_->setMaximumHeight(150);
  headTable_->setMinimumWidth(240);
  headTable_->setMaximumWidth(360);
  headTable_->setToolTip(
      tr("Per-head divergence of the two rows for this query; click to pick the head"));
  return headTable_;
}

void AttentionInspector::connectControls() {
  connect(openImageButton_, &QPushButton::clicked, this, &AttentionInspector::openImageRequested);
  connect(checkpointCombo_, &QComboBox::currentIndexChanged, this, [this] {
    updateDatasetButton();  // the checkpoint's run may bring its own data
    if (!updatingControls_) scheduleProbe();
  });
  connect(sourceCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    itemSpin_->setEnabled(i == 0);
    if (!updatingControls_ && (i == 0 || !imagePath_.isEmpty())) scheduleProbe();
    if (!updatingControls_ && i == 1 && imagePath_.isEmpty()) emit openImageRequested();
  });
  connect(itemSpin_, &QSpinBox::valueChanged, this, [this] {
    if (!updatingControls_ && sourceCombo_->currentIndex() == 0) scheduleProbe();
  });
  connect(sizeCombo_, &QComboBox::currentIndexChanged, this, [this] {
    if (!updatingControls_) scheduleProbe();
  });
  connect(precisionCombo_, &QComboBox::currentIndexChanged, this, [this] {
    if (!updatingControls_) scheduleProbe();
  });
  for (QLineEdit* edit : {meanEdit_, stdEdit_})
    connect(edit, &QLineEdit::editingFinished, this, [this] {
      if (!updatingControls_) scheduleProbe();
    });
  connect(blockSlider_, &QSlider::valueChanged, this, [this](int b) {
    if (!updatingControls_) setBlock(b);
  });
  connect(headCombo_, &QComboBox::currentIndexChanged, this, [this](int h) {
    if (!updatingControls_ && h >= 0) setHead(h);
  });
  connect(headTable_, &QTableWidget::cellClicked, this, [this](int row, int) { setHead(row); });
  connect(clsButton_, &QPushButton::clicked, this, [this] {
    if (haveProbe_ && image_.prefixTokens > 0) setQuery(0);
  });
  connect(opacitySlider_, &QSlider::valueChanged, this, [this](int v) {
    opacity_ = v / 100.0;
    redraw();
  });
  connect(colormapCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    colormap_ = static_cast<Colormap>(std::max(0, i));
    if (gridView_) gridView_->setColormap(colormap_);
    redraw();
  });
  connect(scaleCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (updatingControls_ || i < 0) return;
    const auto mode = static_cast<ScaleMode>(i);
    rangeEdit_->setVisible(mode == ScaleMode::Fixed);
    if (mode == ScaleMode::Fixed) {
      applyFixedRangeText();
      return;
    }
    scaleMode_ = mode;
    updateScales();
    redraw();
  });
  connect(rangeEdit_, &QLineEdit::editingFinished, this, &AttentionInspector::applyFixedRangeText);
  connect(cancelButton_, &QPushButton::clicked, this, &AttentionInspector::probeCancelRequested);
  connect(rolloutButton_, &QPushButton::toggled, this, &AttentionInspector::setRollout);
  connect(gridButton_, &QPushButton::clicked, this, &AttentionInspector::showBlockHeadGrid);
  connect(exportButton_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the inspector's figure"), QStringLiteral("attention.png"),
        tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    const QString error = exportFigure(path);
    statusLabel_->setText(error.isEmpty() ? tr("Figure written to %1").arg(path) : error);
  });
}

void AttentionInspector::setCheckpoints(const QList<QPair<QString, QString>>& checkpoints,
                                        const QString& select) {
  const QString previous = checkpoint();
  updatingControls_ = true;
  checkpointCombo_->clear();
  for (const auto& [label, path] : checkpoints) checkpointCombo_->addItem(label, path);
  int index = checkpointCombo_->findData(select.isEmpty() ? previous : select);
  if (index < 0) index = checkpointCombo_->count() - 1;
  checkpointCombo_->setCurrentIndex(index);
  updatingControls_ = false;
  if (checkpoint() != previous || !haveProbe_) scheduleProbe();
}

void AttentionInspector::addCheckpoint(const QString& label, const QString& path, bool select) {
  int index = checkpointCombo_->findData(path);
  updatingControls_ = true;
  if (index < 0) {
    checkpointCombo_->addItem(label, path);
    index = checkpointCombo_->count() - 1;
  }
  updatingControls_ = false;
  if (select || checkpointCombo_->count() == 1) {
    if (checkpointCombo_->currentIndex() == index) scheduleProbe();
    checkpointCombo_->setCurrentIndex(index);
  }
}

QString AttentionInspector::checkpoint() const {
  return checkpointCombo_->currentData().toString();
}

void AttentionInspector::setDatasetItem(int index) {
  updatingControls_ = true;
  sourceCombo_->setCurrentIndex(0);
  itemSpin_->setEnabled(true);
  itemSpin_->setValue(index);
  updatingControls_ = false;
  scheduleProbe();
}

void AttentionInspector::setDataset(const QString& where, bool chosen) {
  dataset_ = where;
  datasetChosen_ = chosen;
  updateDatasetButton();
  updatingControls_ = true;
  sourceCombo_->setCurrentIndex(0);
  itemSpin_->setEnabled(true);
  updatingControls_ = false;
  scheduleProbe();
}

QString AttentionInspector::dataset() const {
  if (datasetChosen_) return dataset_;
  // A checkpoint in a run folder: that run's evaluation data, as the run read it.
  const QString ckpt = checkpoint();
  if (ckpt.isEmpty()) return {};
  const QString config = QFileInfo(ckpt).dir().filePath(QStringLiteral("config.json"));
  return QFileInfo::exists(config) ? config : QString();
}

void AttentionInspector::updateDatasetButton() {
  const QString where = dataset();
  QString name;
  if (where.isEmpty())
    name = tr("Fashion-MNIST test");
  else if (QFileInfo(where).fileName() == QLatin1String("config.json"))
    name = tr("run %1").arg(QFileInfo(where).dir().dirName());
  else
    name = QFileInfo(where).fileName();
  datasetButton_->setText(tr("Dataset: %1").arg(name));
  datasetButton_->setToolTip(where.isEmpty() ? tr("Fashion-MNIST's test split") : where);
}

void AttentionInspector::setImageFile(const QString& path) {
  imagePath_ = path;
  imageFileLabel_->setText(QFileInfo(path).fileName());
  imageFileLabel_->setToolTip(path);
  updatingControls_ = true;
  sourceCombo_->setCurrentIndex(1);
  itemSpin_->setEnabled(false);
  updatingControls_ = false;
  scheduleProbe();
}

void AttentionInspector::setInputSize(int size) {
  int index = sizeCombo_->findData(size);
  if (index < 0) {
    sizeCombo_->addItem(tr("%1 × %1").arg(size), size);
    index = sizeCombo_->count() - 1;
  }
  sizeCombo_->setCurrentIndex(index);
  scheduleProbe();
}

void AttentionInspector::setPrecision(const QString& precision) {
  const int index = precisionCombo_->findData(precision);
  if (index >= 0) precisionCombo_->setCurrentIndex(index);
}

QString AttentionInspector::precision() const { return precisionCombo_->currentData().toString(); }

void AttentionInspector::scheduleProbe() { probeTimer_->start(); }

void AttentionInspector::emitProbe() {
  if (checkpoint().isEmpty()) return;
  ProbeRequest r;
  r.checkpoint = checkpoint();
  r.datasetItem = sourceCombo_->currentIndex() == 0;
  r.itemIndex = itemSpin_->value();
  r.dataset = dataset();
  r.imagePath = imagePath_;
  r.inputSize = sizeCombo_->currentData().toInt();
  r.precision = precision();
  r.mean = meanEdit_->text().trimmed();
  r.std = stdEdit_->text().trimmed();
  if (!r.datasetItem && r.imagePath.isEmpty()) return;
  progress_->setValue(0);
  progress_->setVisible(true);
  cancelButton_->setVisible(true);
  statusLabel_->setText(tr("Running the model over the image…"));
  emit probeRequested(r);
}

void AttentionInspector::onProbeProgress(double fraction) {
  progress_->setVisible(true);
  cancelButton_->setVisible(true);
  progress_->setValue(static_cast<int>(std::lround(fraction * 1000)));
}

void AttentionInspector::onProbeFailed(const QString& message) {
  progress_->setVisible(false);
  cancelButton_->setVisible(false);
  statusLabel_->setText(message);
}

void AttentionInspector::onProbeReady(const InspectorImage& image) {
  progress_->setVisible(false);
  cancelButton_->setVisible(false);
  const bool sameGrid = haveProbe_ && image.gridHeight == image_.gridHeight &&
                        image.gridWidth == image_.gridWidth &&
                        image.prefixTokens == image_.prefixTokens;
  image_ = image;
  haveProbe_ = true;
  // Enlarge small inputs by an integer factor so patches stay square blocks on screen.
  const int shortSide = std::max(1, std::min(image.image.width(), image.image.height()));
  displayScale_ = std::max(1, static_cast<int>(std::ceil(256.0 / shortSide)));
  base_ = image.image.convertToFormat(QImage::Format_RGB32)
              .scaled(image.image.width() * displayScale_, image.image.height() * displayScale_,
                      Qt::IgnoreAspectRatio, Qt::FastTransformation);
  updatingControls_ = true;
  if (image.datasetSize > 0) itemSpin_->setRange(0, image.datasetSize - 1);
  blockSlider_->setRange(0, std::max(0, image.depth - 1));
  block_ = std::clamp(block_, 0, std::max(0, image.depth - 1));
  blockSlider_->setValue(block_);
  headCombo_->clear();
  for (int h = 0; h < image.heads; ++h) headCombo_->addItem(tr("head %1").arg(h), h);
  head_ = std::clamp(head_, 0, std::max(0, image.heads - 1));
  headCombo_->setCurrentIndex(head_);
  updatingControls_ = false;
  clsButton_->setEnabled(image.prefixTokens > 0);
  const int tokens = image.prefixTokens + image.gridHeight * image.gridWidth;
  if (!sameGrid || query_ < 0 || query_ >= tokens) {
    const QRect c = image.content.isEmpty() ? image.image.rect() : image.content;
    const int p = std::max(1, image.patchSize);
    query_ = image.prefixTokens +
             std::clamp(c.center().y() / p, 0, image.gridHeight - 1) * image.gridWidth +
             std::clamp(c.center().x() / p, 0, image.gridWidth - 1);
  }
  statusLabel_->setText(
      tr("%1 · %2 × %3 px, %4 tokens (%5 × %6 patches of %7 px) · forward %8 s (%9)")
          .arg(image.description)
          .arg(image.image.width())
          .arg(image.image.height())
          .arg(tokens)
          .arg(image.gridHeight)
          .arg(image.gridWidth)
          .arg(image.patchSize)
          .arg(image.forwardSeconds, 0, 'f', 2)
          .arg(image.precision) +
      (image.preprocessingNote.isEmpty() ? QString()
                                         : QStringLiteral(" · ") + image.preprocessingNote));
  rows_ = AttentionRows{};
  rolloutSoft_.clear();
  rolloutLin_.clear();
  rolloutQuery_ = gridQuery_ = -1;
  requestRows();
}

void AttentionInspector::setBlock(int block) {
  if (!haveProbe_) return;
  block = std::clamp(block, 0, std::max(0, image_.depth - 1));
  block_ = block;
  updatingControls_ = true;
  blockSlider_->setValue(block);
  updatingControls_ = false;
  requestRows();
}

void AttentionInspector::setHead(int head) {
  if (!haveProbe_) return;
  head_ = std::clamp(head, 0, std::max(0, image_.heads - 1));
  updatingControls_ = true;
  headCombo_->setCurrentIndex(head_);
  updatingControls_ = false;
  requestRows();
}

void AttentionInspector::setQuery(int token) {
  if (!haveProbe_) return;
  const int tokens = image_.prefixTokens + image_.gridHeight * image_.gridWidth;
  query_ = std::clamp(token, 0, tokens - 1);
  requestRows();
}

void AttentionInspector::setQueryPatch(int row, int col) {
  if (!haveProbe_) return;
  row = std::clamp(row, 0, image_.gridHeight - 1);
  col = std::clamp(col, 0, image_.gridWidth - 1);
  if (!image_.content.isEmpty()) {  // keep to the patches that show the image
    const int p = std::max(1, image_.patchSize);
    const QRect c = image_.content;
    row = std::clamp(row, c.top() / p, (c.bottom()) / p);
    col = std::clamp(col, c.left() / p, (c.right()) / p);
  }
  setQuery(image_.prefixTokens + row * image_.gridWidth + col);
}

void AttentionInspector::setOpacity(double opacity) {
  opacitySlider_->setValue(static_cast<int>(std::lround(std::clamp(opacity, 0.0, 1.0) * 100)));
}

void AttentionInspector::setColormap(Colormap map) {
  colormapCombo_->setCurrentIndex(static_cast<int>(map));
}

void AttentionInspector::requestRows() {
  updateQueryLabel();
  if (gridView_) gridView_->setCurrent(block_, head_);
  if (!haveProbe_ || query_ < 0) return;
  blockLabel_->setText(tr("%1 of %2").arg(block_).arg(image_.depth));
  emit rowsRequested(++lastRequest_, block_, head_, query_);
  requestOverview();
}

void AttentionInspector::onRows(const AttentionRows& rows) {
  if (rows.requestId != lastRequest_) return;  // a newer request is on its way
  rows_ = rows;
  exportButton_->setEnabled(true);
  const int n = image_.gridHeight * image_.gridWidth;
  const int prefix = image_.prefixTokens;
  if (rows_.softmax.size() != prefix + n || rows_.linear.size() != prefix + n) {
    statusLabel_->setText(tr("Rows do not match the image grid."));
    return;
  }
  updateScales();

  headTable_->setRowCount(rows_.headKl.size());
  for (int h = 0; h < rows_.headKl.size(); ++h) {
    auto* head = new QTableWidgetItem(tr("head %1").arg(h));
    auto* kl = new QTableWidgetItem(QString::number(rows_.headKl[h], 'g', 4));
    auto* mse = new QTableWidgetItem(
        QString::number(h < rows_.headMse.size() ? rows_.headMse[h] : 0.0, 'g', 4));
    kl->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    mse->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    headTable_->setItem(h, 0, head);
    headTable_->setItem(h, 1, kl);
    headTable_->setItem(h, 2, mse);
  }
  headTable_->selectRow(rows_.head);

  double clsSoft = 0.0, clsLin = 0.0, rowMax = 0.0;
  for (int i = 0; i < prefix; ++i) {
    clsSoft += rows_.softmax[i];
    clsLin += rows_.linear[i];
  }
  for (int i = prefix; i < prefix + n; ++i)
    rowMax = std::max({rowMax, double(rows_.softmax[i]), double(rows_.linear[i])});
  QString stats = tr("block %1, head %2:  KL(softmax ‖ linear) = %3   ·   MSE = %4   ·   max %5")
                      .arg(rows_.block)
                      .arg(rows_.head)
                      .arg(rows_.kl, 0, 'g', 4)
                      .arg(rows_.mse, 0, 'g', 4)
                      .arg(rowMax, 0, 'g', 3);
  if (prefix > 0)
    stats += tr("   ·   mass on prefix tokens: softmax %1, linear %2")
                 .arg(clsSoft, 0, 'f', 3)
                 .arg(clsLin, 0, 'f', 3);
  statsLabel_->setText(stats);
  redraw();
  emit mapsUpdated();
}

QRect AttentionInspector::cellRect(int row, int col) const {
  const int cell = image_.patchSize * displayScale_;
  return QRect(col * cell, row * cell, cell, cell);
}

QImage AttentionInspector::paneImage(Pane pane) const { return panes_[pane]->image(); }

void AttentionInspector::redraw() {
  if (!haveProbe_) return;
  QRect highlight;
  if (query_ >= image_.prefixTokens) {
    const int p = query_ - image_.prefixTokens;
    highlight = cellRect(p / image_.gridWidth, p % image_.gridWidth);
  }
  panes_[ImagePaneIndex]->setImage(base_);
  panes_[ImagePaneIndex]->setHighlight(highlight);
  const int n = image_.gridHeight * image_.gridWidth;
  const float *soft = nullptr, *lin = nullptr;
  if (shownRows(&soft, &lin)) {
    std::vector<float> diff(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) diff[static_cast<size_t>(i)] = std::abs(lin[i] - soft[i]);
    const float* maps[3] = {soft, lin, diff.data()};
    for (int k = 0; k < 3; ++k) {
      QImage grid = scaleGrid(maps[k], image_.gridHeight, image_.gridWidth, scales_[k], colormap_);
      QImage big = grid.scaled(base_.size(), Qt::IgnoreAspectRatio, Qt::FastTransformation);
      panes_[1 + k]->setImage(blendOverlay(base_, big, opacity_));
      panes_[1 + k]->setHighlight(highlight);
      panes_[1 + k]->setScaleStrip(colormap_, scaleTicks(scales_[k]));
    }
  }
  const QRect content = image_.content.isEmpty() ? QRect()
                                                 : QRect(image_.content.topLeft() * displayScale_,
                                                         image_.content.size() * displayScale_);
  for (auto* pane : panes_) pane->setContentRect(content);
}

void AttentionInspector::updateQueryLabel() {
  if (!haveProbe_ || query_ < 0) {
    queryLabel_->setText(tr("Query: none"));
    return;
  }
  const int tokens = image_.prefixTokens + image_.gridHeight * image_.gridWidth;
  if (query_ < image_.prefixTokens) {
    queryLabel_->setText(tr("Query: prefix token %1 (token %1 of %2)").arg(query_).arg(tokens));
    return;
  }
  const int p = query_ - image_.prefixTokens;
  queryLabel_->setText(tr("Query: patch (row %1, column %2) = token %3 of %4   —   click a patch "
                          "or use the arrow keys")
                           .arg(p / image_.gridWidth)
                           .arg(p % image_.gridWidth)
                           .arg(query_)
                           .arg(tokens));
}

void AttentionInspector::onPaneClicked(QPointF imagePoint) {
  if (!haveProbe_) return;
  const int cell = image_.patchSize * displayScale_;
  const int row = static_cast<int>(imagePoint.y()) / cell;
  const int col = static_cast<int>(imagePoint.x()) / cell;
  setFocus(Qt::MouseFocusReason);
  if (!isContentPatch(row, col)) return;  // letterbox padding is not a query
  setQueryPatch(row, col);
}

void AttentionInspector::moveQuery(int dRow, int dCol) {
  if (!haveProbe_) return;
  int row = image_.gridHeight / 2, col = image_.gridWidth / 2;
  if (query_ >= image_.prefixTokens) {
    const int p = query_ - image_.prefixTokens;
    row = p / image_.gridWidth + dRow;
    col = p % image_.gridWidth + dCol;
  }
  setQueryPatch(row, col);
}

void AttentionInspector::keyPressEvent(QKeyEvent* event) {
  const bool shift = event->modifiers() & Qt::ShiftModifier;
  switch (event->key()) {
    case Qt::Key_Left:
      moveQuery(0, -1);
      return;
    case Qt::Key_Right:
      moveQuery(0, 1);
      return;
    case Qt::Key_Up:
      moveQuery(-1, 0);
      return;
    case Qt::Key_Down:
      moveQuery(1, 0);
      return;
    case Qt::Key_PageUp:
      setBlock(block_ - 1);
      return;
    case Qt::Key_PageDown:
      setBlock(block_ + 1);
      return;
    case Qt::Key_H:
      setHead(shift ? head_ - 1 : head_ + 1);
      return;
    case Qt::Key_C:
      if (haveProbe_ && image_.prefixTokens > 0) setQuery(0);
      return;
    case Qt::Key_R:
      setRollout(!rollout_);
      return;
    case Qt::Key_G:
      showBlockHeadGrid();
      return;
    case Qt::Key_S:
      setScaleMode(static_cast<ScaleMode>((static_cast<int>(scaleMode_) + (shift ? 3 : 1)) % 4));
      return;
    default:
      QWidget::keyPressEvent(event);
  }
}

void AttentionInspector::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange)
    for (auto* pane : panes_) pane->update();
  QWidget::changeEvent(event);
}

}  // namespace adala::widgets
