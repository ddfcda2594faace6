#include "widgets/common/plot_legend.h"

#include <qcustomplot.h>

namespace adala::widgets {

void placeLegendOutside(QCustomPlot* plot, LegendPlace place) {
  QCPLayoutGrid* layout = plot->plotLayout();
  QCPAxisRect* rect = plot->axisRect();
  int row = 0, column = 0;
  for (int r = 0; r < layout->rowCount(); ++r)
    for (int c = 0; c < layout->columnCount(); ++c)
      if (layout->element(r, c) == rect) {
        row = r;
        column = c;
      }
  rect->insetLayout()->take(plot->legend);
  rect->insetLayout()->simplify();
  if (place == LegendPlace::Right) {
    // The legend at the top of a cell beside the axes; an empty element under it takes the
    // rest of the height, so the entries keep their natural spacing.
    auto* cell = new QCPLayoutGrid;
    layout->addElement(row, column + 1, cell);
    cell->addElement(0, 0, plot->legend);
    cell->addElement(1, 0, new QCPLayoutGrid);
    cell->setRowStretchFactors({0.001, 1.0});
    cell->setRowSpacing(0);
    cell->setMargins(QMargins(0, 0, 4, 0));
    layout->setColumnStretchFactor(column + 1, 0.001);
  } else {
    layout->addElement(row + 1, column, plot->legend);
    layout->setRowStretchFactor(row + 1, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(4);
  }
  plot->legend->setMargins(QMargins(4, 2, 4, 2));
}

void updateLegendItemColors(QCustomPlot* plot) {
  const QColor text = plot->legend->textColor();
  QColor dim = text;
  dim.setAlphaF(0.35);
  for (int i = 0; i < plot->legend->itemCount(); ++i)
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
      item->setTextColor(item->plottable()->visible() ? text : dim);
}

void enableLegendToggle(QCustomPlot* plot, std::function<void(QCPAbstractPlottable*)> toggled) {
  QObject::connect(plot, &QCustomPlot::legendClick, plot,
                   [plot, toggled](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
                     auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
                     if (!entry) return;
                     entry->plottable()->setVisible(!entry->plottable()->visible());
                     updateLegendItemColors(plot);
                     plot->replot(QCustomPlot::rpQueuedReplot);
                     if (toggled) toggled(entry->plottable());
                   });
}

}  // namespace adala::widgets
