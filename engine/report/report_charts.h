#pragma once
// Report charts as specifications: what to draw (titles, axes, log scales, series with their
// points and colours, bars), not how. The application draws them (QCustomPlot, see
// app/report_render/chart_render.h) into PNGs at print resolution.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/report/chart_palette.h"

namespace adala::report {

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;
  Rgb color;
};

struct LineChart {
  std::string title, x_label, y_label;
  bool log_y = false;  // non-positive values are left out on a log axis
  std::vector<ChartSeries> series;
  bool x_log = false;
};

struct BarChart {
  std::string title, x_label, y_label;
  std::vector<std::string> categories;  // along x
  std::vector<ChartSeries> groups;  // one bar per category and group (y: one value per category)
  bool percent = false;             // y values in [0, 1] shown as percent
  bool log_y = false;
  bool value_labels = true;  // the value above each bar (when there are few bars)
};

struct Size {
  int width = 0, height = 0;
  bool empty() const { return width <= 0 || height <= 0; }
  bool operator==(const Size& o) const { return width == o.width && height == o.height; }
};

struct ChartStyle {
  Size size{660, 360};  // logical pixels (96 dpi): the size the document shows it at
  double scale = 3.0;   // device pixels per logical pixel (3: about 300 dpi in print)
};

// One chart figure: line charts in a grid (`columns` wide; one chart: columns = 1), or a bar chart.
struct ChartSpec {
  enum class Kind { Lines, Bars };
  Kind kind = Kind::Lines;
  std::vector<LineChart> panels;
  int columns = 1;
  BarChart bars;
  ChartStyle style;
};

}  // namespace adala::report
