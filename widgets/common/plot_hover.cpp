#include "widgets/common/plot_hover.h"

#include <QMouseEvent>
#include <QToolTip>

#include <cmath>
#include <limits>

#include <qcustomplot.h>

namespace adala::widgets {

PlotHover::PlotHover(QCustomPlot* plot, KeyText keyText)
    : QObject(plot), plot_(plot), keyText_(std::move(keyText)) {
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseMove, this, &PlotHover::onMouseMove);
}

QString PlotHover::valueText(double value) { return QString::number(value, 'g', 6); }

QString PlotHover::textAt(const QPointF& pixel, double radius) const {
  const QCPGraph* best = nullptr;
  double bestKey = 0, bestValue = 0, bestDistance = radius * radius;
  for (int i = 0; i < plot_->graphCount(); ++i) {
    const QCPGraph* graph = plot_->graph(i);
    if (!graph->visible() || graph->data()->isEmpty()) continue;
    if (!graph->keyAxis()
             ->axisRect()
             ->rect()
             .adjusted(-radius, -radius, radius, radius)
             .contains(pixel.toPoint()))
      continue;
    // Only the points whose key lies within `radius` pixels of the mouse.
    const QCPAxis* keyAxis = graph->keyAxis();
    double k0 = keyAxis->pixelToCoord(pixel.x() - radius);
    double k1 = keyAxis->pixelToCoord(pixel.x() + radius);
    if (k0 > k1) std::swap(k0, k1);
    const auto end = graph->data()->findEnd(k1);
    for (auto it = graph->data()->findBegin(k0); it != end; ++it) {
      if (!std::isfinite(it->value)) continue;
      const QPointF p = graph->coordsToPixels(it->key, it->value);
      const double d = std::pow(p.x() - pixel.x(), 2) + std::pow(p.y() - pixel.y(), 2);
      if (d <= bestDistance) {
        bestDistance = d;
        best = graph;
        bestKey = it->key;
        bestValue = it->value;
      }
    }
  }
  if (!best) return QString();
  const QString key = keyText_ ? keyText_(bestKey) : QString::number(bestKey, 'g', 6);
  return tr("%1\n%2\nvalue %3%4").arg(best->name(), key, valueText(bestValue), valueNote_);
}

void PlotHover::onMouseMove(QMouseEvent* event) {
  if (event->buttons() != Qt::NoButton) return;  // dragging the plot
  last_ = textAt(event->position());
  if (last_.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), last_, plot_);
}

}  // namespace adala::widgets
