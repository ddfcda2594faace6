#include "app/report_render/chart_render.h"
#include "app/report_render/qt_text.h"

#include <QApplication>
#include <QImageReader>
#include <QLocale>
#include <QPixmap>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/common/log_axis_ticker.h"

namespace adala::report_render {

using report::BarChart;
using report::ChartSpec;
using report::ChartStyle;
using report::LineChart;

namespace {

QColor qcolor(report::Rgb c) { return QColor(c.r, c.g, c.b); }
QSize qsize(report::Size s) { return QSize(s.width, s.height); }

QFont base_font(double point_size, bool bold = false) {
  QFont f = QApplication::font();
  f.setPointSizeF(point_size);
  f.setBold(bold);
  return f;
}

void style_axis(QCPAxis* axis) {
  axis->setTickLabelFont(base_font(8));
  axis->setLabelFont(base_font(8.5));
  axis->setBasePen(QPen(QColor(90, 90, 90), 1));
  axis->setTickPen(QPen(QColor(90, 90, 90), 1));
  axis->setSubTickPen(QPen(QColor(140, 140, 140), 1));
  axis->grid()->setPen(QPen(QColor(225, 225, 225), 1, Qt::SolidLine));
  axis->grid()->setSubGridPen(QPen(QColor(240, 240, 240), 1, Qt::DotLine));
}

// Log axes as the workbench draws them: a labelled tick at every decade, 2x and 5x sub-ticks.
void make_log(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  axis->setTicker(QSharedPointer<widgets::LogAxisTicker>::create());
  axis->setNumberFormat(QStringLiteral("gb"));  // "1e-05" drawn as 10 to the power
  axis->setNumberPrecision(3);
  axis->grid()->setSubGridVisible(true);
}

// Pads a range so curves do not touch the frame.
void pad_range(QCPAxis* axis, bool log) {
  QCPRange r = axis->range();
  if (log) {
    if (r.lower <= 0 || r.upper <= 0) return;
    if (r.upper / r.lower < 1.5)
      r = QCPRange(r.lower / 1.25, r.upper * 1.25);
    else
      r = QCPRange(r.lower / 1.15, r.upper * 1.15);
  } else {
    double span = r.upper - r.lower;
    if (span <= 0) span = std::max(std::abs(r.upper), 1.0) * 0.1;
    r = QCPRange(r.lower - 0.03 * span, r.upper + 0.03 * span);
  }
  axis->setRange(r);
}

const QColor kNoteColor(150, 30, 30);

// The mark of a value axis that does not start at 0: two slanted strokes across the axis line
// near its foot, the line cut between them. Needs the plot laid out (replotted) first.
void add_axis_break(QCustomPlot& plot, const QCPAxisRect* rect) {
  const double x = rect->left(), y = rect->bottom() - 12;
  auto* gap = new QCPItemRect(&plot);
  gap->setLayer(QStringLiteral("overlay"));
  gap->setClipToAxisRect(false);
  gap->setPen(Qt::NoPen);
  gap->setBrush(Qt::white);
  gap->topLeft->setType(QCPItemPosition::ptAbsolute);
  gap->bottomRight->setType(QCPItemPosition::ptAbsolute);
  gap->topLeft->setCoords(x - 2, y - 3);
  gap->bottomRight->setCoords(x + 2, y + 3);
  for (double dy : {-3.0, 3.0}) {
    auto* stroke = new QCPItemLine(&plot);
    stroke->setLayer(QStringLiteral("overlay"));
    stroke->setClipToAxisRect(false);
    stroke->setPen(QPen(QColor(90, 90, 90), 1.2));
    stroke->start->setType(QCPItemPosition::ptAbsolute);
    stroke->end->setType(QCPItemPosition::ptAbsolute);
    stroke->start->setCoords(x - 6, y + dy + 2.5);
    stroke->end->setCoords(x + 6, y + dy - 2.5);
  }
}

// A hidden widget gets no resize events: the plot's viewport is set directly.
void set_size(QCustomPlot& plot, const ChartStyle& style) {
  plot.resize(qsize(style.size));
  plot.setViewport(QRect(QPoint(0, 0), qsize(style.size)));
}

QImage finish(QCustomPlot& plot, const ChartStyle& style) {
  set_size(plot, style);
  plot.replot(QCustomPlot::rpImmediateRefresh);
  const QPixmap pixmap = plot.toPixmap(style.size.width, style.size.height, style.scale);
  return pixmap.toImage().convertToFormat(QImage::Format_RGB32);
}

void add_title(QCustomPlot& plot, int row, int column, const std::string& title) {
  if (title.empty()) return;
  auto* text = new QCPTextElement(&plot, qs(title), base_font(9.5, true));
  text->setMargins(QMargins(0, 4, 0, 0));
  plot.plotLayout()->addElement(row, column, text);
}

// The legend of the graphs on `x`, in the layout cell under their axes (never on the data),
// wrapped `wrap` entries a row.
void add_legend(QCustomPlot& plot, int row, int column, const QCPAxis* x, int wrap) {
  auto* legend = new QCPLegend;
  plot.plotLayout()->addElement(row, column, legend);
  legend->setLayer(QStringLiteral("legend"));
  legend->setFont(base_font(7.5));
  legend->setBrush(Qt::NoBrush);
  legend->setBorderPen(Qt::NoPen);
  legend->setIconSize(QSize(18, 10));
  legend->setMargins(QMargins(4, 0, 4, 2));
  for (int i = 0; i < plot.graphCount(); ++i)
    if (plot.graph(i)->keyAxis() == x) plot.graph(i)->addToLegend(legend);
  legend->setWrap(wrap);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
}

// One series of `chart` as a graph on x / y; its points' labels are appended to `texts`.
// Returns whether it has a point to draw.
bool add_line_series(QCustomPlot& plot, QCPAxisRect* rect, const LineChart& chart,
                     const report::ChartSeries& s, QVector<QCPItemText*>& texts) {
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  QVector<double> xs, ys;
  QStringList labels;
  for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
    if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
    if (chart.log_y && s.y[i] <= 0) continue;
    if (chart.x_log && s.x[i] <= 0) continue;
    xs << s.x[i];
    ys << s.y[i];
    labels << (i < s.labels.size() ? qs(s.labels[i]) : QString());
  }
  QCPGraph* g = plot.addGraph(x, y);
  g->setName(qs(s.name));
  g->setPen(QPen(qcolor(s.color), 1.6));
  g->setData(xs, ys, true);
  if (s.style == report::ChartSeries::Style::Steps) g->setLineStyle(QCPGraph::lsStepLeft);
  if (s.style == report::ChartSeries::Style::Points) {
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
  } else if (xs.size() <= 12) {
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
  }
  for (int i = 0; i < labels.size(); ++i) {  // a point's label above it, a little to the right
    if (labels[i].isEmpty()) continue;
    auto* text = new QCPItemText(&plot);
    text->setClipAxisRect(rect);
    text->position->setAxes(x, y);
    text->position->setCoords(xs[i], ys[i]);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    text->setPadding(QMargins(4, 0, 0, 3));
    text->setFont(base_font(7));
    text->setColor(QColor(60, 60, 60));
    text->setText(labels[i]);
    texts << text;
  }
  return !xs.isEmpty();
}

// The axes' ranges from the graphs on x, padded; labels of points in the right half then go
// to their left, so that they stay in the frame.
void fit_line_ranges(QCustomPlot& plot, QCPAxis* x, QCPAxis* y, const LineChart& chart,
                     const QVector<QCPItemText*>& texts) {
  bool found = false;
  QCPRange kr, vr;
  for (int i = 0; i < plot.graphCount(); ++i) {
    QCPGraph* g = plot.graph(i);
    if (g->keyAxis() != x) continue;
    bool f1 = false, f2 = false;
    const QCPRange k = g->getKeyRange(f1, chart.x_log ? QCP::sdPositive : QCP::sdBoth);
    const QCPRange v = g->getValueRange(f2, chart.log_y ? QCP::sdPositive : QCP::sdBoth);
    if (!f1 || !f2) continue;
    if (!found) {
      kr = k;
      vr = v;
      found = true;
    } else {
      kr.expand(k);
      vr.expand(v);
    }
  }
  if (!found) return;
  if (kr.lower == kr.upper) kr = QCPRange(kr.lower - 1, kr.upper + 1);
  const bool log_y = y->scaleType() == QCPAxis::stLogarithmic;
  x->setRange(kr);
  y->setRange(vr);
  pad_range(y, log_y);
  pad_range(x, chart.x_log);  // markers at the ends stay whole
  const QCPRange shown = x->range();
  const double middle =
      chart.x_log ? std::sqrt(shown.lower * shown.upper) : (shown.lower + shown.upper) / 2;
  for (QCPItemText* text : texts)
    if (text->position->key() > middle) {
      text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
      text->setPadding(QMargins(0, 0, 4, 3));
    }
}

// Draws one LineChart into an axis rect; returns whether anything was drawn.
bool fill_axis_rect(QCustomPlot& plot, QCPAxisRect* rect, const LineChart& chart) {
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  style_axis(x);
  style_axis(y);
  x->setLabel(qs(chart.x_label));
  y->setLabel(qs(chart.y_label));
  if (chart.log_y) make_log(y);
  if (chart.x_log) make_log(x);
  bool any = false;
  QVector<QCPItemText*> texts;
  for (const auto& s : chart.series) {
    const bool drawn = add_line_series(plot, rect, chart, s, texts);
    any = any || drawn;
  }
  if (any) fit_line_ranges(plot, x, y, chart, texts);
  return any;
}

QImage render_line_chart_grid(const std::vector<LineChart>& charts, int columns,
                              const ChartStyle& style) {
  QCustomPlot plot;
  plot.setAttribute(Qt::WA_DontShowOnScreen);
  plot.setAntialiasedElements(QCP::aeAll);
  plot.setAutoAddPlottableToLegend(false);  // every panel has its own legend
  plot.plotLayout()->clear();
  columns = std::max(1, std::min(columns, int(charts.size())));
  for (int i = 0; i < int(charts.size()); ++i) {
    const int r = i / columns, c = i % columns;
    auto* rect = new QCPAxisRect(&plot);
    add_title(plot, 3 * r, c, charts[i].title);
    plot.plotLayout()->addElement(3 * r + 1, c, rect);
    for (QCPAxis* axis : rect->axes()) axis->setLayer(QStringLiteral("axes"));
    fill_axis_rect(plot, rect, charts[size_t(i)]);
    if (charts[size_t(i)].series.size() > 1)
      add_legend(plot, 3 * r + 2, c, rect->axis(QCPAxis::atBottom), columns == 1 ? 6 : 2);
  }
  // Title and legend rows keep their natural height.
  for (int r = 0; r < plot.plotLayout()->rowCount(); ++r)
    if (r % 3 != 1) plot.plotLayout()->setRowStretchFactor(r, 0.001);
  return finish(plot, style);
}

// The categories as the x axis's labelled ticks, at 1, 2, ...
void set_category_axis(QCPAxis* x, const BarChart& chart) {
  QVector<double> ticks;
  QVector<QString> labels;
  for (size_t i = 0; i < chart.categories.size(); ++i) {
    ticks << double(i + 1);
    labels << qs(chart.categories[i]);
  }
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  ticker->addTicks(ticks, labels);
  x->setTicker(ticker);
  x->setTickLength(0, 3);
  x->setRange(0.4, double(chart.categories.size()) + 0.6);
}

// The bars of every group, and the highest and lowest value drawn.
struct BarSeries {
  QVector<QCPBars*> bars;
  double top = 0, low = std::numeric_limits<double>::infinity();
};

BarSeries add_bar_groups(QCustomPlot& plot, QCPAxis* x, QCPAxis* y, const BarChart& chart) {
  const int groups = std::max(1, int(chart.groups.size()));
  auto* group = new QCPBarsGroup(&plot);
  group->setSpacingType(QCPBarsGroup::stAbsolute);
  group->setSpacing(2);
  BarSeries series;
  for (size_t g = 0; g < chart.groups.size(); ++g) {
    auto* bars = new QCPBars(x, y);
    bars->setName(qs(chart.groups[g].name));
    bars->setWidth(std::min(0.8 / groups, 0.35));
    const QColor color = qcolor(chart.groups[g].color);
    bars->setPen(QPen(color.darker(130), 1));
    bars->setBrush(color);
    QVector<double> keys, values;
    for (size_t i = 0; i < chart.categories.size() && i < chart.groups[g].y.size(); ++i) {
      double v = chart.groups[g].y[i];
      if (!std::isfinite(v)) continue;
      if (chart.percent) v *= 100.0;
      if (chart.log_y && v <= 0) continue;
      keys << double(i + 1);
      values << v;
      series.top = std::max(series.top, v);
      series.low = std::min(series.low, v);
    }
    bars->setData(keys, values, true);
    if (groups > 1) bars->setBarsGroup(group);
    if (chart.log_y) bars->setBaseValue(std::isfinite(series.low) ? series.low / 10 : 1e-6);
    series.bars << bars;
  }
  return series;
}

void set_bar_value_range(QCPAxis* y, const BarChart& chart, const BarSeries& series, double unit) {
  if (chart.log_y) {
    const double lo = std::isfinite(series.low) ? series.low : 1e-6;
    y->setRange(lo / 2.0, std::max(series.top, lo) * 2.0);
  } else if (chart.y_range_set) {
    // The bars still start at 0 (a base value would be added to them): the axis cuts them.
    y->setRange(chart.y_range.lower * unit, chart.y_range.upper * unit);
  } else {
    y->setRange(0, series.top > 0 ? series.top * 1.15 : 1.0);
  }
}

void add_reference_line(QCustomPlot& plot, double reference) {
  auto* line = new QCPItemStraightLine(&plot);
  line->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
  line->point1->setCoords(0, reference);
  line->point2->setCoords(1, reference);
}

// The chart's note in a row of its own, under the title.
void add_note_row(QCustomPlot& plot, const BarChart& chart) {
  auto* note = new QCPTextElement(&plot, qs(chart.note), base_font(8.5, true));
  note->setTextColor(kNoteColor);
  note->setMargins(QMargins(0, 0, 0, 2));
  const int row = chart.title.empty() ? 0 : 1;
  plot.plotLayout()->insertRow(row);
  plot.plotLayout()->addElement(row, 0, note);
}

// The legend in a row under the axes, never on the bars.
void move_legend_below(QCustomPlot& plot) {
  plot.legend->setVisible(true);
  plot.legend->setFont(base_font(7.5));
  plot.legend->setBrush(Qt::NoBrush);
  plot.legend->setBorderPen(Qt::NoPen);
  plot.legend->setIconSize(QSize(14, 10));
  plot.axisRect()->insetLayout()->take(plot.legend);
  plot.axisRect()->insetLayout()->simplify();
  const int row = plot.plotLayout()->rowCount();
  plot.plotLayout()->addElement(row, 0, plot.legend);
  plot.plotLayout()->setRowStretchFactor(row, 0.001);
  plot.legend->setWrap(6);
  plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
}

// From the reference down (or up) to the last bar's top, beside the bar, labelled with the
// note. Needs the plot laid out first.
void add_gap_arrow(QCustomPlot& plot, const QCPBars* bars, double reference,
                   const std::string& note) {
  const QCPAxis* x = bars->keyAxis();
  const QCPAxis* y = bars->valueAxis();
  const int last = bars->data()->size() - 1;
  const QPointF tip = bars->dataPixelPosition(last);
  const double key = (bars->data()->constBegin() + last)->key;
  const double half = std::abs(x->coordToPixel(key + bars->width() / 2) - x->coordToPixel(key));
  const QPointF top_end(tip.x() + half + 8, y->coordToPixel(reference));
  const QPointF bottom_end(top_end.x(), tip.y());
  auto* arrow = new QCPItemLine(&plot);
  arrow->setClipToAxisRect(false);
  arrow->setPen(QPen(kNoteColor, 1.2));
  arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 6, 7));
  arrow->setTail(QCPLineEnding(QCPLineEnding::esSpikeArrow, 6, 7));
  arrow->start->setType(QCPItemPosition::ptAbsolute);
  arrow->end->setType(QCPItemPosition::ptAbsolute);
  arrow->start->setCoords(top_end);
  arrow->end->setCoords(bottom_end);
  if (note.empty()) return;
  auto* label = new QCPItemText(&plot);
  label->setClipToAxisRect(false);
  label->position->setType(QCPItemPosition::ptAbsolute);
  label->position->setCoords(top_end.x() + 5, (top_end.y() + bottom_end.y()) / 2);
  label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  label->setFont(base_font(8.5, true));
  label->setColor(kNoteColor);
  label->setText(qs(note));
}

// Each bar's value on top of it. Needs the plot laid out first.
void add_value_labels(QCustomPlot& plot, const QVector<QCPBars*>& all_bars, bool percent,
                      bool zoomed) {
  QLocale locale;
  for (QCPBars* bars : all_bars) {
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
      const QPointF tip = bars->dataPixelPosition(int(it - bars->data()->constBegin()));
      auto* label = new QCPItemText(&plot);
      label->setClipToAxisRect(false);
      label->position->setType(QCPItemPosition::ptAbsolute);
      label->position->setCoords(tip.x(), tip.y() - 2);
      label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
      label->setFont(base_font(7));
      label->setColor(QColor(60, 60, 60));
      const double v = it->value;
      // On a cut axis the bars' difference is small: as many decimals as the tables give.
      label->setText(percent
                         ? locale.toString(v, 'f', zoomed ? 2 : 1)
                         : (std::abs(v) >= 1e-4 && std::abs(v) < 1e5 ? locale.toString(v, 'g', 3)
                                                                     : locale.toString(v, 'e', 1)));
    }
  }
}

QImage render_bar_chart(const BarChart& chart, const ChartStyle& style) {
  QCustomPlot plot;
  plot.setAttribute(Qt::WA_DontShowOnScreen);
  plot.setAntialiasedElements(QCP::aeAll);
  if (!chart.title.empty()) {
    plot.plotLayout()->insertRow(0);
    add_title(plot, 0, 0, chart.title);
  }
  QCPAxis* x = plot.xAxis;
  QCPAxis* y = plot.yAxis;
  style_axis(x);
  style_axis(y);
  x->grid()->setVisible(false);
  x->setLabel(qs(chart.x_label));
  y->setLabel(qs(chart.y_label));
  if (chart.log_y) make_log(y);
  set_category_axis(x, chart);

  const BarSeries series = add_bar_groups(plot, x, y, chart);
  int bar_count = 0;
  for (auto* b : series.bars) bar_count += b->data()->size();
  // Labels only where they fit: few bars, and short numbers or a single group. They go on top
  // of the bars once the range is set (below) and the bars know where they are.
  const bool label_bars =
      chart.value_labels && bar_count <= 12 && (chart.percent || chart.groups.size() == 1);
  const double unit = chart.percent ? 100.0 : 1.0;
  const bool zoomed = !chart.log_y && chart.y_range_set && !chart.y_range.from_zero();
  set_bar_value_range(y, chart, series, unit);
  const double reference = chart.reference * unit;
  const bool gap_arrow = std::isfinite(reference) && !series.bars.isEmpty() &&
                         !series.bars.front()->data()->isEmpty() && !chart.log_y;
  if (gap_arrow) add_reference_line(plot, reference);
  if (!chart.note.empty() && !gap_arrow) add_note_row(plot, chart);
  // Everything that takes room in the layout comes before it is laid out (below), so that the
  // items placed in pixels after it stay where they belong.
  if (chart.groups.size() > 1) move_legend_below(plot);
  if (label_bars || zoomed || gap_arrow) {
    set_size(plot, style);
    plot.replot(
        QCustomPlot::rpImmediateRefresh);  // lays the axes out: the bars' pixel positions are known
  }
  if (zoomed) add_axis_break(plot, plot.axisRect());
  if (gap_arrow) add_gap_arrow(plot, series.bars.front(), reference, chart.note);
  if (label_bars) add_value_labels(plot, series.bars, chart.percent, zoomed);
  return finish(plot, style);
}
}  // namespace

QImage render_chart(const ChartSpec& chart) {
  if (chart.kind == ChartSpec::Kind::Bars) return render_bar_chart(chart.bars, chart.style);
  return render_line_chart_grid(chart.panels, chart.columns, chart.style);
}

QImage figure_image(const report::ReportFigure& figure) {
  if (figure.is_chart()) return render_chart(figure.chart);
  QImageReader reader(qs(figure.image_path));
  return reader.read();
}

}  // namespace adala::report_render
