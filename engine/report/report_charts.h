#pragma once
// Report charts drawn by QCustomPlot off screen, at print resolution, into QImages.
// Needs a QApplication (QCustomPlot is a QWidget); the widget is never shown, so the
// "offscreen" platform works (adala report sets it when QT_QPA_PLATFORM is unset).
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QVector>

namespace adala::report {

struct ChartSeries {
  QString name;
  QVector<double> x, y;
};

struct LineChart {
  QString title, x_label, y_label;
  bool log_y = false;  // non-positive values are left out on a log axis
  QVector<ChartSeries> series;
  bool x_log = false;
};

struct BarChart {
  QString title, x_label, y_label;
  QStringList categories;          // along x
  QVector<ChartSeries> groups;     // one bar per category and group (y: one value per category)
  bool percent = false;            // y values in [0, 1] shown as percent
  bool log_y = false;
  bool value_labels = true;        // the value above each bar (when there are few bars)
};

struct ChartStyle {
  QSize size{660, 360};  // logical pixels (96 dpi): the size the document shows it at
  double scale = 3.0;    // device pixels per logical pixel (3: about 300 dpi in print)
};

QImage render_line_chart(const LineChart& chart, const ChartStyle& style = {});
QImage render_bar_chart(const BarChart& chart, const ChartStyle& style = {});
// Several line charts in a grid (e.g. one loss curve per stage), `columns` wide.
QImage render_line_chart_grid(const QVector<LineChart>& charts, int columns, const ChartStyle& style = {});

}  // namespace adala::report
