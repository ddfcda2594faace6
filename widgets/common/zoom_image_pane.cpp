#include "widgets/common/zoom_image_pane.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace adala::widgets {

ZoomImagePane::ZoomImagePane(const QString& title, QWidget* parent)
    : TitledImagePane(title, kTitleHeight, parent) {
  setMouseTracking(true);
  setFocusPolicy(Qt::NoFocus);  // keys go to the owner
}

void ZoomImagePane::setView(double scale, const QPointF& centre) {
  scale_ = scale;
  centre_ = centre;
  update();
}

double ZoomImagePane::scale() const { return scale_ > 0.0 ? scale_ : fitScale(); }

QPointF ZoomImagePane::centre() const {
  if (scale_ > 0.0 || image().isNull()) return centre_;
  return QPointF(image().width() / 2.0, image().height() / 2.0);
}

QPointF ZoomImagePane::toWidget(const QPointF& imagePoint) const {
  return viewArea().center() + (imagePoint - centre()) * scale();
}

QPointF ZoomImagePane::toImage(const QPointF& widgetPoint) const {
  return centre() + (widgetPoint - viewArea().center()) / scale();
}

void ZoomImagePane::setHover(const QPoint& pixel, const QString& label, const QColor& swatch) {
  if (pixel == hoverPixel_ && label == hoverLabel_ && swatch == hoverSwatch_) return;
  hoverPixel_ = pixel;
  hoverLabel_ = label;
  hoverSwatch_ = swatch;
  update();
}

void ZoomImagePane::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  const QRectF area = viewArea();
  p.fillRect(area, palette().base());

  drawTitle(p, palette().color(QPalette::WindowText));
  if (image().isNull()) {
    drawPlaceholder(p, tr("no image"));
    return;
  }

  // Only the visible part of the image, whole pixels, so a deep zoom stays cheap.
  p.setClipRect(area);
  const QPointF a = toImage(area.topLeft()), b = toImage(area.bottomRight());
  const int x0 = std::clamp(int(std::floor(a.x())), 0, image().width());
  const int y0 = std::clamp(int(std::floor(a.y())), 0, image().height());
  const int x1 = std::clamp(int(std::ceil(b.x())), 0, image().width());
  const int y1 = std::clamp(int(std::ceil(b.y())), 0, image().height());
  if (x1 > x0 && y1 > y0) {
    const QRect source(x0, y0, x1 - x0, y1 - y0);
    const QRectF target(toWidget(source.topLeft()), toWidget(QPointF(x1, y1)));
    // Masks must stay crisp: nearest neighbour when enlarging.
    p.setRenderHint(QPainter::SmoothPixmapTransform, scale() < 1.0);
    p.drawImage(target, image(), source);
  }
  drawHover(p);
  p.setClipping(false);
  p.setBrush(Qt::NoBrush);
  p.setPen(palette().color(QPalette::Mid));
  p.drawRect(area.adjusted(0, 0, -1, -1));
}

void ZoomImagePane::drawHover(QPainter& p) {
  if (hoverPixel_.x() < 0 || hoverPixel_.y() < 0) return;
  p.save();
  drawHoverMarks(p);
  p.restore();
}

void ZoomImagePane::drawHoverMarks(QPainter& p) {
  const QRectF cell(toWidget(hoverPixel_), toWidget(hoverPixel_ + QPoint(1, 1)));
  p.setRenderHint(QPainter::Antialiasing);
  p.setBrush(Qt::NoBrush);
  const QPointF c = cell.center();
  for (const auto& [color, width] :
       {std::pair{QColor(Qt::black), 3.0}, std::pair{QColor(Qt::white), 1.2}}) {
    p.setPen(QPen(color, width));
    if (cell.width() >= 8) p.drawRect(cell);
    const double r = std::max(4.0, cell.width() / 2) + 3;
    p.drawLine(QPointF(c.x() - r - 6, c.y()), QPointF(c.x() - r, c.y()));
    p.drawLine(QPointF(c.x() + r, c.y()), QPointF(c.x() + r + 6, c.y()));
    p.drawLine(QPointF(c.x(), c.y() - r - 6), QPointF(c.x(), c.y() - r));
    p.drawLine(QPointF(c.x(), c.y() + r), QPointF(c.x(), c.y() + r + 6));
  }
  if (hoverLabel_.isEmpty()) return;

  // The label in a dark box beside the marker, kept inside the view.
  const QFontMetrics fm(font());
  const int swatch = hoverSwatch_.isValid() ? fm.height() - 4 : 0;
  const int w = fm.horizontalAdvance(hoverLabel_) + 10 + (swatch ? swatch + 5 : 0);
  const int h = fm.height() + 6;
  const QRectF area = viewArea();
  QPointF at = c + QPointF(14, 12);
  if (at.x() + w > area.right()) at.setX(c.x() - 14 - w);
  if (at.y() + h > area.bottom()) at.setY(c.y() - 12 - h);
  at.setX(std::max(area.left() + 1, at.x()));
  at.setY(std::max(area.top() + 1, at.y()));
  const QRectF box(at, QSizeF(w, h));
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(20, 20, 20, 215));
  p.drawRoundedRect(box, 3, 3);
  double textLeft = box.left() + 5;
  if (swatch) {
    const QRectF s(textLeft, box.top() + (h - swatch) / 2.0, swatch, swatch);
    p.setBrush(hoverSwatch_);
    p.setPen(QPen(QColor(235, 235, 235), 1));
    p.drawRect(s);
    textLeft += swatch + 5;
  }
  p.setPen(QColor(245, 245, 245));
  p.drawText(QRectF(textLeft, box.top(), box.right() - textLeft, h),
             Qt::AlignVCenter | Qt::AlignLeft, hoverLabel_);
}

void ZoomImagePane::wheelEvent(QWheelEvent* event) {
  if (!(event->modifiers() & Qt::ControlModifier) || image().isNull())
    return QWidget::wheelEvent(event);
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0.0) return;
  const QPointF at = event->position();
  emit zoomRequested(std::pow(1.25, steps), toImage(at), at - viewArea().center());
  event->accept();
}

void ZoomImagePane::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || image().isNull()) return QWidget::mousePressEvent(event);
  dragging_ = true;
  lastDrag_ = event->position();
  setCursor(Qt::ClosedHandCursor);
}

void ZoomImagePane::mouseMoveEvent(QMouseEvent* event) {
  if (dragging_) {
    const QPointF delta = event->position() - lastDrag_;
    lastDrag_ = event->position();
    if (!delta.isNull()) emit panRequested(-delta / scale());
  }
  reportHover(event->position());
}

void ZoomImagePane::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(event);
  dragging_ = false;
  setCursor(Qt::CrossCursor);
}

void ZoomImagePane::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) emit fitRequested();
}

void ZoomImagePane::leaveEvent(QEvent* event) {
  emit hovered(QPoint(-1, -1));
  QWidget::leaveEvent(event);
}

void ZoomImagePane::reportHover(const QPointF& widgetPoint) {
  if (image().isNull() || !viewArea().contains(widgetPoint)) {
    emit hovered(QPoint(-1, -1));
    return;
  }
  const QPointF ip = toImage(widgetPoint);
  const QPoint pixel(int(std::floor(ip.x())), int(std::floor(ip.y())));
  emit hovered(image().rect().contains(pixel) ? pixel : QPoint(-1, -1));
}

}  // namespace adala::widgets
