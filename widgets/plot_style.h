#pragma once
// Shared QCustomPlot styling: every plot in the workbench follows the widget palette.
#include <QFont>
#include <QPalette>

class QCustomPlot;
class QCPTextElement;

namespace adala::widgets {

// The title element in the plot layout's first cell, or nullptr when the plot has none.
QCPTextElement* plotTitle(QCustomPlot* plot);

// Background, axes, grid, legend and title coloured from `palette`; the legend in a slightly
// smaller version of `font`.
void applyPlotPalette(QCustomPlot* plot, const QPalette& palette, const QFont& font);

}  // namespace adala::widgets
