#include "widgets/image_pane.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <utility>

namespace adala::widgets {

namespace {
constexpr int kTitleHeight = 20;
}

ImagePane::ImagePane(const QString& title, QWidget* parent)
    : TitledImagePane(title, kTitleHeight, parent) {
  setFocusPolicy(Qt::ClickFocus);
}

void ImagePane::setHighlight(const QRect& imageRect) {
  highlight_ = imageRect;
  update();
}

QRectF ImagePane::imageRectInWidget() const {
  const QRectF area = viewArea();
  if (image().isNull() || area.width() <= 0 || area.height() <= 0) return area;
  const double scale = fitScale();
  const QSizeF size(image().width() * scale, image().height() * scale);
  return QRectF(area.center() - QPointF(size.width() / 2, size.height() / 2), size);
}

QPointF ImagePane::toWidget(const QPointF& p) const {
  const QRectF r = imageRectInWidget();
  if (image().isNull()) return r.topLeft();
  return {r.left() + p.x() * r.width() / image().width(),
          r.top() + p.y() * r.height() / image().height()};
}

QPointF ImagePane::toImage(const QPointF& p) const {
  const QRectF r = imageRectInWidget();
  if (image().isNull() || r.width() <= 0) return {-1, -1};
  return {(p.x() - r.left()) * image().width() / r.width(),
          (p.y() - r.top()) * image().height() / r.height()};
}

void ImagePane::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  drawTitle(p, palette().color(QPalette::Text));
  if (image().isNull()) {
    drawPlaceholder(p, tr("no image"));
    return;
  }
  const QRectF target = imageRectInWidget();
  // Patches must stay crisp squares: nearest-neighbour when enlarging.
  p.setRenderHint(QPainter::SmoothPixmapTransform, target.width() < image().width());
  p.drawImage(target, image());
  if (!highlight_.isEmpty()) {
    const QRectF cell(
        toWidget(highlight_.topLeft()),
        toWidget(highlight_.topLeft() + QPoint(highlight_.width(), highlight_.height())));
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(Qt::NoBrush);
    if (std::min(cell.width(), cell.height()) >= 10) {
      p.setPen(QPen(Qt::black, 3));
      p.drawRect(cell.adjusted(-1, -1, 1, 1));
      p.setPen(QPen(Qt::white, 1.5));
      p.drawRect(cell.adjusted(-1, -1, 1, 1));
    } else {
      // A patch smaller than a few screen pixels (a 1024 x 1024 input): ring and cross hairs.
      const QPointF c = cell.center();
      for (const auto& [color, width] :
           {std::pair{QColor(Qt::black), 3.0}, std::pair{QColor(Qt::white), 1.5}}) {
        p.setPen(QPen(color, width));
        p.drawEllipse(c, 9.0, 9.0);
        p.drawLine(QPointF(c.x() - 16, c.y()), QPointF(c.x() - 10, c.y()));
        p.drawLine(QPointF(c.x() + 10, c.y()), QPointF(c.x() + 16, c.y()));
        p.drawLine(QPointF(c.x(), c.y() - 16), QPointF(c.x(), c.y() - 10));
        p.drawLine(QPointF(c.x(), c.y() + 10), QPointF(c.x(), c.y() + 16));
      }
    }
  }
}

void ImagePane::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || image().isNull()) return QWidget::mousePressEvent(event);
  const QPointF ip = toImage(event->position());
  if (ip.x() < 0 || ip.y() < 0 || ip.x() >= image().width() || ip.y() >= image().height()) return;
  emit clicked(ip);
}

}  // namespace adala::widgets
