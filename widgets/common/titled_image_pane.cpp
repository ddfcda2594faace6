#include "widgets/common/titled_image_pane.h"

#include <QPainter>

#include <algorithm>

namespace adala::widgets {

TitledImagePane::TitledImagePane(const QString& title, int titleHeight, QWidget* parent)
    : QWidget(parent), title_(title), titleHeight_(titleHeight) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setCursor(Qt::CrossCursor);
}

void TitledImagePane::setTitle(const QString& title) {
  title_ = title;
  update();
}

void TitledImagePane::setImage(const QImage& image) {
  image_ = image;
  update();
}

QRectF TitledImagePane::viewArea() const {
  return QRectF(0, titleHeight_, width(), std::max(0, height() - titleHeight_));
}

double TitledImagePane::fitScale() const {
  const QRectF area = viewArea();
  if (image_.isNull() || area.isEmpty()) return 1.0;
  return std::min(area.width() / image_.width(), area.height() / image_.height());
}

void TitledImagePane::drawTitle(QPainter& p, const QColor& color) const {
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(color);
  const QRect titleRect(4, 0, width() - 8, titleHeight_);
  p.drawText(titleRect, Qt::AlignVCenter | Qt::AlignLeft,
             QFontMetrics(bold).elidedText(title_, Qt::ElideRight, titleRect.width()));
  p.setFont(font());
}

void TitledImagePane::drawPlaceholder(QPainter& p, const QString& text) const {
  p.setPen(palette().color(QPalette::PlaceholderText));
  p.drawText(viewArea(), Qt::AlignCenter | Qt::TextWordWrap, text);
}

}  // namespace adala::widgets
