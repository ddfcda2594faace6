#include "widgets/segmentation_viewer.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "engine/report/sweep_columns.h"
#include "widgets/segmentation_legend.h"
#include "widgets/segmentation_render.h"
#include "widgets/zoom_image_pane.h"

namespace adala::widgets {

// The five panes in the grid that makes them largest for the space and the image's shape; in
// two rows of three, truth, teacher and student share the first row.
class SegmentationPaneGrid : public QWidget {
 public:
  explicit SegmentationPaneGrid(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }
  void setPanes(const QVector<ZoomImagePane*>& panes) {
    panes_ = panes;
    arrange();
  }
  void setImageSize(const QSize& size) {
    if (size.isEmpty() || size == imageSize_) return;
    imageSize_ = size;
    arrange();
  }
  int columns() const { return columns_; }
  // Called after the panes have been laid out again.
  void setRelayoutHandler(std::function<void()> handler) { relayout_ = std::move(handler); }
  QSize sizeHint() const override { return {900, 560}; }
  QSize minimumSizeHint() const override { return {320, 240}; }

 protected:
  void resizeEvent(QResizeEvent* event) override {
    QWidget::resizeEvent(event);
    arrange();
    if (relayout_) relayout_();
  }

 private:
  void arrange() {
    const int n = int(panes_.size());
    if (n == 0) return;
    const double iw = std::max(1, imageSize_.width()), ih = std::max(1, imageSize_.height());
    double best = -1.0;
    for (int cols = 1; cols <= n; ++cols) {
      const int rows = (n + cols - 1) / cols;
      const double cw = (width() - (cols - 1) * kSpacing) / double(cols);
      const double ch =
          (height() - (rows - 1) * kSpacing) / double(rows) - ZoomImagePane::kTitleHeight;
      const double s = std::min(cw / iw, ch / ih);
      if (s > best + 1e-9) {
        best = s;
        columns_ = cols;
      }
    }
    const int cols = columns_, rows = (n + cols - 1) / cols;
    const int cw = std::max(0, (width() - (cols - 1) * kSpacing) / cols);
    const int ch = std::max(0, (height() - (rows - 1) * kSpacing) / rows);
    // Two rows of three: truth, teacher, student above; image and disagreement below.
    QVector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    if (cols == 3 && n == SegmentationViewer::PaneCount)
      order = {SegmentationViewer::TruthPane, SegmentationViewer::TeacherPane,
               SegmentationViewer::StudentPane, SegmentationViewer::ImagePane,
               SegmentationViewer::DisagreementPane};
    for (int i = 0; i < n; ++i) {
      const int row = i / cols, col = i % cols;
      const int inRow = std::min(cols, n - row * cols);
      const int left = (width() - (inRow * cw + (inRow - 1) * kSpacing)) / 2;  // centre a short row
      panes_[order[i]]->setGeometry(left + col * (cw + kSpacing), row * (ch + kSpacing), cw, ch);
    }
  }

  static constexpr int kSpacing = 6;
  QVector<ZoomImagePane*> panes_;
  std::function<void()> relayout_;
  QSize imageSize_{1, 1};
  int columns_ = 0;
};

namespace {

QString number(double v, int decimals = 3) {
  return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', decimals);
}

QString signedNumber(double v, int decimals = 3) {
  if (std::isnan(v)) return QStringLiteral("—");
  const QString magnitude = QString::number(std::abs(v), 'f', decimals);
  return (v < -0.5 * std::pow(10.0, -decimals) ? QStringLiteral("−") : QStringLiteral("+")) +
         magnitude;
}

QString percent(double v) {
  return std::isnan(v) ? QStringLiteral("—") : QString::number(100.0 * v, 'f', 1);
}

QLabel* caption(const QString& text, QWidget* parent) {
  auto* l = new QLabel(text, parent);
  l->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
  return l;
}

constexpr double kMaxScale = 64.0;

// The sweep table's numbers, as the report writes them: mIoU in percent with 2 decimals, its gap
// in percentage points, rates and sizes with 4 significant digits, ratios (student / teacher)
// with 2 decimals and "×".
QString sweepPercent(double fraction) {
  return std::isnan(fraction) ? QStringLiteral("—") : QString::number(100.0 * fraction, 'f', 2);
}

QString sweepAmount(double v) {
  if (std::isnan(v)) return QStringLiteral("—");
  const double a = std::abs(v);
  if (a == 0) return QStringLiteral("0");
  if (a < 1e-3 || a >= 1e6) return QString::number(v, 'g', 4);
  const int leading = int(std::floor(std::log10(a))) + 1;  // digits before the point, or −zeros
  return QString::number(v, 'f', std::clamp(4 - leading, 0, 8));
}

// "112²", built rather than translated: arg() would read "%1²" as the 12th substitution.
QString sweepSide(int imageSize) { return QString::number(imageSize) + QStringLiteral("²"); }

// The sweep table's height: its header and every row, and the horizontal scroll bar when the
// columns are wider than the room (AdjustToContents alone leaves blank space under the rows).
void fitSweepTableHeight(QTableWidget* table) {
  int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
  for (int r = 0; r < table->rowCount(); ++r) height += table->rowHeight(r);
  const QScrollBar* bar = table->horizontalScrollBar();
  if (bar->maximum() > bar->minimum()) height += bar->sizeHint().height();
  table->setFixedHeight(height);
}

static_assert(SegmentationViewer::SweepColumnCount == 1 + kSweepColumnCount,
              "the viewer's sweep columns are the resolution and sweep_columns()");

QString sweepCell(const SweepColumn& column, const SweepPairValues& values) {
  const double v = column.value(values);
  switch (column.format) {
    case SweepCellFormat::Percent:
      return sweepPercent(v);
    case SweepCellFormat::SignedPoints:
      return std::isnan(v) ? QStringLiteral("—") : signedNumber(100.0 * v, 2);
    case SweepCellFormat::Amount:
      return sweepAmount(v);
    case SweepCellFormat::Ratio:
      return std::isfinite(v) ? QString::number(v, 'f', 2) + QStringLiteral("×")
                              : QStringLiteral("—");
  }
  return QString();
}

// One row of the sweep table: the label, then the two models side by side (the columns of
// engine/report/sweep_columns.h).
void fillSweepRow(QTableWidget* table, int row, const QString& label, const QString& tip,
                  const SegmentationMeasure& t, const SegmentationMeasure& s) {
  using V = SegmentationViewer;
  const SweepPairValues values{t.miou, s.miou, t.imgPerS, s.imgPerS, t.peakMb, s.peakMb};
  auto* first = new QTableWidgetItem(label);
  first->setFlags(Qt::ItemIsEnabled);
  first->setToolTip(tip);
  table->setItem(row, V::SweepResolution, first);
  const auto& columns = sweep_columns();
  for (int c = 0; c < kSweepColumnCount; ++c) {
    auto* item = new QTableWidgetItem(sweepCell(columns[size_t(c)], values));
    item->setFlags(Qt::ItemIsEnabled);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, V::SweepResolution + 1 + c, item);
  }
}

}  // namespace

SegmentationViewer::SegmentationViewer(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  auto* top = new QVBoxLayout(this);
  storyLabel_ = new QLabel(this);
  storyLabel_->setObjectName(QStringLiteral("storyLabel"));
  storyLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  storyLabel_->setWordWrap(true);
  QFont bold = storyLabel_->font();
  bold.setBold(true);
  storyLabel_->setFont(bold);
  storyLabel_->setVisible(false);
  top->addWidget(storyLabel_);
  top->addLayout(buildNavigationRow());
  addMessageLabels(top);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(buildPaneGrid(splitter));
  splitter->addWidget(buildSidePanel(splitter));
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 0);
  splitter->setCollapsible(0, false);
  top->addWidget(splitter, 1);

  hoverLabel_ = new QLabel(tr("Point at a pane to read the classes under the cursor."), this);
  hoverLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  top->addWidget(hoverLabel_);

  connectControls();
  updateTexts();
}

// Head, order, and stepping through the images.
QHBoxLayout* SegmentationViewer::buildNavigationRow() {
  auto* controls = new QHBoxLayout;
  controls->addWidget(caption(tr("Head:"), this));
  headCombo_ = new QComboBox(this);
  headCombo_->setObjectName(QStringLiteral("headCombo"));
  headCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  headCombo_->setToolTip(tr("Segmentation head whose results are shown (one results folder each)"));
  controls->addWidget(headCombo_);
  controls->addSpacing(8);
  controls->addWidget(caption(tr("Order:"), this));
  sortCombo_ = new QComboBox(this);
  sortCombo_->setObjectName(QStringLiteral("sortCombo"));
  sortCombo_->addItem(tr("file order"), FileOrder);
  sortCombo_->addItem(tr("disagreement ↓"), DisagreementDescending);
  sortCombo_->addItem(tr("student mIoU ↑"), StudentMiouAscending);
  sortCombo_->addItem(tr("student IoU deficit ↓ (teacher − student)"), GapAscending);
  sortCombo_->setToolTip(tr("Order to step through the images in: worst cases first"));
  controls->addWidget(sortCombo_);
  controls->addStretch(1);
  prevButton_ = new QPushButton(tr("◀ Previous"), this);
  prevButton_->setObjectName(QStringLiteral("previousButton"));
  prevButton_->setToolTip(tr("Previous image (Left, Page Up)"));
  controls->addWidget(prevButton_);
  positionSpin_ = new QSpinBox(this);
  positionSpin_->setObjectName(QStringLiteral("positionSpin"));
  positionSpin_->setRange(0, 0);
  positionSpin_->setToolTip(tr("Position of the image in the chosen order"));
  controls->addWidget(positionSpin_);
  countLabel_ = new QLabel(this);
  controls->addWidget(countLabel_);
  nextButton_ = new QPushButton(tr("Next ▶"), this);
  nextButton_->setObjectName(QStringLiteral("nextButton"));
  nextButton_->setToolTip(tr("Next image (Right, Page Down)"));
  controls->addWidget(nextButton_);
  for (auto* b : {prevButton_, nextButton_})
    b->setFocusPolicy(Qt::TabFocus);  // keys stay with the viewer
  return controls;
}

// The results summary, the current image's line, and the error line (hidden until needed).
void SegmentationViewer::addMessageLabels(QVBoxLayout* top) {
  summaryLabel_ = new QLabel(
      tr("Open a segmentation results folder (File → Open segmentation results…)."), this);
  summaryLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summaryLabel_->setWordWrap(true);
  top->addWidget(summaryLabel_);
  auto* sweepRow = new QHBoxLayout;  // the table as wide as its columns, at the left
  sweepRow->addWidget(buildSweepTable());
  sweepRow->addStretch(1);
  top->addLayout(sweepRow);

  imageLabel_ = new QLabel(this);
  imageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  imageLabel_->setWordWrap(true);
  top->addWidget(imageLabel_);

  messageLabel_ = new QLabel(this);
  messageLabel_->setWordWrap(true);
  messageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  messageLabel_->setStyleSheet(QStringLiteral("color: #d03030;"));
  messageLabel_->setVisible(false);
  top->addWidget(messageLabel_);
}

// Teacher and student at each resolution of the sweep, and the paper's numbers: read-only, as
// tall as its rows, hidden until results with a sweep are shown.
QTableWidget* SegmentationViewer::buildSweepTable() {
  sweepTable_ = new QTableWidget(0, SweepColumnCount, this);
  sweepTable_->setObjectName(QStringLiteral("sweepTable"));
  auto* resolution = new QTableWidgetItem(tr("Resolution"));
  resolution->setToolTip(tr("Side of the square evaluation images, in pixels"));
  sweepTable_->setHorizontalHeaderItem(SweepResolution, resolution);
  const auto& columns = sweep_columns();
  for (int c = 0; c < kSweepColumnCount; ++c) {
    const auto& column = columns[size_t(c)];
    auto* item = new QTableWidgetItem(QCoreApplication::translate("AdalaReport", column.header));
    item->setToolTip(QCoreApplication::translate("AdalaReport", column.tip));
    sweepTable_->setHorizontalHeaderItem(SweepResolution + 1 + c, item);
  }
  sweepTable_->verticalHeader()->setVisible(false);
  sweepTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  sweepTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  sweepTable_->setSelectionMode(QAbstractItemView::NoSelection);
  sweepTable_->setFocusPolicy(Qt::NoFocus);  // keys stay with the viewer
  sweepTable_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  sweepTable_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  sweepTable_->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
  sweepTable_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  // As tall as its header and rows, plus the horizontal scroll bar while that shows.
  connect(sweepTable_->horizontalScrollBar(), &QScrollBar::rangeChanged, sweepTable_,
          [table = sweepTable_] { fitSweepTableHeight(table); });
  sweepTable_->setVisible(false);
  return sweepTable_;
}

QWidget* SegmentationViewer::buildPaneGrid(QWidget* parent) {
  grid_ = new SegmentationPaneGrid(parent);
  const QString titles[PaneCount] = {tr("Image"), tr("Ground truth"), tr("Teacher"), tr("Student"),
                                     tr("Disagreement")};
  QVector<ZoomImagePane*> paneList;
  for (int i = 0; i < PaneCount; ++i) {
    auto* pane = new ZoomImagePane(titles[i], grid_);
    panes_[i] = pane;
    paneList << pane;
    connect(pane, &ZoomImagePane::zoomRequested, this,
            [this, pane](double factor, QPointF anchor, QPointF offset) {
              onZoomRequested(pane, factor, anchor, offset);
            });
    connect(pane, &ZoomImagePane::panRequested, this, &SegmentationViewer::onPanRequested);
    connect(pane, &ZoomImagePane::fitRequested, this, &SegmentationViewer::resetZoom);
    connect(pane, &ZoomImagePane::hovered, this, &SegmentationViewer::onHover);
  }
  grid_->setPanes(paneList);
  grid_->setRelayoutHandler([this] { applyView(); });  // the fit scale changes with the size
  return grid_;
}

// View settings, the disagreement legend and the class table beside the panes.
QWidget* SegmentationViewer::buildSidePanel(QWidget* parent) {
  auto* side = new QWidget(parent);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(4, 0, 0, 0);
  sideLayout->addWidget(buildViewBox(side));
  sideLayout->addWidget(buildAgreementBox(side));
  sideLayout->addWidget(buildClassBox(side));
  sideLayout->addStretch(1);
  return side;
}

// Mask opacity and the shared zoom.
QGroupBox* SegmentationViewer::buildViewBox(QWidget* parent) {
  auto* viewBox = new QGroupBox(tr("View"), parent);
  auto* viewLayout = new QGridLayout(viewBox);
  viewLayout->addWidget(new QLabel(tr("Mask opacity:"), viewBox), 0, 0);
  opacitySlider_ = new QSlider(Qt::Horizontal, viewBox);
  opacitySlider_->setObjectName(QStringLiteral("opacitySlider"));
  opacitySlider_->setRange(0, 100);
  opacitySlider_->setValue(int(std::lround(opacity_ * 100)));
  opacitySlider_->setFocusPolicy(Qt::TabFocus);
  opacitySlider_->setToolTip(tr("Opacity of the masks over the image (0: the image alone)"));
  viewLayout->addWidget(opacitySlider_, 0, 1);
  viewLayout->addWidget(new QLabel(tr("Zoom:"), viewBox), 1, 0);
  auto* zoomRow = new QHBoxLayout;
  auto* zoomOut = new QPushButton(tr("−"), viewBox);
  zoomOut->setToolTip(tr("Zoom out (-)"));
  auto* fit = new QPushButton(tr("Fit"), viewBox);
  fit->setToolTip(tr("Fit the image to the panes (0, or double-click a pane)"));
  auto* zoomIn = new QPushButton(tr("+"), viewBox);
  zoomIn->setToolTip(tr("Zoom in (+, or Ctrl + wheel over a pane); drag a pane to pan"));
  for (auto* b : {zoomOut, fit, zoomIn}) {
    b->setFocusPolicy(Qt::TabFocus);
    b->setMaximumWidth(std::max(32, fontMetrics().horizontalAdvance(b->text()) + 20));
    zoomRow->addWidget(b);
  }
  zoomLabel_ = new QLabel(viewBox);
  zoomRow->addWidget(zoomLabel_, 1);
  viewLayout->addLayout(zoomRow, 1, 1);
  viewLayout->setColumnStretch(1, 1);
  connect(zoomIn, &QPushButton::clicked, this, [this] { zoomBy(1.25); });
  connect(zoomOut, &QPushButton::clicked, this, [this] { zoomBy(0.8); });
  connect(fit, &QPushButton::clicked, this, &SegmentationViewer::resetZoom);
  return viewBox;
}

QGroupBox* SegmentationViewer::buildAgreementBox(QWidget* parent) {
  auto* agreementBox = new QGroupBox(tr("Disagreement map"), parent);
  auto* agreementLayout = new QVBoxLayout(agreementBox);
  agreementLegend_ = new AgreementLegend(agreementBox);
  agreementLayout->addWidget(agreementLegend_);
  return agreementBox;
}

QGroupBox* SegmentationViewer::buildClassBox(QWidget* parent) {
  auto* classBox = new QGroupBox(tr("Classes"), parent);
  auto* classLayout = new QVBoxLayout(classBox);
  scopeCombo_ = new QComboBox(classBox);
  scopeCombo_->setObjectName(QStringLiteral("scopeCombo"));
  scopeCombo_->addItem(tr("IoU over the whole split"), SplitIou);
  scopeCombo_->addItem(tr("IoU on this image"), ImageIou);
  scopeCombo_->setToolTip(tr("Which per-class IoU the table shows"));
  classLayout->addWidget(scopeCombo_);
  classLegend_ = new ClassLegend(classBox);
  classLayout->addWidget(classLegend_, 1);
  return classBox;
}

void SegmentationViewer::connectControls() {
  connect(headCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (!updatingControls_) setHead(i);
  });
  connect(sortCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (!updatingControls_) setSortOrder(static_cast<SortOrder>(sortCombo_->itemData(i).toInt()));
  });
  connect(scopeCombo_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (!updatingControls_) setIouScope(static_cast<IouScope>(scopeCombo_->itemData(i).toInt()));
  });
  // After a choice, the arrow keys step through images again.
  for (auto* combo : {headCombo_, sortCombo_, scopeCombo_})
    connect(combo, &QComboBox::activated, this, [this] { setFocus(); });
  connect(prevButton_, &QPushButton::clicked, this, &SegmentationViewer::previous);
  connect(nextButton_, &QPushButton::clicked, this, &SegmentationViewer::next);
  connect(positionSpin_, &QSpinBox::valueChanged, this, [this](int v) {
    if (!updatingControls_) setPosition(v - 1);
  });
  connect(opacitySlider_, &QSlider::valueChanged, this, [this](int v) {
    opacity_ = v / 100.0;
    redrawPanes();
  });
}

QString SegmentationViewer::shortcutRows() {
  return tr(
      "<tr><td>Left / Right, Page Up / Page Down</td><td>segmentation: previous / next "
      "image</td></tr>"
      "<tr><td>Home / End</td><td>segmentation: first / last image</td></tr>"
      "<tr><td>+ / - / 0, Ctrl + wheel</td><td>segmentation: zoom in / out / fit (all "
      "panes)</td></tr>"
      "<tr><td>drag</td><td>segmentation: pan all panes</td></tr>");
}

bool SegmentationViewer::openFolder(const QString& path, QString* error) {
  const QStringList dirs = SegmentationResults::findResultDirs(path);
  if (dirs.isEmpty()) {
    // Nothing to offer: the loader says what is missing (index.json, naming it).
    SegmentationResults probe;
    QString message;
    if (SegmentationResults::load(path, &probe, &message))  // cannot happen without an index
      message = tr("No segmentation results in %1.").arg(path);
    showError(message);
    if (error) *error = message;
    return false;
  }
  const QString previousHead =
      head_ >= 0 && head_ < headDirs_.size() ? QFileInfo(headDirs_[head_]).fileName() : QString();
  folder_ = QFileInfo(path).absoluteFilePath();
  headDirs_ = dirs;
  updatingControls_ = true;
  headCombo_->clear();
  for (const auto& d : dirs) headCombo_->addItem(QFileInfo(d).fileName(), d);
  updatingControls_ = false;
  int index = 0;
  for (int i = 0; i < dirs.size(); ++i)
    if (QFileInfo(dirs[i]).fileName() == previousHead) index = i;
  head_ = -1;
  order_.clear();  // a new folder starts at its first image (a new head keeps the image)
  position_ = -1;
  return loadHead(index, error);
}

bool SegmentationViewer::setHead(int index) {
  if (index < 0 || index >= headDirs_.size()) return false;
  if (index == head_ && loaded_) return true;
  return loadHead(index, nullptr);
}

bool SegmentationViewer::loadHead(int index, QString* error) {
  const QString keepId = currentId();
  head_ = index;
  updatingControls_ = true;
  headCombo_->setCurrentIndex(index);
  headCombo_->setEnabled(headDirs_.size() > 1);
  updatingControls_ = false;
  SegmentationResults loaded;
  QString message;
  if (!SegmentationResults::load(headDirs_[index], &loaded, &message)) {
    loaded_ = false;
    results_ = SegmentationResults{};
    order_.clear();
    position_ = -1;
    sampleOk_ = false;
    for (auto* p : panes_) p->setImage(QImage());
    classLegend_->setClasses({});
    agreementLegend_->setMap({});
    showError(message);
    updateSweepTable();
    updateTexts();
    if (error) *error = message;
    return false;
  }
  results_ = std::move(loaded);
  loaded_ = true;
  showError(QString());
  classLegend_->setClasses(results_.classes);
  updateSweepTable();
  position_ = -1;
  rebuildOrder(false);
  int start = 0;
  for (int p = 0; p < order_.size(); ++p)
    if (results_.entries[order_[p]].id == keepId) start = p;
  setPosition(start);
  emit resultsLoaded(results_.dir);
  return true;
}

QString SegmentationViewer::errorText() const { return messageLabel_->text(); }

void SegmentationViewer::showError(const QString& message) {
  messageLabel_->setText(message);
  messageLabel_->setVisible(!message.isEmpty());
}

void SegmentationViewer::rebuildOrder(bool keepCurrent) {
  const int current = currentEntry();
  const auto& entries = results_.entries;
  order_.resize(entries.size());
  std::iota(order_.begin(), order_.end(), 0);
  auto byKey = [&](auto key, bool descending) {
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      const double ka = key(entries[a]), kb = key(entries[b]);
      if (std::isnan(ka) || std::isnan(kb))
        return !std::isnan(ka) && std::isnan(kb);  // unknown last
      return descending ? ka > kb : ka < kb;
    });
  };
  switch (sort_) {
    case FileOrder:
      break;
    case DisagreementDescending:
      byKey([](const SegmentationEntry& e) { return e.disagreement; }, true);
      break;
    case StudentMiouAscending:
      byKey([](const SegmentationEntry& e) { return e.studentMiou; }, false);
      break;
    case GapAscending:
      byKey([](const SegmentationEntry& e) { return e.gap(); }, false);
      break;
  }
  position_ = -1;
  int start = 0;
  if (keepCurrent && current >= 0) start = int(order_.indexOf(current));
  if (!order_.isEmpty()) setPosition(std::max(0, start));
}

void SegmentationViewer::setSortOrder(SortOrder order) {
  sort_ = order;
  updatingControls_ = true;
  sortCombo_->setCurrentIndex(sortCombo_->findData(order));
  updatingControls_ = false;
  if (loaded_) rebuildOrder(false);  // the first of the new order: the worst case
}

void SegmentationViewer::setIouScope(IouScope scope) {
  scope_ = scope;
  updatingControls_ = true;
  scopeCombo_->setCurrentIndex(scopeCombo_->findData(scope));
  updatingControls_ = false;
  updateLegendIou();
}

int SegmentationViewer::currentEntry() const {
  return position_ >= 0 && position_ < order_.size() ? order_[position_] : -1;
}

QString SegmentationViewer::currentId() const {
  const int e = currentEntry();
  return e >= 0 ? results_.entries[e].id : QString();
}

void SegmentationViewer::setPosition(int position) {
  if (order_.isEmpty()) return;
  position = std::clamp(position, 0, int(order_.size()) - 1);
  if (position == position_) return;
  position_ = position;
  showCurrent();
}

void SegmentationViewer::showCurrent() {
  const int entry = currentEntry();
  if (entry < 0) return;
  const QSize before = sampleOk_ ? sample_.image.size() : QSize();
  QString message;
  sampleOk_ = results_.loadSample(entry, &sample_, &message);
  if (sampleOk_) {
    agreement_ =
        agreementMap(sample_.truth, sample_.teacher, sample_.student, results_.ignoreIndex);
    QVector<QColor> palette;
    for (const auto& c : results_.classes) palette << c.color;
    overlays_[TruthPane] = renderClassMask(sample_.truth, palette, results_.ignoreIndex);
    overlays_[TeacherPane] = renderClassMask(sample_.teacher, palette, results_.ignoreIndex);
    overlays_[StudentPane] = renderClassMask(sample_.student, palette, results_.ignoreIndex);
    overlays_[DisagreementPane] = renderAgreement(agreement_);
    grid_->setImageSize(sample_.image.size());
    if (sample_.image.size() != before) {
      scale_ = 0.0;
      centre_ = QPointF(sample_.image.width() / 2.0, sample_.image.height() / 2.0);
    }
    showError(QString());
  } else {
    sample_ = SegmentationSample{};
    agreement_ = AgreementMap{};
    for (auto& o : overlays_) o = QImage();
    showError(message);
  }
  agreementLegend_->setMap(agreement_);
  redrawPanes();
  applyView();
  updateTexts();
  onHover(hover_);
  emit currentImageChanged(currentId());
}

void SegmentationViewer::redrawPanes() {
  if (!sampleOk_) {
    for (auto* p : panes_) p->setImage(QImage());
    return;
  }
  panes_[ImagePane]->setImage(sample_.image);
  for (int k : {TruthPane, TeacherPane, StudentPane, DisagreementPane})
    panes_[k]->setImage(composeMask(sample_.image, overlays_[k], opacity_));
}

void SegmentationViewer::updateTexts() {
  updatingControls_ = true;
  const int n = imageCount();
  positionSpin_->setRange(n > 0 ? 1 : 0, n);
  positionSpin_->setValue(position_ + 1);
  positionSpin_->setEnabled(n > 0);
  countLabel_->setText(tr("of %1").arg(n));
  prevButton_->setEnabled(position_ > 0);
  nextButton_->setEnabled(position_ >= 0 && position_ < n - 1);
  updatingControls_ = false;

  storyLabel_->setText(storyText());
  storyLabel_->setVisible(loaded_);
  summaryLabel_->setText(
      loaded_ ? summaryText()
              : tr("Open a segmentation results folder (File → Open segmentation results…)."));
  imageLabel_->setText(imageText());
  const int e = currentEntry();
  const SegmentationEntry* entry = e >= 0 ? &results_.entries[e] : nullptr;
  panes_[ImagePane]->setTitle(entry ? tr("Image %1").arg(entry->id) : tr("Image"));
  panes_[TruthPane]->setTitle(tr("Ground truth"));
  panes_[TeacherPane]->setTitle(entry ? tr("Teacher · mIoU %1").arg(number(entry->teacherMiou))
                                      : tr("Teacher"));
  panes_[StudentPane]->setTitle(entry ? tr("Student · mIoU %1").arg(number(entry->studentMiou))
                                      : tr("Student"));
  panes_[DisagreementPane]->setTitle(
      entry ? tr("Disagreement · %1 %").arg(percent(entry->disagreement)) : tr("Disagreement"));
  updateLegendIou();
}

// The usual split names in the interface's language; any other name as the results give it.
QString SegmentationViewer::splitName(const QString& split) {
  if (split == QLatin1String("train") || split == QLatin1String("training")) return tr("training");
  if (split == QLatin1String("validation") || split == QLatin1String("val"))
    return tr("validation");
  if (split == QLatin1String("test")) return tr("test");
  return split;
}

QString SegmentationViewer::summaryText() const {
  if (!loaded_) return {};
  const auto& r = results_;
  const QString where = r.split.isEmpty()
                            ? tr("%1 head · %2 images").arg(r.head).arg(r.entries.size())
                            : tr("%1 head · %2 split · %3 images")
                                  .arg(r.head, splitName(r.split))
                                  .arg(r.entries.size());
  return tr("%1  —  teacher mIoU %2 · student mIoU %3 · student − teacher %4  —  pixel accuracy: "
            "teacher %5 % · "
            "student %6 %")
      .arg(where, number(r.teacher.miou), number(r.student.miou),
           signedNumber(r.student.miou - r.teacher.miou), percent(r.teacher.pixelAccuracy),
           percent(r.student.pixelAccuracy));
}

QString SegmentationViewer::storyText() const {
  if (!loaded_) return {};
  if (!results_.story) return tr("%1 head").arg(results_.head);
  const SegmentationStory& s = *results_.story;
  QStringList parts{tr("%1×%1").arg(s.imageSize)};
  if (!s.fineTuned) {
    parts << tr("backbone frozen");
  } else {
    QStringList how;
    if (!std::isnan(s.backboneLrScale)) how << tr("lr ×%1").arg(s.backboneLrScale);
    if (!std::isnan(s.layerDecay)) how << tr("layer decay %1").arg(s.layerDecay);
    if (s.probeEpochs > 0) how << tr("head probed %n epoch(s) first", nullptr, int(s.probeEpochs));
    parts << (how.isEmpty() ? tr("backbone fine-tuned")
                            : tr("backbone fine-tuned (%1)").arg(how.join(QStringLiteral(", "))));
  }
  parts << tr("%1 head").arg(s.head.isEmpty() ? results_.head : s.head);
  if (s.trainImages >= 0) parts << tr("%n training scene(s)", nullptr, int(s.trainImages));
  if (!s.adaptation.isEmpty()) parts << tr("student: %1").arg(s.adaptation);
  return parts.join(QStringLiteral(" · "));
}

void SegmentationViewer::updateSweepTable() {
  const auto& sweep = results_.sweep;
  const bool shown = loaded_ && !sweep.isEmpty();
  const auto& paper = results_.paper;
  sweepTable_->setRowCount(shown ? int(sweep.size()) + (paper ? 1 : 0) : 0);
  sweepTable_->setVisible(shown);
  if (!shown) return;
  for (int i = 0; i < sweep.size(); ++i) {
    const auto& row = sweep[i];
    fillSweepRow(sweepTable_, i, sweepSide(row.imageSize),
                 tr("%n validation scene(s) of %1 to %2 garments", nullptr, int(row.valImages))
                     .arg(row.garmentsMin)
                     .arg(row.garmentsMax),
                 row.teacher, row.student);
  }
  if (paper) {
    const int row = int(sweep.size());
    const QString size = QString::number(paper->imageSize);
    fillSweepRow(
        sweepTable_, row,
        tr("paper: %1").arg(paper->dataset) + QLatin1Char(' ') + sweepSide(paper->imageSize),
        tr("The paper's numbers (%1 at %2 × %2 pixels), for comparison: not measured "
           "here.")
            .arg(paper->dataset, size),
        paper->teacher, paper->student);
    QFont italic = sweepTable_->font();
    italic.setItalic(true);
    for (int c = 0; c < SweepColumnCount; ++c) sweepTable_->item(row, c)->setFont(italic);
  }
  sweepTable_->resizeColumnsToContents();
  sweepTable_->resizeRowsToContents();
  fitSweepTableHeight(sweepTable_);
}

QString SegmentationViewer::imageText() const {
  const int e = currentEntry();
  if (e < 0) return {};
  const auto& entry = results_.entries[e];
  return tr("Image %1 (%2 of %3): teacher mIoU %4 · student mIoU %5 · student − teacher %6 · they "
            "disagree on %7 % "
            "of the labelled pixels")
      .arg(entry.id)
      .arg(position_ + 1)
      .arg(imageCount())
      .arg(number(entry.teacherMiou), number(entry.studentMiou), signedNumber(entry.gap()),
           percent(entry.disagreement));
}

QString SegmentationViewer::hoverText() const { return hoverLabel_->text(); }

void SegmentationViewer::updateLegendIou() {
  const int e = currentEntry();
  if (!loaded_) {
    classLegend_->setIou({}, {}, QString());
    return;
  }
  if (scope_ == ImageIou && e >= 0) {
    const auto& entry = results_.entries[e];
    classLegend_->setIou(entry.teacherIou, entry.studentIou,
                         tr("IoU on image %1 (— : class absent)").arg(entry.id));
  } else {
    const bool recorded =
        !results_.teacher.perClassIou.isEmpty() || !results_.student.perClassIou.isEmpty();
    classLegend_->setIou(
        results_.teacher.perClassIou, results_.student.perClassIou,
        recorded ? tr("IoU over all %1 images (— : class absent)").arg(results_.entries.size())
                 : tr("index.json records no per-class IoU over the split."));
  }
}

void SegmentationViewer::setOpacity(double opacity) {
  opacitySlider_->setValue(int(std::lround(std::clamp(opacity, 0.0, 1.0) * 100)));
}

void SegmentationViewer::applyView() {
  for (auto* p : panes_) p->setView(scale_, centre_);
  zoomLabel_->setText(scale_ > 0.0 ? tr("zoom %1×").arg(scale_, 0, 'f', 1)
                                   : tr("fit (%1×)").arg(panes_[ImagePane]->scale(), 0, 'f', 1));
}

void SegmentationViewer::onZoomRequested(ZoomImagePane* origin, double factor, QPointF anchor,
                                         QPointF offset) {
  if (!sampleOk_) return;
  const double fit = origin->fitScale();
  const double scale = std::min(std::max(kMaxScale, 16 * fit), origin->scale() * factor);
  if (scale <= fit * 1.001) {
    resetZoom();
    return;
  }
  scale_ = scale;
  const QSizeF size = sample_.image.size();
  const QPointF c = anchor - offset / scale;
  centre_ = QPointF(std::clamp(c.x(), 0.0, size.width()), std::clamp(c.y(), 0.0, size.height()));
  applyView();
}

void SegmentationViewer::zoomBy(double factor) {
  auto* origin = panes_[ImagePane];
  onZoomRequested(origin, factor, origin->centre(), QPointF());
}

void SegmentationViewer::resetZoom() {
  scale_ = 0.0;
  if (sampleOk_) centre_ = QPointF(sample_.image.width() / 2.0, sample_.image.height() / 2.0);
  applyView();
}

void SegmentationViewer::onPanRequested(QPointF delta) {
  if (!sampleOk_ || scale_ <= 0.0) return;
  const QSizeF size = sample_.image.size();
  const QPointF c = centre_ + delta;
  centre_ = QPointF(std::clamp(c.x(), 0.0, size.width()), std::clamp(c.y(), 0.0, size.height()));
  applyView();
}

QString SegmentationViewer::className(int index) const {
  if (index == results_.ignoreIndex) return tr("ignore (%1)").arg(index);
  if (index >= 0 && index < results_.classes.size()) return results_.classes[index].name;
  return tr("class %1").arg(index);
}

QColor SegmentationViewer::classColor(int index) const {
  return index >= 0 && index < results_.classes.size() && index != results_.ignoreIndex
             ? results_.classes[index].color
             : QColor();
}

void SegmentationViewer::onHover(QPoint pixel) {
  hover_ = pixel;
  const bool inside = sampleOk_ && pixel.x() >= 0 && pixel.y() >= 0 &&
                      pixel.x() < sample_.truth.width && pixel.y() < sample_.truth.height;
  if (!inside) {
    for (auto* p : panes_) p->setHover(QPoint(-1, -1), QString());
    classLegend_->setHighlightedClass(-1);
    if (loaded_) hoverLabel_->setText(tr("Point at a pane to read the classes under the cursor."));
    return;
  }
  const int x = pixel.x(), y = pixel.y();
  const int t = sample_.truth.at(x, y), a = sample_.teacher.at(x, y), s = sample_.student.at(x, y);
  const Agreement g = agreement_.at(x, y);
  panes_[ImagePane]->setHover(pixel, tr("x %1, y %2").arg(x).arg(y));
  panes_[TruthPane]->setHover(pixel, className(t), classColor(t));
  panes_[TeacherPane]->setHover(pixel, className(a), classColor(a));
  panes_[StudentPane]->setHover(pixel, className(s), classColor(s));
  panes_[DisagreementPane]->setHover(pixel, agreementName(g),
                                     g == Agreement::Ignore ? QColor() : agreementColor(g));
  classLegend_->setHighlightedClass(t == results_.ignoreIndex ? -1 : t);
  hoverLabel_->setText(tr("Pixel (%1, %2): truth %3 · teacher %4 · student %5 — %6")
                           .arg(x)
                           .arg(y)
                           .arg(className(t), className(a), className(s), agreementName(g)));
}

void SegmentationViewer::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_PageDown:
      next();
      return;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
      previous();
      return;
    case Qt::Key_Home:
      setPosition(0);
      return;
    case Qt::Key_End:
      setPosition(imageCount() - 1);
      return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomBy(1.25);
      return;
    case Qt::Key_Minus:
      zoomBy(0.8);
      return;
    case Qt::Key_0:
      resetZoom();
      return;
    default:
      QWidget::keyPressEvent(event);
  }
}

}  // namespace adala::widgets
