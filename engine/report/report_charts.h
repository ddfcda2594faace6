#pragma once
// Report charts as specifications: what to draw (titles, axes, log scales, series with their
// points and colours, bars), not how. The application draws them (QCustomPlot, see
// app/report_render/chart_render.h) into PNGs at print resolution.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "engine/report/chart_palette.h"

namespace adala::report {

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;
  Rgb color;
  // How the points are joined: a line through them in x order, steps (each point's y held
  // until the next point's x: a frontier), or not at all (markers only).
  enum class Style { Line, Steps, Points };
  Style style = Style::Line;
  std::vector<std::string> labels;  // written next to the points (one per point; may be empty)
};

struct LineChart {
  std::string title, x_label, y_label;
  bool log_y = false;  // non-positive values are left out on a log axis
  std::vector<ChartSeries> series;
  bool x_log = false;
};

// A bar chart's value axis, in the units of the values.
struct AxisRange {
  double lower = 0, upper = 1;
  bool from_zero() const { return std::fpclassify(lower) == FP_ZERO; }
};

// The value axis for bars of these values (non-finite ones left out). From 0 where that
// shows their differences; where they differ by little against their height (a one-point
// gap between 88% and 89%) it starts a bit below the smallest and ends a bit above the
// largest, at round numbers, so the difference is visible. Never below 0.
AxisRange bar_value_range(const std::vector<double>& values);

struct BarChart {
  std::string title, x_label, y_label;
  std::vector<std::string> categories;  // along x
  std::vector<ChartSeries> groups;  // one bar per category and group (y: one value per category)
  bool percent = false;             // y values in [0, 1] shown as percent
  bool log_y = false;
  bool value_labels = true;  // the value above each bar (when there are few bars)
  // A linear axis set by the document (bar_value_range, in the units of y); automatic when
  // not set. One that does not start at 0 is drawn with a break mark at its foot.
  bool y_range_set = false;
  AxisRange y_range;
  // A dashed line across the bars at this value (e.g. the teacher's accuracy); NaN: none.
  double reference = std::numeric_limits<double>::quiet_NaN();
  std::string note;  // written over the bars, in the upper left corner ("gap −0.99 pt")
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
