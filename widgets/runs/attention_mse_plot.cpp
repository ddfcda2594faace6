#include "widgets/runs/attention_mse_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include <qcustomplot.h>

#include "engine/train/stage_catalog.h"
#include "widgets/common/log_axis_ticker.h"
#include "widgets/common/plot_hover.h"
#include "widgets/common/plot_legend.h"
#include "widgets/common/plot_style.h"
#include "widgets/runs/run_types.h"
#include "widgets/common/series_smoothing.h"

#include <QSvgGenerator>
#include "engine/store/run_store.h"

namespace adala::widgets {

namespace {

// The stages this plot draws: per-block attention MSE (Stage 1), feature MSE (Stage 2).
constexpr int kAttentionAlignment = 1;
constexpr int kFeatureAlignment = 2;

Qt::PenStyle runPenStyle(int run) {
  static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                        Qt::DashDotDotLine};
  return styles[run % 5];
}

QCPTextElement* addTitle(QCustomPlot* plot, const QString& text) {
  plot->plotLayout()->insertRow(0);
  auto* title = new QCPTextElement(
      plot, text, QFont(plot->font().family(), plot->font().pointSize() + 1, QFont::Bold));
  plot->plotLayout()->addElement(0, 0, title);
  return title;
}

}  // namespace

AttentionMsePlot::AttentionMsePlot(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buildToolbar());
  layout->addWidget(buildPlotArea(), 1);
  setUpPlots();

  replotTimer_ = new QTimer(this);
  replotTimer_->setInterval(100);  // live data: at most 10 redraws a second
  connect(replotTimer_, &QTimer::timeout, this, &AttentionMsePlot::refreshLive);
  connect(logBox_, &QCheckBox::toggled, this, &AttentionMsePlot::setLogScale);
  connect(controls_, &SeriesControls::smoothingChanged, this, [this] {
    const QString note = controls_->valueNote();
    curvesHover_->setValueNote(note);
    featureHover_->setValueNote(note);
    fillGraphs();
    for (auto* p : {curves_, feature_}) p->replot(QCustomPlot::rpQueuedReplot);
  });
  connect(controls_, &SeriesControls::xAxisChanged, this, &AttentionMsePlot::setXAxis);
  applyXAxis();
  applyTheme();
  applyScale();
  rebuild();
}

// Log axis, Fit, the series controls and the summary of what is shown.
QHBoxLayout* AttentionMsePlot::buildToolbar() {
  auto* toolbar = new QHBoxLayout;
  logBox_ = new QCheckBox(tr("Logarithmic MSE axis"), this);
  logBox_->setChecked(logScale_);
  logBox_->setToolTip(tr("Log-scale the MSE axes (Ctrl+L)"));
  toolbar->addWidget(logBox_);
  auto* fit = new QPushButton(tr("Fit"), this);
  fit->setToolTip(tr("Show all data (or double-click a plot)"));
  toolbar->addWidget(fit);
  connect(fit, &QPushButton::clicked, this, &AttentionMsePlot::fitAll);
  toolbar->addSpacing(12);
  controls_ = new SeriesControls(this);
  toolbar->addWidget(controls_);
  summary_ = new QLabel(this);
  // A long summary is cut (its tooltip holds it whole) rather than widening the window past
  // the screen: its text would set the whole window's minimum width.
  summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  toolbar->addWidget(summary_, 1);
  return toolbar;
}

// The Stage-1 curves above, the final per-block bars and the Stage-2 curve below.
QWidget* AttentionMsePlot::buildPlotArea() {
  plotArea_ = new QWidget(this);
  auto* areaLayout = new QVBoxLayout(plotArea_);
  areaLayout->setContentsMargins(0, 0, 0, 0);
  auto* split = new QSplitter(Qt::Vertical, plotArea_);
  curves_ = new QCustomPlot(split);
  auto* lower = new QSplitter(Qt::Horizontal, split);
  bars_ = new QCustomPlot(lower);
  feature_ = new QCustomPlot(lower);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({600, 400});  // 3 : 2 whatever the plots' size hints (a long legend)
  areaLayout->addWidget(split);
  return plotArea_;
}

// Titles, axes, interactions, legends and hovers of the three plots.
void AttentionMsePlot::setUpPlots() {
  addTitle(curves_, tr("Stage 1 · attention MSE per block"));
  curves_->xAxis->setLabel(tr("step"));
  curves_->yAxis->setLabel(tr("MSE (linear vs softmax attention output)"));
  curves_->legend->setVisible(true);
  addTitle(bars_, tr("Final Stage-1 MSE per block"));
  bars_->xAxis->setLabel(tr("block"));
  bars_->yAxis->setLabel(tr("MSE"));
  addTitle(feature_, tr("Stage 2 · feature MSE"));
  feature_->xAxis->setLabel(tr("step"));
  feature_->yAxis->setLabel(tr("MSE (final features)"));
  for (auto* plot : {curves_, bars_, feature_}) {
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setMinimumHeight(140);
    plot->setNoAntialiasingOnDrag(true);
    connect(plot, &QCustomPlot::mousePress, this, [this] { userNavigated_ = true; });
    connect(plot, &QCustomPlot::mouseWheel, this, [this] { userNavigated_ = true; });
    connect(plot, &QCustomPlot::mouseDoubleClick, this, [this] { fitAll(); });
  }
  // Legends beside / under the axes, never on the curves; a click on an entry hides its curve.
  placeLegendOutside(curves_, LegendPlace::Right);
  placeLegendOutside(bars_, LegendPlace::Below);
  placeLegendOutside(feature_, LegendPlace::Below);
  for (auto* plot : {curves_, bars_, feature_})
    enableLegendToggle(plot, [this](QCPAbstractPlottable* p) {
      hidden_.removeAll(p->name());
      if (!p->visible()) hidden_ << p->name();
    });
  curvesHover_ = new PlotHover(curves_);
  featureHover_ = new PlotHover(feature_);
  bars_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  bars_->axisRect()->setRangeDrag(Qt::Vertical);
  bars_->axisRect()->setRangeZoom(Qt::Vertical);
  bars_->yAxis->setNumberFormat("gb");
  bars_->yAxis->setNumberPrecision(3);
}

void AttentionMsePlot::clear() {
  series_.clear();
  userNavigated_ = false;
  rebuild();
}

void AttentionMsePlot::startLiveRun(const QString& label, const QString& dbPath, qint64 runId) {
  series_.clear();
  // No history (a new run, or an unreadable database): the live steps alone.
  if (runId > 0 && !dbPath.isEmpty() && loadRuns(dbPath, {runId}) && !series_.isEmpty())
    series_.back().label = label;
  else
    series_ = {Series{label, {}, {}, {}, {}}};
  userNavigated_ = false;
  rebuild();
  replotTimer_->start();
}

void AttentionMsePlot::appendSteps(const QVector<StepUpdate>& steps) {
  if (series_.isEmpty()) series_.push_back(Series{tr("live run"), {}, {}, {}, {}});
  auto& s = series_.back();
  for (const auto& m : steps) {
    const int stage = stageIndex(m.stage);
    const auto wall = m.extra.constFind(QLatin1String(kWallTimeKey));
    if (wall != m.extra.constEnd() && stage == kAttentionAlignment) s.wall1[m.step] = wall.value();
    if (wall != m.extra.constEnd() && stage == kFeatureAlignment) s.wall2[m.step] = wall.value();
    // A resumed stage repeats the steps logged after its last checkpoint: the new values
    // replace the recorded ones.
    const auto dropFrom = [step = double(m.step)](QVector<QPointF>& points) {
      while (!points.isEmpty() && points.last().x() >= step) points.removeLast();
    };
    if (stage == kAttentionAlignment) {
      for (int b = 0; b < m.perBlockMse.size(); ++b) {
        if (std::isnan(m.perBlockMse[b])) continue;  // a block the plan keeps softmax
        if (!s.blocks.contains(b)) structureDirty_ = true;
        dropFrom(s.blocks[b]);
        s.blocks[b].push_back(QPointF(double(m.step), m.perBlockMse[b]));
      }
      liveDirty_ = true;
    } else if (stage == kFeatureAlignment) {
      if (s.feature.isEmpty()) structureDirty_ = true;
      dropFrom(s.feature);
      s.feature.push_back(QPointF(double(m.step), m.loss));
      liveDirty_ = true;
    }
  }
  if (!replotTimer_->isActive()) replotTimer_->start();
}

bool AttentionMsePlot::loadRuns(const QString& dbPath, const QList<qint64>& runIds,
                                QString* error) {
  QVector<Series> loaded;
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    for (qint64 id : runIds) {
      auto info = db.find_run(static_cast<int64_t>(id));
      if (!info) continue;
      Series s;
      s.label = tr("#%1 %2").arg(id).arg(QString::fromStdString(info->name));
      for (const auto& row : db.metrics(id, stage_name(kAttentionAlignment), "block_mse"))
        if (row.block >= 0) s.blocks[row.block].push_back(QPointF(double(row.step), row.value));
      for (const auto& row : db.metrics(id, stage_name(kFeatureAlignment), "loss"))
        s.feature.push_back(QPointF(double(row.step), row.value));
      for (const auto& row : db.metrics(id, stage_name(kAttentionAlignment), kWallTimeKey))
        s.wall1[row.step] = row.value;
      for (const auto& row : db.metrics(id, stage_name(kFeatureAlignment), kWallTimeKey))
        s.wall2[row.step] = row.value;
      loaded.push_back(std::move(s));
    }
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  replotTimer_->stop();
  series_ = std::move(loaded);
  userNavigated_ = false;
  rebuild();
  return true;
}

int AttentionMsePlot::stage1CurveCount() const { return curves_->graphCount(); }

int AttentionMsePlot::stage1PointCount(int curve) const {
  return curve >= 0 && curve < curves_->graphCount() ? curves_->graph(curve)->data()->size() : 0;
}

QString AttentionMsePlot::stage1CurveName(int curve) const {
  return curve >= 0 && curve < curves_->graphCount() ? curves_->graph(curve)->name() : QString();
}

int AttentionMsePlot::barCount() const {
  int n = 0;
  for (int i = 0; i < bars_->plottableCount(); ++i)
    if (auto* b = qobject_cast<QCPBars*>(bars_->plottable(i))) n += b->data()->size();
  return n;
}

int AttentionMsePlot::stage2PointCount() const {
  int n = 0;
  for (int i = 0; i < feature_->graphCount(); ++i) n += feature_->graph(i)->data()->size();
  return n;
}

void AttentionMsePlot::rebuild() {
  structureDirty_ = false;
  liveDirty_ = false;
  curves_->clearGraphs();
  bars_->clearPlottables();
  feature_->clearGraphs();
  curveSources_.clear();
  featureSources_.clear();
  const bool compare = series_.size() > 1;
  const int maxBlocks = addSeriesPlottables(compare);
  fillGraphs();
  for (auto* plot : {curves_, bars_, feature_})
    for (int i = 0; i < plot->plottableCount(); ++i)
      plot->plottable(i)->setVisible(!hidden_.contains(plot->plottable(i)->name()));
  bars_->legend->setVisible(compare);
  feature_->legend->setVisible(compare);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int b = 0; b < maxBlocks; ++b) ticker->addTick(b, tr("block %1").arg(b));
  bars_->xAxis->setTicker(ticker);

  const bool noStage1 = curves_->graphCount() == 0;
  const bool noStage2 = feature_->graphCount() == 0;
  plotTitle(curves_)->setText(noStage1 ? tr("Stage 1 · attention MSE per block (no data yet)")
                                       : tr("Stage 1 · attention MSE per block"));
  plotTitle(bars_)->setText(noStage1 ? tr("Final Stage-1 MSE per block (no data yet)")
                                     : tr("Final Stage-1 MSE per block"));
  plotTitle(feature_)->setText(noStage2 ? tr("Stage 2 · feature MSE (no data yet)")
                                        : tr("Stage 2 · feature MSE"));
  updateSummary();
  for (auto* p : {curves_, bars_, feature_}) {
    applyPlotPalette(p, palette(), font());
    updateLegendItemColors(p);
  }
  bars_->xAxis->grid()->setVisible(false);
  if (!userNavigated_)
    fitAll();
  else
    for (auto* p : {curves_, bars_, feature_}) p->replot(QCustomPlot::rpQueuedReplot);
}

// Per series: a Stage-1 curve per block, its final per-block bars and its Stage-2 curve (points
// come from fillGraphs). Returns the number of blocks of the deepest series.
int AttentionMsePlot::addSeriesPlottables(bool compare) {
  int maxBlocks = 0;
  auto* group = new QCPBarsGroup(bars_);
  group->setSpacingType(QCPBarsGroup::stAbsolute);
  group->setSpacing(2);
  for (int r = 0; r < series_.size(); ++r) {
    const auto& s = series_[r];
    for (auto it = s.blocks.cbegin(); it != s.blocks.cend(); ++it) {
      auto* g = curves_->addGraph();
      g->setName(compare ? tr("%1 · block %2").arg(s.label).arg(it.key())
                         : tr("block %1").arg(it.key()));
      QPen pen(seriesColor(it.key()), 1.8, runPenStyle(r));
      g->setPen(pen);
      curveSources_.push_back(GraphSource{r, it.key()});
      maxBlocks = std::max(maxBlocks, it.key() + 1);
    }
    // Bars: the last value of each block.
    auto* b = new QCPBars(bars_->xAxis, bars_->yAxis);
    b->setName(s.label);
    const QColor c = compare ? seriesColor(r) : palette().color(QPalette::Highlight);
    b->setPen(QPen(c.darker(130)));
    b->setBrush(c);
    b->setWidth(0.8 / std::max<qsizetype>(1, series_.size()));
    if (compare) b->setBarsGroup(group);
    QVector<double> keys, values;
    for (auto it = s.blocks.cbegin(); it != s.blocks.cend(); ++it)
      if (!it.value().isEmpty()) {
        keys.push_back(it.key());
        values.push_back(it.value().back().y());
      }
    b->setData(keys, values, true);
    if (!s.feature.isEmpty()) {
      auto* g = feature_->addGraph();
      g->setName(s.label);
      g->setPen(QPen(compare ? seriesColor(r) : seriesColor(0), 1.8, runPenStyle(r)));
      featureSources_.push_back(GraphSource{r, -1});
    }
  }
  return maxBlocks;
}

// The runs shown, and those a wall-time axis cannot draw.
void AttentionMsePlot::updateSummary() {
  QStringList parts;
  for (const auto& s : series_) parts << s.label;
  QString text = parts.isEmpty() ? tr("No run shown. Start a run or open one from the run list.")
                                 : tr("Showing: %1").arg(parts.join(QStringLiteral(", ")));
  if (xAxis_ == XAxis::WallTime) {
    QStringList untimed;
    for (const auto& s : series_)
      if (std::isnan(s.wallOrigin())) untimed << s.label;
    if (!untimed.isEmpty())
      text += QStringLiteral(" — ") + tr("no wall times recorded (older runs), not drawn: %1")
                                          .arg(untimed.join(QStringLiteral(", ")));
  }
  summary_->setText(text);
  summary_->setToolTip(text);
}

void AttentionMsePlot::refreshLive() {
  if (structureDirty_) return rebuild();
  if (!liveDirty_) return;
  liveDirty_ = false;
  if (series_.isEmpty()) return;
  // One live series: refresh the curves' data and the bars (the last value of each block).
  const auto& s = series_.back();
  fillGraphs();
  QVector<double> keys, values;
  for (auto it = s.blocks.cbegin(); it != s.blocks.cend(); ++it)
    if (!it.value().isEmpty()) {
      keys.push_back(it.key());
      values.push_back(it.value().back().y());
    }
  if (bars_->plottableCount() > 0)
    if (auto* b = qobject_cast<QCPBars*>(bars_->plottable(bars_->plottableCount() - 1)))
      b->setData(keys, values, true);
  if (!userNavigated_)
    fitAll();
  else
    for (auto* p : {curves_, bars_, feature_}) p->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionMsePlot::fitAll() {
  for (auto* plot : {curves_, feature_}) {
    plot->rescaleAxes(true);  // the visible curves
    if (plot->graphCount() == 0) {
      plot->xAxis->setRange(0, 1);
      plot->yAxis->setRange(logScale_ ? 1e-6 : 0.0, 1.0);
    } else if (logScale_) {
      const auto r = plot->yAxis->range();
      plot->yAxis->setRange(r.lower / 1.5, r.upper * 1.5);
    } else {
      plot->yAxis->scaleRange(1.1, plot->yAxis->range().center());
    }
  }
  bars_->rescaleAxes();
  bars_->xAxis->setRange(-0.6, std::max(0.6, bars_->xAxis->range().upper + 0.6));
  bars_->yAxis->setRange(0.0, std::max(1e-12, bars_->yAxis->range().upper * 1.15));
  userNavigated_ = false;
  for (auto* p : {curves_, bars_, feature_}) p->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionMsePlot::setLogScale(bool on) {
  if (logScale_ == on && logBox_->isChecked() == on) return;
  logScale_ = on;
  if (logBox_->isChecked() != on) logBox_->setChecked(on);
  applyScale();
  fitAll();
  emit logScaleChanged(on);
}

void AttentionMsePlot::applyScale() {
  for (auto* plot : {curves_, feature_}) {
    if (logScale_) {
      plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
      // Every decade labelled, 2x and 5x sub-ticks; "1e-05" drawn as a power of ten.
      plot->yAxis->setTicker(QSharedPointer<LogAxisTicker>::create());
    } else {
      plot->yAxis->setScaleType(QCPAxis::stLinear);
      plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    plot->yAxis->setNumberFormat("gb");
    plot->yAxis->setNumberPrecision(3);
  }
}

void AttentionMsePlot::setSmoothing(double weight) { controls_->setSmoothing(weight); }

double AttentionMsePlot::smoothing() const { return controls_->smoothing(); }

void AttentionMsePlot::setXAxis(XAxis axis) {
  controls_->setXAxis(axis);  // comes back here
  if (xAxis_ == axis) return;
  xAxis_ = axis;
  applyXAxis();
  userNavigated_ = false;
  rebuild();
}

void AttentionMsePlot::applyXAxis() {
  for (auto* plot : {curves_, feature_}) SeriesControls::applyXAxis(plot->xAxis, xAxis_);
  const XAxis mode = xAxis_;
  auto keyText = [mode](double key) { return SeriesControls::keyText(key, mode); };
  curvesHover_->setKeyText(keyText);
  featureHover_->setKeyText(keyText);
}

double AttentionMsePlot::Series::wallOrigin() const {
  double origin = std::numeric_limits<double>::quiet_NaN();
  for (const auto* wall : {&wall1, &wall2})
    for (double t : *wall)
      if (std::isfinite(t) && !(t >= origin)) origin = t;
  return origin;
}

void AttentionMsePlot::fillGraph(QCPGraph* graph, const GraphSource& source) const {
  const Series& s = series_[source.run];
  const QVector<QPointF>& points = source.block >= 0 ? s.blocks[source.block] : s.feature;
  const QMap<qint64, double>& wall = source.block >= 0 ? s.wall1 : s.wall2;
  const double origin = s.wallOrigin();
  QVector<double> x, y;
  x.reserve(points.size());
  y.reserve(points.size());
  for (const auto& p : points) {
    if (xAxis_ == XAxis::WallTime) {
      const auto t = wall.constFind(qint64(p.x()));
      if (t == wall.constEnd() || !std::isfinite(t.value())) continue;  // no time recorded
      x.push_back(t.value() - origin);
    } else {
      x.push_back(p.x());
    }
    y.push_back(p.y());
  }
  graph->setData(x, emaSmooth(y, smoothing()), true);
}

void AttentionMsePlot::fillGraphs() {
  for (int i = 0; i < curves_->graphCount() && i < curveSources_.size(); ++i)
    fillGraph(curves_->graph(i), curveSources_[i]);
  for (int i = 0; i < feature_->graphCount() && i < featureSources_.size(); ++i)
    fillGraph(feature_->graph(i), featureSources_[i]);
}

void AttentionMsePlot::applyTheme() {
  for (auto* p : {curves_, bars_, feature_}) {
    applyPlotPalette(p, palette(), font());
    p->replot(QCustomPlot::rpQueuedReplot);
  }
}

void AttentionMsePlot::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) rebuild();
  QWidget::changeEvent(event);
}

namespace {
// A tab page that has never been shown (another tab was current from the start) has no
// geometry yet: lay it out at the size its tab would give it, so an export is what the tab shows.
void layOutForExport(QWidget* page) {
  QWidget* parent = page->parentWidget();
  if (page->isVisible() || !parent || page->size() == parent->size()) return;
  page->resize(parent->size());
  if (page->layout()) page->layout()->activate();
}
}  // namespace

bool AttentionMsePlot::exportPng(const QString& path) {
  layOutForExport(this);
  for (auto* p : {curves_, bars_, feature_}) p->replot(QCustomPlot::rpImmediateRefresh);
  return plotArea_->grab().save(path, "PNG");
}

bool AttentionMsePlot::exportSvg(const QString& path) {
  layOutForExport(this);
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(plotArea_->size());
  svg.setViewBox(QRect(QPoint(0, 0), plotArea_->size()));
  svg.setTitle(tr("AdaLA attention MSE"));
  QCPPainter painter;
  if (!painter.begin(&svg)) return false;
  for (auto* plot : {curves_, bars_, feature_}) {
    painter.save();
    painter.translate(plot->mapTo(plotArea_, QPoint(0, 0)));
    plot->toPainter(&painter, plot->width(), plot->height());
    painter.restore();
  }
  return painter.end();
}

bool AttentionMsePlot::exportCsv(const QString& path) const {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) return false;
  QTextStream out(&file);
  out << "series,stage,key,block,step,value\n";
  auto quoted = [](QString s) {
    return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
           QLatin1Char('"');
  };
  for (const auto& s : series_) {
    for (auto it = s.blocks.cbegin(); it != s.blocks.cend(); ++it)
      for (const auto& p : it.value())
        out << quoted(s.label) << ",attention_alignment,block_mse," << it.key() << ','
            << qint64(p.x()) << ',' << QString::number(p.y(), 'g', 10) << '\n';
    for (const auto& p : s.feature)
      out << quoted(s.label) << ",feature_alignment,loss,," << qint64(p.x()) << ','
          << QString::number(p.y(), 'g', 10) << '\n';
  }
  return out.status() == QTextStream::Ok;
}

}  // namespace adala::widgets
