#pragma once
// Draws the report's chart specifications (engine/report/report_charts.h) with QCustomPlot,
// off screen, at print resolution, into QImages. Needs a QApplication (QCustomPlot is a
// QWidget); the widget is never shown, so the "offscreen" platform works (adala report sets
// it when QT_QPA_PLATFORM is unset).
#include <QImage>

#include "engine/report/report_charts.h"
#include "engine/report/report_document.h"

namespace adala::report_render {

QImage render_chart(const report::ChartSpec& chart);
// A figure as an image: its chart drawn, or its picture file read (null when unreadable).
QImage figure_image(const report::ReportFigure& figure);

}  // namespace adala::report_render
