#pragma once
// Shared QCustomPlot styling: every plot in the workbench follows the widget palette.
#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>

class QCustomPlot;
class QCPTextElement;

namespace adala::widgets {

// The title element in the plot layout's first cell, or nullptr when the plot has none.
QCPTextElement* plotTitle(QCustomPlot* plot);

// Series colours, the same as the reports' (engine/report/chart_palette.h): series i of a
// plot (block i, run i), and the colour of an attention mode or model role ("softmax",
// "linear", "softmax-chunked", "teacher", "student").
QColor seriesColor(int index);
QColor modeColor(const QString& mode);

// Background, axes, grid, legend and title coloured from `palette`; the legend in a slightly
// smaller version of `font`.
void applyPlotPalette(QCustomPlot* plot, const QPalette& palette, const QFont& font);

}  // namespace adala::widgets
