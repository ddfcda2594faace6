// AttentionInspector's overviews beyond one block and head: the attention rollout view and
// the blocks x heads grid window (both answered by one overview request to the engine).
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "widgets/inspect/attention_grid_view.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/common/image_pane.h"

namespace adala::widgets {

bool AttentionInspector::shownRows(const float** softmax, const float** linear) const {
  if (!haveProbe_) return false;
  const int tokens = image_.prefixTokens + image_.gridHeight * image_.gridWidth;
  const QVector<float>& s = rollout_ ? rolloutSoft_ : rows_.softmax;
  const QVector<float>& l = rollout_ ? rolloutLin_ : rows_.linear;
  if (s.size() != tokens || l.size() != tokens) return false;
  if (rollout_ && rolloutQuery_ != query_) return false;
  *softmax = s.constData() + image_.prefixTokens;
  *linear = l.constData() + image_.prefixTokens;
  return true;
}

void AttentionInspector::setRollout(bool on) {
  if (rolloutButton_->isChecked() != on) {
    rolloutButton_->setChecked(on);  // comes back here through toggled
    return;
  }
  rollout_ = on;
  blockSlider_->setEnabled(!on);
  headCombo_->setEnabled(!on);
  updatePaneTitles();
  requestOverview();
  updateScales();
  redraw();
}

void AttentionInspector::updatePaneTitles() {
  if (rollout_) {
    panes_[SoftmaxPane]->setTitle(tr("Softmax rollout (all blocks)"));
    panes_[LinearPane]->setTitle(tr("Linear rollout (all blocks)"));
    panes_[DifferencePane]->setTitle(tr("|linear − softmax| rollout"));
  } else {
    panes_[SoftmaxPane]->setTitle(tr("Softmax attention"));
    panes_[LinearPane]->setTitle(tr("Linear attention"));
    panes_[DifferencePane]->setTitle(tr("|linear − softmax|"));
  }
}

void AttentionInspector::showBlockHeadGrid() {
  if (!gridDialog_) {
    gridDialog_ = new QDialog(this);
    gridDialog_->setWindowTitle(tr("Blocks × heads"));
    auto* layout = new QVBoxLayout(gridDialog_);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Path:"), gridDialog_));
    gridPathCombo_ = new QComboBox(gridDialog_);
    gridPathCombo_->addItem(tr("softmax"));
    gridPathCombo_->addItem(tr("linear"));
    top->addWidget(gridPathCombo_);
    auto* note = new QLabel(
        tr("Each map on its own 0..max. Click a map to show that block and head."), gridDialog_);
    note->setWordWrap(true);
    top->addWidget(note, 1);
    layout->addLayout(top);
    gridView_ = new AttentionGridView(gridDialog_);
    layout->addWidget(gridView_, 1);
    connect(gridPathCombo_, &QComboBox::currentIndexChanged, this,
            &AttentionInspector::updateGridView);
    connect(gridView_, &AttentionGridView::cellClicked, this, [this](int b, int h) {
      if (rollout_) setRollout(false);
      setBlock(b);
      setHead(h);
    });
    gridDialog_->resize(760, 680);
  }
  gridDialog_->show();
  gridDialog_->raise();
  gridView_->setColormap(colormap_);
  requestOverview();
  updateGridView();
}

void AttentionInspector::requestOverview() {
  if (!haveProbe_ || query_ < 0) return;
  const bool grid = gridDialog_ && gridDialog_->isVisible() && gridQuery_ != query_;
  const bool rollout = rollout_ && rolloutQuery_ != query_;
  if (!grid && !rollout) return;
  if (rollout) statusLabel_->setText(tr("Computing the attention rollout through all blocks…"));
  emit overviewRequested(++lastOverview_, query_, grid, rollout);
}

void AttentionInspector::onOverview(const AttentionOverview& overview) {
  if (overview.requestId != lastOverview_ || overview.query != query_) return;
  if (!overview.softmax.isEmpty()) {
    grid_ = overview;
    gridQuery_ = overview.query;
    updateGridView();
  }
  if (!overview.rolloutSoftmax.isEmpty()) {
    rolloutSoft_ = overview.rolloutSoftmax;
    rolloutLin_ = overview.rolloutLinear;
    rolloutQuery_ = overview.query;
    statusLabel_->setText(tr("Attention rollout of token %1 through %2 blocks (heads averaged, "
                             "0.5 A + 0.5 I per block); the query's own cell is left out of the "
                             "colour scale.")
                              .arg(overview.query)
                              .arg(overview.blocks));
    if (rollout_) {
      updateScales();
      redraw();
    }
  }
  emit overviewUpdated();
}

void AttentionInspector::updateGridView() {
  if (!gridView_) return;
  gridView_->setCurrent(block_, head_);
  if (gridQuery_ != query_ || grid_.softmax.isEmpty()) {
    gridView_->clear();
    return;
  }
  const bool linear = gridPathCombo_->currentIndex() == 1;
  gridView_->setMaps(grid_.blocks, grid_.heads, image_.gridHeight, image_.gridWidth,
                     image_.prefixTokens, linear ? grid_.linear : grid_.softmax);
  const int p = query_ - image_.prefixTokens;
  gridView_->setQueryCell(p >= 0 ? QPoint(p % image_.gridWidth, p / image_.gridWidth)
                                 : QPoint(-1, -1));
  gridView_->setCurrent(block_, head_);
}

}  // namespace adala::widgets
