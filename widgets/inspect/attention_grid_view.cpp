#include "widgets/inspect/attention_grid_view.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace adala::widgets {

namespace {
constexpr int kLabelWidth = 64;  // "block 11" on the left
constexpr int kHeaderHeight = 20;
constexpr int kTileGap = 4;
}  // namespace

AttentionGridView::AttentionGridView(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setCursor(Qt::PointingHandCursor);
}

void AttentionGridView::setMaps(int blocks, int heads, int gridHeight, int gridWidth, int prefix,
                                const QVector<QVector<float>>& maps) {
  blocks_ = blocks;
  heads_ = heads;
  gridH_ = gridHeight;
  gridW_ = gridWidth;
  prefix_ = prefix;
  maps_ = maps;
  rebuild();
}

void AttentionGridView::clear() {
  maps_.clear();
  cells_.clear();
  blocks_ = heads_ = 0;
  update();
}

void AttentionGridView::setCurrent(int block, int head) {
  block_ = block;
  head_ = head;
  update();
}

void AttentionGridView::setQueryCell(const QPoint& cell) {
  query_ = cell;
  update();
}

void AttentionGridView::setColormap(Colormap map) {
  map_ = map;
  rebuild();
}

void AttentionGridView::rebuild() {
  cells_.clear();
  const int n = gridH_ * gridW_;
  for (const auto& m : maps_) {
    if (m.size() != prefix_ + n) {
      cells_.push_back(QImage());
      continue;
    }
    const float* v = m.constData() + prefix_;
    const double top = *std::max_element(v, v + n);
    cells_.push_back(colormapGrid(v, gridH_, gridW_, 0.0, top > 0 ? top : 1.0, map_));
  }
  updateGeometry();
  update();
}

QSize AttentionGridView::cellSize() const {
  if (blocks_ <= 0 || heads_ <= 0 || gridH_ <= 0 || gridW_ <= 0) return {0, 0};
  const double w = double(width() - kLabelWidth - kTileGap * heads_) / heads_;
  const double h = double(height() - kHeaderHeight - kTileGap * blocks_) / blocks_;
  // The grid's aspect kept.
  const double scale = std::max(0.0, std::min(w / gridW_, h / gridH_));
  return {std::max(1, int(gridW_ * scale)), std::max(1, int(gridH_ * scale))};
}

QRect AttentionGridView::cellRect(int block, int head) const {
  const QSize s = cellSize();
  return QRect(kLabelWidth + head * (s.width() + kTileGap),
               kHeaderHeight + block * (s.height() + kTileGap), s.width(), s.height());
}

QImage AttentionGridView::cellImage(int block, int head) const {
  const int i = block * heads_ + head;
  return i >= 0 && i < cells_.size() ? cells_[i] : QImage();
}

QSize AttentionGridView::sizeHint() const {
  const int side = 72;
  return {kLabelWidth + std::max(1, heads_) * (side + kTileGap),
          kHeaderHeight + std::max(1, blocks_) * (side + kTileGap)};
}

void AttentionGridView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  p.setPen(palette().color(QPalette::Text));
  if (cells_.isEmpty()) {
    p.drawText(rect(), Qt::AlignCenter, tr("computing every block and head…"));
    return;
  }
  const QSize s = cellSize();
  for (int h = 0; h < heads_; ++h)
    p.drawText(QRect(kLabelWidth + h * (s.width() + kTileGap), 0, s.width(), kHeaderHeight),
               Qt::AlignCenter, tr("head %1").arg(h));
  for (int b = 0; b < blocks_; ++b) {
    p.setPen(palette().color(QPalette::Text));  // the rings below draw in white
    p.drawText(QRect(0, kHeaderHeight + b * (s.height() + kTileGap), kLabelWidth - 6, s.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("block %1").arg(b));
    for (int h = 0; h < heads_; ++h) {
      const QImage& img = cellImage(b, h);
      const QRect r = cellRect(b, h);
      // Smooth when shrinking, so a one-patch peak of a large grid still shows.
      p.setRenderHint(QPainter::SmoothPixmapTransform, r.width() < img.width());
      if (!img.isNull()) p.drawImage(r, img);
      if (query_.x() >= 0 && gridW_ > 0) {
        const QPointF c(r.left() + (query_.x() + 0.5) * r.width() / gridW_,
                        r.top() + (query_.y() + 0.5) * r.height() / gridH_);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::white, 1.5));
        p.drawEllipse(c, 4.0, 4.0);
      }
    }
  }
  if (block_ >= 0 && block_ < blocks_ && head_ >= 0 && head_ < heads_) {
    const QRect r = cellRect(block_, head_).adjusted(-2, -2, 1, 1);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette().color(QPalette::Highlight), 3));
    p.drawRect(r);
  }
}

void AttentionGridView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  for (int b = 0; b < blocks_; ++b)
    for (int h = 0; h < heads_; ++h)
      if (cellRect(b, h).contains(event->position().toPoint())) {
        emit cellClicked(b, h);
        return;
      }
}

}  // namespace adala::widgets
