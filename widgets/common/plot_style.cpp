#include "widgets/common/plot_style.h"

#include <algorithm>

#include <qcustomplot.h>

#include "engine/report/chart_palette.h"

namespace adala::widgets {

namespace {
QColor toQColor(report::Rgb c) { return QColor(c.r, c.g, c.b); }
}  // namespace

QColor seriesColor(int index) {
  return toQColor(report::palette_color(size_t(index < 0 ? -index : index)));
}

QColor modeColor(const QString& mode) { return toQColor(report::mode_color(mode.toStdString())); }

QCPTextElement* plotTitle(QCustomPlot* plot) {
  return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
}

void applyPlotPalette(QCustomPlot* plot, const QPalette& pal, const QFont& font) {
  const QColor text = pal.color(QPalette::Text);
  const QColor grid = pal.color(QPalette::Mid);
  plot->setBackground(pal.color(QPalette::Base));
  plot->axisRect()->setBackground(pal.color(QPalette::Base));
  for (auto* axis : {plot->xAxis, plot->yAxis}) {
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setLabelColor(text);
    axis->setTickLabelColor(text);
    axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
    axis->grid()->setSubGridVisible(false);
  }
  plot->legend->setBrush(pal.color(QPalette::Base));
  plot->legend->setBorderPen(QPen(grid));
  plot->legend->setTextColor(text);
  QFont legendFont = font;
  legendFont.setPointSizeF(std::max(6.0, legendFont.pointSizeF() * 0.85));
  plot->legend->setFont(legendFont);
  if (auto* title = plotTitle(plot)) title->setTextColor(text);
}

}  // namespace adala::widgets
