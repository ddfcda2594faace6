#include "widgets/common/image_pane.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <utility>

#include "widgets/common/query_marker.h"

namespace adala::widgets {

namespace {
constexpr int kTitleHeight = 20;
constexpr int kStripHeight = 10;      // the colour strip
constexpr int kPaneStripFooter = 32;  // the strip, its ticks and labels
}  // namespace

ImagePane::ImagePane(const QString& title, QWidget* parent)
    : TitledImagePane(title, kTitleHeight, parent) {
  setFocusPolicy(Qt::ClickFocus);
}

void ImagePane::setHighlight(const QRect& imageRect) {
  highlight_ = imageRect;
  update();
}

void ImagePane::setContentRect(const QRect& imageRect) {
  content_ = imageRect;
  update();
}

void ImagePane::setScaleStrip(Colormap map, const QVector<ScaleTick>& ticks) {
  map_ = map;
  ticks_ = ticks;
  update();
}

QRectF ImagePane::imageRectInWidget() const {
  QRectF area = viewArea();
  if (!ticks_.isEmpty()) area.setBottom(area.bottom() - kPaneStripFooter);
  if (image().isNull() || area.width() <= 0 || area.height() <= 0) return area;
  const double scale = std::min(area.width() / image().width(), area.height() / image().height());
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
  if (!content_.isEmpty() && content_ != image().rect()) {
    const QRectF box(toWidget(content_.topLeft()),
                     toWidget(content_.topLeft() + QPoint(content_.width(), content_.height())));
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::black, 1));
    p.drawRect(box);
    p.setPen(QPen(Qt::white, 1, Qt::DashLine));
    p.drawRect(box);
  }
  drawScaleStrip(p);
  if (!highlight_.isEmpty()) {
    const QRectF cell(
        toWidget(highlight_.topLeft()),
        toWidget(highlight_.topLeft() + QPoint(highlight_.width(), highlight_.height())));
    drawQueryMarker(p, cell);
  }
}

QRectF ImagePane::scaleStripRect() const {
  if (ticks_.isEmpty() || image().isNull()) return {};
  const QRectF img = imageRectInWidget();
  // At least 160 pixels wide (a tall, narrow image), centred under it.
  const double w = std::min(double(width() - 16), std::max(img.width(), 160.0));
  return QRectF(img.center().x() - w / 2, img.bottom() + 4, w, kStripHeight);
}

void ImagePane::drawScaleStrip(QPainter& p) const {
  const QRectF strip = scaleStripRect();
  if (strip.isEmpty()) return;
  p.save();
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
  p.setFont(small);
  widgets::drawScaleStrip(p, strip, map_, ticks_, palette().color(QPalette::Text), 1.0,
                          width() - 1.0);
  p.restore();
}

void ImagePane::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || image().isNull()) return QWidget::mousePressEvent(event);
  const QPointF ip = toImage(event->position());
  if (ip.x() < 0 || ip.y() < 0 || ip.x() >= image().width() || ip.y() >= image().height()) return;
  emit clicked(ip);
}

}  // namespace adala::widgets
