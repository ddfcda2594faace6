#include "widgets/common/query_marker.h"

#include <QPainter>

#include <algorithm>
#include <utility>

namespace adala::widgets {

void drawQueryMarker(QPainter& p, const QRectF& cell) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  p.setBrush(Qt::NoBrush);
  const bool square = std::min(cell.width(), cell.height()) >= 10;
  const QPointF c = cell.center();
  for (const auto& [color, width] :
       {std::pair{QColor(Qt::black), 3.0}, std::pair{QColor(Qt::white), 1.5}}) {
    p.setPen(QPen(color, width));
    if (square) {
      p.drawRect(cell.adjusted(-1, -1, 1, 1));
      continue;
    }
    p.drawEllipse(c, 9.0, 9.0);
    p.drawLine(QPointF(c.x() - 16, c.y()), QPointF(c.x() - 10, c.y()));
    p.drawLine(QPointF(c.x() + 10, c.y()), QPointF(c.x() + 16, c.y()));
    p.drawLine(QPointF(c.x(), c.y() - 16), QPointF(c.x(), c.y() - 10));
    p.drawLine(QPointF(c.x(), c.y() + 10), QPointF(c.x(), c.y() + 16));
  }
  p.restore();
}

}  // namespace adala::widgets
