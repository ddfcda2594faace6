#include "widgets/common/pane_grid.h"

#include <QGridLayout>
#include <QResizeEvent>

#include <algorithm>

namespace adala::widgets {

PaneGrid::PaneGrid(QWidget* parent) : QWidget(parent), grid_(new QGridLayout(this)) {
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(6);
}

void PaneGrid::setPanes(const QList<QWidget*>& panes) {
  panes_ = panes;
  arrange(true);
}

void PaneGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrange(false);
}

void PaneGrid::arrange(bool force) {
  QList<QWidget*> shown;
  for (auto* p : panes_)
    if (!p->isHidden()) shown << p;
  const int count = static_cast<int>(std::max<qsizetype>(1, shown.size()));
  const int columns = width() > 2 * height() ? count : (count + 1) / 2;
  if (!force && columns == columns_) return;
  columns_ = columns;
  for (auto* p : panes_) grid_->removeWidget(p);
  for (int i = 0; i < shown.size(); ++i) grid_->addWidget(shown[i], i / columns, i % columns);
  for (int c = 0; c < 8; ++c) grid_->setColumnStretch(c, c < columns ? 1 : 0);
  const int rows = (count + columns - 1) / columns;
  for (int r = 0; r < 8; ++r) grid_->setRowStretch(r, r < rows ? 1 : 0);
}

}  // namespace adala::widgets
