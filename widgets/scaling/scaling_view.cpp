#include "widgets/scaling/scaling_view.h"

#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <qcustomplot.h>

#include "widgets/common/plot_hover.h"
#include "widgets/common/plot_legend.h"
#include "widgets/common/plot_style.h"

#include "widgets/common/log_axis_ticker.h"

namespace adala::widgets {

namespace {

const char* const kSoftmax = "softmax";
const char* const kLinear = "linear";

// Pen width and marker per mode: softmax and softmax-chunked have the same FLOPs, so softmax is
// drawn wider underneath and the chunked curve stays visible on top of it.
double modeWidth(const QString& mode) {
  if (mode == QLatin1String("softmax")) return 3.2;
  if (mode == QLatin1String("softmax-chunked")) return 1.6;
  return 2.2;
}

QCPScatterStyle::ScatterShape modeShape(const QString& mode) {
  if (mode == QLatin1String("softmax")) return QCPScatterStyle::ssDisc;
  if (mode == QLatin1String("softmax-chunked")) return QCPScatterStyle::ssSquare;
  if (mode == QLatin1String("linear")) return QCPScatterStyle::ssTriangle;
  return QCPScatterStyle::ssCross;
}

double modeMarkerSize(const QString& mode) {
  if (mode == QLatin1String("softmax")) return 9;
  if (mode == QLatin1String("softmax-chunked")) return 6;
  return 8;
}

const QColor kPaperColor(200, 30, 30);

QString formatValue(double v) {
  if (std::isnan(v)) return QStringLiteral("–");
  if (v >= 100) return QString::number(v, 'f', 0);
  if (v >= 10) return QString::number(v, 'f', 1);
  return QString::number(v, 'g', 3);
}

}  // namespace

// One colour per mode, shared with the reports (plot_style.h).
QColor ScalingView::modeColor(const QString& mode) { return adala::widgets::modeColor(mode); }

ScalingView::ScalingView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* toolbar = new QHBoxLayout;
  sourceLabel_ = new QLabel(this);
  sourceLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  toolbar->addWidget(sourceLabel_, 1);
  paperBox_ = new QCheckBox(tr("Paper ViT-L points"), this);
  paperBox_->setChecked(paperVisible_);
  paperBox_->setToolTip(
      tr("Show the paper's ViT-L 1024² figures: 1241 → 429 GFLOPs, 3.28 → 1.37 GB"));
  toolbar->addWidget(paperBox_);
  exportPngButton_ = new QPushButton(tr("Export PNG…"), this);
  exportPngButton_->setToolTip(tr("Save the three plots as one PNG image"));
  exportCsvButton_ = new QPushButton(tr("Export CSV…"), this);
  exportCsvButton_->setToolTip(
      tr("Save the points shown as CSV (reads back with File → Open benchmark CSV…)"));
  toolbar->addWidget(exportPngButton_);
  toolbar->addWidget(exportCsvButton_);
  layout->addLayout(toolbar);
  flag_ = new QLabel(this);
  flag_->setObjectName(QStringLiteral("unsteadyFlag"));
  flag_->setWordWrap(true);
  flag_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  flag_->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold;"));
  flag_->setToolTip(
      tr("The benchmark timed a reference matmul before and after every point; its rate moved "
         "by more than 25 % during the run, so the machine's speed changed and the figures are "
         "not to be trusted"));
  flag_->hide();
  layout->addWidget(flag_);

  auto* grid = new QGridLayout;
  const QString titles[] = {tr("Compute"), tr("Peak memory"), tr("Latency")};
  const QString yLabels[] = {tr("analytic GFLOPs per image (1 MAC = 1 FLOP)"),
                             tr("peak MB above weights + input"), tr("ms per image (median)")};
  for (int m = 0; m < kScalingMetricCount; ++m) plots_[m] = buildMetricPlot(titles[m], yLabels[m]);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setMargin(8);
  grid->addWidget(plots_[0], 0, 0);
  grid->addWidget(plots_[1], 0, 1);
  grid->addWidget(plots_[2], 1, 0);
  grid->addWidget(summary_, 1, 1);
  grid->setRowStretch(0, 1);
  grid->setRowStretch(1, 1);
  grid->setColumnStretch(0, 1);
  grid->setColumnStretch(1, 1);
  layout->addLayout(grid, 1);

  connect(paperBox_, &QCheckBox::toggled, this, &ScalingView::setPaperPointsVisible);
  connect(exportPngButton_, &QPushButton::clicked, this, &ScalingView::exportPngDialog);
  connect(exportCsvButton_, &QPushButton::clicked, this, &ScalingView::exportCsvDialog);
  rebuild();
}

// One metric's plot: log-log axes, its legend below them, hover and double-click to fit.
QCustomPlot* ScalingView::buildMetricPlot(const QString& title, const QString& yLabel) {
  auto* plot = new QCustomPlot(this);
  plot->setMinimumSize(240, 220);
  plot->plotLayout()->insertRow(0);
  plot->plotLayout()->addElement(
      0, 0,
      new QCPTextElement(plot, title, QFont(font().family(), font().pointSize() + 1, QFont::Bold)));
  plot->xAxis->setLabel(tr("resolution (px, square input)"));
  plot->yAxis->setLabel(yLabel);
  for (auto* axis : {plot->xAxis, plot->yAxis}) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new LogAxisTicker));
  }
  // The legend below the axes: inside, it would hide the points at the largest resolution
  // (and the paper's, which sit top right).
  plot->legend->setVisible(true);
  plot->axisRect()->insetLayout()->take(plot->legend);
  plot->axisRect()->insetLayout()->simplify();
  plot->plotLayout()->addElement(2, 0, plot->legend);
  plot->plotLayout()->setRowStretchFactor(2, 0.001);
  plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot->legend->setWrap(2);
  plot->legend->setMargins(QMargins(4, 2, 4, 2));
  plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  enableLegendToggle(plot);  // a click on an entry hides / shows that curve
  new PlotHover(plot, [this](double key) { return hoverKeyText(key); });
  connect(plot, &QCustomPlot::mouseDoubleClick, this, [this] { rebuild(); });
  return plot;
}

void ScalingView::setSamples(const QVector<ScalingSample>& samples, const QString& source) {
  samples_ = samples;
  source_ = source;
  rebuild();
}

void ScalingView::addSample(const ScalingSample& sample) {
  auto same = std::find_if(samples_.begin(), samples_.end(), [&](const ScalingSample& s) {
    return s.mode == sample.mode && s.resolution == sample.resolution;
  });
  if (same != samples_.end())
    *same = sample;
  else
    samples_ << sample;
  rebuild();
}

void ScalingView::setPlannedResolutions(const QVector<int>& resolutions) {
  if (planned_ == resolutions) return;
  planned_ = resolutions;
  rebuild();
}

// "448 px", with the highest load average read while that resolution was measured.
QString ScalingView::hoverKeyText(double key) const {
  const int resolution = int(std::lround(key));
  double load = -1;
  for (const auto& s : samples_)
    if (s.resolution == resolution && s.load1m >= 0) load = std::max(load, s.load1m);
  return load >= 0 ? tr("%1 px (load %2)").arg(resolution).arg(load, 0, 'f', 1)
                   : tr("%1 px").arg(resolution);
}

void ScalingView::clear() { setSamples({}, QString()); }

bool ScalingView::loadCsv(const QString& path, QString* error) {
  QString why;
  const auto samples = readScalingCsv(path, &why);
  if (samples.isEmpty()) {
    if (error) *error = why;
    return false;
  }
  setSamples(samples, QFileInfo(path).fileName());
  return true;
}

bool ScalingView::loadRun(const QString& dbPath, qint64 runId, QString* error) {
  QString why;
  const auto samples = readScalingRun(dbPath, runId, &why);
  if (samples.isEmpty()) {
    if (error) *error = why;
    return false;
  }
  setSamples(samples, tr("benchmark run #%1").arg(runId));
  return true;
}

void ScalingView::setPaperPointsVisible(bool on) {
  if (paperBox_->isChecked() != on) paperBox_->setChecked(on);  // comes back here once
  if (paperVisible_ == on) return;
  paperVisible_ = on;
  rebuild();
}

QCPGraph* ScalingView::curve(ScalingMetric metric, const QString& mode) const {
  return curves_[int(metric)].value(mode, nullptr);
}

QCPGraph* ScalingView::attentionOnlyCurve(const QString& mode) const {
  return attentionCurves_.value(mode, nullptr);
}

QCPGraph* ScalingView::paperGraph(ScalingMetric metric) const { return paperGraphs_[int(metric)]; }

QCPErrorBars* ScalingView::errorBars(ScalingMetric metric, const QString& mode) const {
  return errorBars_[int(metric)].value(mode, nullptr);
}

QString ScalingView::crossoverText(ScalingMetric metric) const {
  if (usesIntervals(metric)) return intervalText(metric);
  QString text = medianCrossoverText(metric);
  // Measured medians without a spread (a file or run from before it was recorded): said so.
  if (metric != ScalingMetric::Gflops &&
      crossovers_[int(metric)].outcome != Crossover::Outcome::NotComparable)
    text += tr(" (medians only: no spread recorded, so no error bars to check it against)");
  return text;
}

namespace {

QString rangeText(int from, int to) {
  return from == to ? ScalingView::tr("%1 px").arg(from)
                    : ScalingView::tr("%1–%2 px").arg(from).arg(to);
}

}  // namespace

// The claim first, then what lies below it, by resolution: separated stretches ("softmax
// faster at 112–224 px") and overlapping ones ("between 224 and 448 px the intervals overlap
// — no claim").
QString ScalingView::intervalText(ScalingMetric metric) const {
  using Order = IntervalCrossover::Order;
  const IntervalCrossover& c = intervalCrossovers_[int(metric)];
  const bool latency = metric == ScalingMetric::Latency;
  const auto lower = [latency](bool linear) {
    if (latency) return linear ? tr("linear faster") : tr("softmax faster");
    return linear ? tr("linear lower") : tr("softmax lower");
  };
  const int first = c.verdicts.first().resolution, last = c.verdicts.last().resolution;
  if (c.everyOverlap())
    return c.verdicts.size() == 1
               ? tr("no crossover claimed: the intervals overlap at %1 px").arg(first)
               : tr("no crossover claimed: intervals overlap at every resolution (%1)")
                     .arg(rangeText(first, last));
  QStringList parts;
  if (c.claimFrom == first)
    parts << tr("%1 at every resolution, %2 (intervals separate)")
                 .arg(lower(c.linearLower), rangeText(first, last));
  else if (c.claimFrom > 0)
    parts << tr("%1 from %2 px (intervals separate)").arg(lower(c.linearLower)).arg(c.claimFrom);
  // The stretches below the claim (all of them where there is none).
  for (int i = 0; i < c.verdicts.size();) {
    const auto& v = c.verdicts[i];
    if (c.claimFrom > 0 && v.resolution >= c.claimFrom) break;
    int j = i;
    while (j + 1 < c.verdicts.size() && c.verdicts[j + 1].order == v.order &&
           !(c.claimFrom > 0 && c.verdicts[j + 1].resolution >= c.claimFrom))
      ++j;
    const int to = c.verdicts[j].resolution;
    if (v.order == Order::Overlap) {
      if (j + 1 < c.verdicts.size())
        parts << tr("between %1 and %2 px the intervals overlap — no claim")
                     .arg(v.resolution)
                     .arg(c.verdicts[j + 1].resolution);
      else
        parts << tr("at %1 the intervals overlap — no claim").arg(rangeText(v.resolution, to));
    } else {
      parts << tr("%1 at %2 (intervals separate)")
                   .arg(lower(v.order == Order::LinearLower), rangeText(v.resolution, to));
    }
    i = j + 1;
  }
  return parts.join(QStringLiteral("; "));
}

QString ScalingView::medianCrossoverText(ScalingMetric metric) const {
  const Crossover& c = crossovers_[int(metric)];
  switch (c.outcome) {
    case Crossover::Outcome::Crossed:
      return c.linearLowerAbove ? tr("linear = softmax at ≈ %1 px; linear lower above")
                                      .arg(std::lround(c.resolution))
                                : tr("linear = softmax at ≈ %1 px; softmax lower above")
                                      .arg(std::lround(c.resolution));
    case Crossover::Outcome::LinearLower:
      return c.fromResolution == c.toResolution
                 ? tr("no crossover: one resolution (%1 px), linear lower").arg(c.fromResolution)
                 : tr("no crossover in %1–%2 px: linear lower throughout")
                       .arg(c.fromResolution)
                       .arg(c.toResolution);
    case Crossover::Outcome::SoftmaxLower:
      return c.fromResolution == c.toResolution
                 ? tr("no crossover: one resolution (%1 px), softmax lower").arg(c.fromResolution)
                 : tr("no crossover in %1–%2 px: softmax lower throughout")
                       .arg(c.fromResolution)
                       .arg(c.toResolution);
    case Crossover::Outcome::NotComparable:
      break;
  }
  return tr("no crossover: needs softmax and linear points at the same resolutions");
}

QString ScalingView::crossoverLabel(ScalingMetric metric) const {
  if (usesIntervals(metric)) {
    const IntervalCrossover& i = intervalCrossovers_[int(metric)];
    const bool latency = metric == ScalingMetric::Latency;
    if (i.everyOverlap()) return tr("no claim: intervals overlap");
    if (i.claimFrom == 0)
      return tr("no claim at %1 px: intervals overlap").arg(i.verdicts.last().resolution);
    const QString who = latency ? (i.linearLower ? tr("linear faster") : tr("softmax faster"))
                                : (i.linearLower ? tr("linear lower") : tr("softmax lower"));
    return i.claimFrom == i.verdicts.first().resolution
               ? tr("%1 throughout").arg(who)
               : tr("%1 from %2 px").arg(who).arg(i.claimFrom);
  }
  const Crossover& c = crossovers_[int(metric)];
  switch (c.outcome) {
    case Crossover::Outcome::Crossed:
      return tr("crossover ≈ %1 px").arg(std::lround(c.resolution));
    case Crossover::Outcome::LinearLower:
      return tr("no crossover: linear lower");
    case Crossover::Outcome::SoftmaxLower:
      return tr("no crossover: softmax lower");
    case Crossover::Outcome::NotComparable:
      break;
  }
  return tr("no crossover: no common points");
}

QString ScalingView::summaryText() const { return summary_->text(); }

namespace {

// One x range for all three plots: ticks at the measured resolutions, thinned where labels
// would touch (closer than a factor 1.2 on the log axis), the paper's 1024 only where it has
// room; the extent covers the data and the paper's points even where a tick was left out.
struct ResolutionAxis {
  QVector<double> ticks;
  QVector<double> extent;  // sorted
};

ResolutionAxis resolutionAxis(const QVector<ScalingSample>& samples, const QVector<int>& planned,
                              bool paper) {
  QVector<double> resolutions;
  for (const auto& s : samples)
    if (s.resolution > 0 && !resolutions.contains(s.resolution)) resolutions << s.resolution;
  for (int r : planned)
    if (r > 0 && !resolutions.contains(r)) resolutions << r;
  std::sort(resolutions.begin(), resolutions.end());
  ResolutionAxis axis;
  for (double r : resolutions)
    if (axis.ticks.isEmpty() || r / axis.ticks.last() >= 1.2) axis.ticks << r;
  if (paper && std::none_of(axis.ticks.begin(), axis.ticks.end(), [](double t) {
        return std::max(t, double(PaperReference::kResolution)) /
                   std::min(t, double(PaperReference::kResolution)) <
               1.2;
      })) {
    axis.ticks << PaperReference::kResolution;
    std::sort(axis.ticks.begin(), axis.ticks.end());
  }
  axis.extent = resolutions;
  if (paper) axis.extent << PaperReference::kResolution;
  std::sort(axis.extent.begin(), axis.extent.end());
  return axis;
}

}  // namespace

// The positive values drawn on one plot, for its y range.
struct ValueSpan {
  double lo = std::numeric_limits<double>::infinity();
  double hi = 0;
  void extend(double v) {
    if (v > 0) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
};

namespace {

// The legend below the axes while it has entries. An empty one (no points yet: a benchmark
// starting) is taken out of the layout: its maximum width, a few pixels, would cap the width
// of its layout column and with it the axes' (the plots collapsed to strips).
void placeLegend(QCustomPlot* plot) {
  QCPLayoutGrid* layout = plot->plotLayout();
  const bool placed = layout->rowCount() > 2 && layout->element(2, 0) == plot->legend;
  if (plot->legend->itemCount() == 0 && placed) {
    layout->take(plot->legend);
    layout->simplify();
  } else if (plot->legend->itemCount() > 0 && !placed) {
    layout->addElement(2, 0, plot->legend);
    layout->setRowStretchFactor(2, 0.001);
  }
}

void setRanges(QCustomPlot* plot, const QVector<double>& xExtent, const ValueSpan& values) {
  if (!xExtent.isEmpty()) {
    plot->xAxis->setRange(xExtent.first() / 1.25, xExtent.last() * 1.25);
  } else {
    plot->xAxis->setRange(100, 3000);
  }
  if (values.hi > 0) {
    plot->yAxis->setRange(values.lo / 2.0, values.hi * 2.0);
  } else {
    plot->yAxis->setRange(1, 1000);
  }
}

// The largest resolution where both linear and softmax ran (0: none).
int largestResolutionWithBoth(const QVector<ScalingSample>& samples) {
  int largest = 0;
  for (const auto& s : samples)
    if (s.ran && s.mode == QLatin1String(kLinear)) {
      for (const auto& t : samples)
        if (t.ran && t.mode == QLatin1String(kSoftmax) && t.resolution == s.resolution)
          largest = std::max(largest, s.resolution);
    }
  return largest;
}

}  // namespace

void ScalingView::rebuild() {
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
  const QStringList modes = modesOf(samples_);
  const bool paper = paperVisible_ && !samples_.isEmpty();
  const ResolutionAxis axis = resolutionAxis(samples_, planned_, paper);

  for (int m = 0; m < kScalingMetricCount; ++m) {
    const auto metric = ScalingMetric(m);
    QCustomPlot* plot = plots_[m];
    plot->clearPlottables();
    plot->clearItems();
    curves_[m].clear();
    errorBars_[m].clear();
    paperGraphs_[m] = nullptr;
    if (metric == ScalingMetric::Gflops) attentionCurves_.clear();
    applyPlotPalette(plot, palette(), font());
    static_cast<LogAxisTicker*>(plot->xAxis->ticker().data())->setFixedTicks(axis.ticks);

    ValueSpan values;
    addMeasuredCurves(metric, modes, values);
    if (metric == ScalingMetric::Gflops) addAttentionOnlyCurves(modes, values);
    if (paper && metric != ScalingMetric::Latency) addPaperPoints(metric, small, values);
    addCrossoverNote(metric, small);
    placeLegend(plot);
    setRanges(plot, axis.extent, values);
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
  updateSourceLine();
  summary_->setText(summaryHtml());
  const QString flag = unsteadyFlag();
  flag_->setText(flag.isEmpty() ? QString() : tr("%1: figures not to be trusted").arg(flag));
  flag_->setVisible(!flag.isEmpty());
}

QString ScalingView::unsteadyFlag() const { return unsteadyText(samples_); }

void ScalingView::addMeasuredCurves(ScalingMetric metric, const QStringList& modes,
                                    ValueSpan& values) {
  const int m = int(metric);
  for (const QString& mode : modes) {
    const QVector<ScalingInterval> points = metricIntervals(samples_, mode, metric);
    if (points.isEmpty()) continue;
    QVector<double> keys, ys, below, above;
    bool spread = false;
    for (const auto& p : points) {
      keys << p.resolution;
      ys << p.median;
      values.extend(p.median);
      below << (p.hasSpread() ? p.median - p.lo : 0.0);
      above << (p.hasSpread() ? p.hi - p.median : 0.0);
      if (p.hasSpread()) {
        spread = true;
        values.extend(p.lo);
        values.extend(p.hi);
      }
    }
    const QColor color = modeColor(mode);
    auto* graph = plots_[m]->addGraph();
    graph->setName(mode);
    graph->setPen(QPen(color, modeWidth(mode)));
    graph->setScatterStyle(QCPScatterStyle(modeShape(mode), color, color, modeMarkerSize(mode)));
    graph->setData(keys, ys, true);
    curves_[m].insert(mode, graph);
    if (spread) {  // min..max of every timed run (latency), of the rounds (memory)
      auto* bars = new QCPErrorBars(plots_[m]->xAxis, plots_[m]->yAxis);
      bars->removeFromLegend();
      bars->setDataPlottable(graph);
      bars->setData(below, above);
      bars->setPen(QPen(color, 1.4));
      bars->setWhiskerWidth(10);
      bars->setSymbolGap(modeMarkerSize(mode) + 2);
      bars->setName(tr("%1 spread").arg(mode));
      errorBars_[m].insert(mode, bars);
    }
  }
}

// The paper's count (attention sub-layers + patch embed): dashed, one legend entry.
void ScalingView::addAttentionOnlyCurves(const QStringList& modes, ValueSpan& values) {
  QCustomPlot* plot = plots_[int(ScalingMetric::Gflops)];
  bool any = false;
  for (const QString& mode : modes) {
    std::map<int, double> byResolution;
    for (const auto& s : samples_)
      if (s.mode == mode && s.resolution > 0 && s.gflopsAttention > 0)
        byResolution[s.resolution] = s.gflopsAttention;
    if (byResolution.empty()) continue;
    QVector<double> k2, v2;
    for (const auto& [resolution, value] : byResolution) {
      k2 << resolution;
      v2 << value;
      values.extend(value);
    }
    const QColor color = modeColor(mode);
    auto* graph = plot->addGraph();
    graph->setName(mode + QStringLiteral(" (attention + patch embed)"));
    graph->setPen(QPen(color, 1.4, Qt::DashLine));
    graph->setScatterStyle(QCPScatterStyle(modeShape(mode), color, Qt::NoBrush, 5));
    graph->setData(k2, v2, true);
    graph->removeFromLegend();
    attentionCurves_.insert(mode, graph);
    any = true;
  }
  if (any) {
    auto* key = plot->addGraph();  // legend entry only
    key->setName(tr("dashed: attention only"));
    key->setPen(QPen(palette().color(QPalette::Text), 1.4, Qt::DashLine));
  }
}

void ScalingView::addPaperPoints(ScalingMetric metric, const QFont& labelFont, ValueSpan& values) {
  const int m = int(metric);
  QCustomPlot* plot = plots_[m];
  const bool flops = metric == ScalingMetric::Gflops;
  const double softmax = flops ? PaperReference::kSoftmaxGflops : PaperReference::kSoftmaxMb;
  const double linear = flops ? PaperReference::kLinearGflops : PaperReference::kLinearMb;
  auto* graph = plot->addGraph();
  graph->setName(tr("paper ViT-L 1024²"));
  graph->setLineStyle(QCPGraph::lsNone);
  graph->setPen(QPen(kPaperColor, 1.5));
  graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, kPaperColor, Qt::white, 11));
  graph->addData(PaperReference::kResolution, linear);
  graph->addData(PaperReference::kResolution, softmax);
  paperGraphs_[m] = graph;
  values.extend(softmax);
  values.extend(linear);
  const QString labels[] = {
      flops ? tr("softmax %1").arg(formatValue(softmax))
            : tr("softmax %1 GB").arg(softmax / 1000.0),
      flops ? tr("linear %1").arg(formatValue(linear)) : tr("linear %1 GB").arg(linear / 1000.0)};
  const double ys[] = {softmax, linear};
  for (int i = 0; i < 2; ++i) {
    auto* label = new QCPItemText(plot);
    label->position->setCoords(PaperReference::kResolution, ys[i]);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
    label->setPadding(QMargins(0, 0, 10, 0));
    label->setText(labels[i]);
    label->setFont(labelFont);
    label->setColor(kPaperColor);
  }
}

// Crossover of the linear and softmax curves: a dash-dotted line where they cross and a note.
void ScalingView::addCrossoverNote(ScalingMetric metric, const QFont& labelFont) {
  const int m = int(metric);
  QCustomPlot* plot = plots_[m];
  const QColor text = palette().color(QPalette::Text);
  crossovers_[m] = findCrossover(metricCurve(samples_, QLatin1String(kSoftmax), metric),
                                 metricCurve(samples_, QLatin1String(kLinear), metric));
  intervalCrossovers_[m] =
      metric == ScalingMetric::Gflops
          ? IntervalCrossover()
          : findIntervalCrossover(metricIntervals(samples_, QLatin1String(kSoftmax), metric),
                                  metricIntervals(samples_, QLatin1String(kLinear), metric));
  auto* note = new QCPItemText(plot);
  note->setFont(labelFont);
  note->setColor(text);
  note->setBrush(QBrush(palette().color(QPalette::Base)));
  note->setPadding(QMargins(4, 2, 4, 2));
  note->setText(samples_.isEmpty()
                    ? (planned_.isEmpty() ? tr("no data: run a benchmark or open a CSV")
                                          : tr("waiting for the first point…"))
                    : crossoverLabel(metric));
  // The line marks where the curves cross, or, with intervals, where the claim starts (and
  // only where something lies below it); without one the note sits in the top right corner.
  double marked = 0;
  if (usesIntervals(metric)) {
    const IntervalCrossover& i = intervalCrossovers_[m];
    if (i.claimFrom > i.verdicts.first().resolution) marked = i.claimFrom;
  } else if (crossovers_[m].outcome == Crossover::Outcome::Crossed) {
    marked = crossovers_[m].resolution;
  }
  if (marked > 0) {
    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(marked, 1);
    line->point2->setCoords(marked, 10);
    line->setPen(QPen(text, 1.2, Qt::DashDotLine));
    note->position->setTypeX(QCPItemPosition::ptPlotCoords);
    note->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(marked, 0.97);
    note->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    note->setText(QStringLiteral(" ") + note->text());
  } else {
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.98, 0.97);
    note->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
  }
}

void ScalingView::updateSourceLine() {
  QString preset;
  qint64 batch = -1;
  for (const auto& s : samples_) {
    if (!s.preset.isEmpty()) preset = s.preset;
    if (s.batch > 0) batch = s.batch;
  }
  if (batch > 0)
    preset = tr("%1 · batch %2").arg(preset.isEmpty() ? tr("unknown model") : preset).arg(batch);
  sourceLabel_->setText(samples_.isEmpty()
                            ? (planned_.isEmpty() ? tr("No benchmark loaded.")
                                                  : tr("Benchmark running: each point is drawn "
                                                       "as soon as it is measured."))
                            : tr("%1 · %2 points · %3")
                                  .arg(preset.isEmpty() ? tr("unknown model") : preset)
                                  .arg(samples_.size())
                                  .arg(source_));
  exportPngButton_->setEnabled(!samples_.isEmpty());
  exportCsvButton_->setEnabled(!samples_.isEmpty());
}

QString ScalingView::summaryHtml() const {
  if (samples_.isEmpty() && !planned_.isEmpty())
    return tr(
        "<p>The benchmark is running: a resolution's points appear once all its rounds are "
        "measured.</p>");
  if (samples_.isEmpty())
    return tr(
        "<p>Run <b>adala bench scaling</b> from the form, open an earlier benchmark run, or "
        "open a CSV written by <code>adala bench scaling --csv</code>.</p>");
  QString html;
  html += tr("<p><b>Crossover of linear and softmax</b></p>");
  html += QStringLiteral("<table cellspacing=\"2\">");
  const QString names[] = {tr("compute"), tr("memory"), tr("latency")};
  for (int m = 0; m < kScalingMetricCount; ++m)
    html += QStringLiteral("<tr><td>%1:&nbsp;</td><td>%2</td></tr>")
                .arg(names[m], crossoverText(ScalingMetric(m)).toHtmlEscaped());
  html += QStringLiteral("</table>");
  html += loadHtml();
  html += rateHtml();
  html += notMeasuredHtml();
  html += savingsHtml();
  html +=
      tr("<p><small>GFLOPs: analytic, 1 multiply-add = 1 FLOP (the paper's convention); solid = "
         "whole model, "
         "dashed = attention sub-layers + patch embed (the paper's count). Peak memory: RSS "
         "high-water mark "
         "above weights and input, a fresh process per point. Paper (ViT-L, 1024²): 1241 → 429 "
         "GFLOPs, "
         "3.28 → 1.37 GB.</small></p>");
  return html;
}

// The spread's meaning and the machine's load while the points were measured.
QString ScalingView::loadHtml() const {
  double lo = std::numeric_limits<double>::infinity(), hi = -1;
  int withLoad = 0;
  bool spread = false;
  for (const auto& s : samples_) {
    spread = spread || (!std::isnan(s.msMin) && !std::isnan(s.msMax));
    if (s.load1m >= 0) {
      lo = std::min(lo, s.load1m);
      hi = std::max(hi, s.load1m);
      ++withLoad;
    }
  }
  QString html;
  if (spread)
    html +=
        tr("<p><small>Error bars: latency from the fastest to the slowest timed run over "
           "all rounds; peak memory from the lowest to the highest round. A crossover is "
           "claimed only where the intervals separate.</small></p>");
  else
    html +=
        tr("<p><small>No spread recorded (an older file or run): medians only, no error "
           "bars.</small></p>");
  if (withLoad > 0)
    html +=
        tr("<p><b>Load</b> (1-minute average, %1 cores): %2 during the points</p>")
            .arg(QThread::idealThreadCount())
            .arg(
                lo == hi
                    ? QString::number(hi, 'f', 1)
                    : tr("%1 to %2").arg(QString::number(lo, 'f', 1), QString::number(hi, 'f', 1)));
  return html;
}

// The reference matmul's rate over the run, and the flag where it moved too much.
QString ScalingView::rateHtml() const {
  const RateSpan span = rateSpanOf(samples_);
  if (span.empty()) return {};
  QString html = tr("<p><b>Matmul rate</b> (reference, read before and after every point): "
                    "%1 to %2 GFLOP/s</p>")
                     .arg(QString::number(span.lo, 'f', 1), QString::number(span.hi, 'f', 1));
  if (span.unsteady)
    html += QStringLiteral("<p style=\"color:#c62828\"><b>%1</b></p>")
                .arg(unsteadyFlag().toHtmlEscaped());
  return html;
}

QString ScalingView::notMeasuredHtml() const {
  QStringList skipped;
  for (const auto& s : samples_)
    if (!s.ran)
      skipped << tr("%1 at %2 px: %3")
                     .arg(s.mode)
                     .arg(s.resolution)
                     .arg(s.note.isEmpty() ? tr("not run") : s.note)
                     .toHtmlEscaped();
  if (skipped.isEmpty()) return {};
  return tr("<p><b>Not measured</b><br>%1</p>").arg(skipped.join(QStringLiteral("<br>")));
}

// How much linear saves at the largest resolution where both ran.
QString ScalingView::savingsHtml() const {
  const int largest = largestResolutionWithBoth(samples_);
  if (largest <= 0) return {};
  const ScalingSample *soft = nullptr, *lin = nullptr;
  for (const auto& s : samples_) {
    if (s.resolution != largest) continue;
    if (s.mode == QLatin1String(kSoftmax)) soft = &s;
    if (s.mode == QLatin1String(kLinear)) lin = &s;
  }
  return tr("<p><b>At %1 px, linear vs softmax</b><br>GFLOPs %2 → %3, peak %4 → %5 MB, %6 → "
            "%7 ms/img</p>")
      .arg(largest)
      .arg(formatValue(soft->gflops), formatValue(lin->gflops), formatValue(soft->peakMb),
           formatValue(lin->peakMb), formatValue(soft->msPerImg), formatValue(lin->msPerImg));
}

void ScalingView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) rebuild();
  QWidget::changeEvent(event);
}

bool ScalingView::exportPng(const QString& path, int width, int height) {
  const int titleHeight = 40;
  const int plotWidth = width / kScalingMetricCount, plotHeight = height - titleHeight;
  QImage image(width, height, QImage::Format_ARGB32);
  image.fill(palette().color(QPalette::Base));
  QPainter painter(&image);
  painter.setPen(palette().color(QPalette::Text));
  QFont titleFont = font();
  titleFont.setPointSize(font().pointSize() + 2);
  titleFont.setBold(true);
  painter.setFont(titleFont);
  painter.drawText(QRect(12, 0, width - 24, titleHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   sourceLabel_->text());
  for (int m = 0; m < kScalingMetricCount; ++m) {
    const QPixmap pixmap = plots_[m]->toPixmap(plotWidth, plotHeight);
    painter.drawPixmap(m * plotWidth, titleHeight, pixmap);
  }
  painter.end();
  return image.save(path, "PNG");
}

bool ScalingView::exportCsv(const QString& path, QString* error) const {
  return writeScalingCsv(path, samples_, error);
}

void ScalingView::exportPngDialog() {
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export the scaling plots"), QStringLiteral("scaling.png"), tr("PNG image (*.png)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".png");
  emit message(exportPng(path) ? tr("Exported %1").arg(path) : tr("Could not export %1").arg(path));
}

void ScalingView::exportCsvDialog() {
  QString path =
      QFileDialog::getSaveFileName(this, tr("Export the scaling points"),
                                   QStringLiteral("scaling.csv"), tr("CSV table (*.csv)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".csv");
  QString error;
  emit message(exportCsv(path, &error) ? tr("Exported %1").arg(path) : error);
}

}  // namespace adala::widgets
