// SegmentationViewer's widgets, how they are laid out and connected, and its keys. Loading and
// stepping: segmentation_viewer_browse.cpp; its texts and sweep table:
// segmentation_viewer_texts.cpp.
#include "widgets/segmentation/segmentation_viewer.h"

#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/common/caption_label.h"
#include "widgets/common/zoom_image_pane.h"
#include "widgets/segmentation/segmentation_legend.h"
#include "widgets/segmentation/segmentation_pane_grid.h"

namespace adala::widgets {

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
