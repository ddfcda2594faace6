#include "widgets/attention_mse_plot.h"

#include <QCheckBox>
#include <QEvent>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include <qcustomplot.h>

#include "engine/train/stage_catalog.h"
#include "widgets/plot_style.h"
#include "widgets/run_types.h"

#ifdef ADALA_HAVE_QTSVG
#include <QSvgGenerator>
#endif
#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#endif

namespace adala::widgets {

namespace {

// The stages this plot draws: per-block attention MSE (Stage 1), feature MSE (Stage 2).
constexpr int kAttentionAlignment = 1;
constexpr int kFeatureAlignment = 2;

// Tableau-10: one colour per block (curves) or per run (bars, Stage 2).
QColor seriesColor(int i) {
  static const QColor colors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                                  QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75),
                                  QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                                  QColor(23, 190, 207)};
  return colors[((i % 10) + 10) % 10];
}

Qt::PenStyle runPenStyle(int run) {
  static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
  return styles[run % 5];
}

QCPTextElement* addTitle(QCustomPlot* plot, const QString& text) {
  plot->plotLayout()->insertRow(0);
  auto* title = new QCPTextElement(plot, text, QFont(plot->font().family(), plot->font().pointSize() + 1, QFont::Bold));
  plot->plotLayout()->addElement(0, 0, title);
  return title;
}

}  // namespace

AttentionMsePlot::AttentionMsePlot(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* toolbar = new QHBoxLayout;
  logBox_ = new QCheckBox(tr("Logarithmic MSE axis"), this);
  logBox_->setChecked(logScale_);
  logBox_->setToolTip(tr("Log-scale the MSE axes (Ctrl+L)"));
  toolbar->addWidget(logBox_);
  auto* fit = new QPushButton(tr("Fit"), this);
  fit->setToolTip(tr("Show all data (or double-click a plot)"));
  toolbar->addWidget(fit);
  summary_ = new QLabel(this);
  toolbar->addWidget(summary_, 1);
  layout->addLayout(toolbar);

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
  areaLayout->addWidget(split);
  layout->addWidget(plotArea_, 1);

  addTitle(curves_, tr("Stage 1 · attention MSE per block"));
  curves_->xAxis->setLabel(tr("step"));
  curves_->yAxis->setLabel(tr("MSE (linear vs softmax attention output)"));
  curves_->legend->setVisible(true);
  curves_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
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
  bars_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  bars_->axisRect()->setRangeDrag(Qt::Vertical);
  bars_->axisRect()->setRangeZoom(Qt::Vertical);
  bars_->yAxis->setNumberFormat("gb");
  bars_->yAxis->setNumberPrecision(3);

  replotTimer_ = new QTimer(this);
  replotTimer_->setInterval(100);  // live data: at most 10 redraws a second
  connect(replotTimer_, &QTimer::timeout, this, &AttentionMsePlot::refreshLive);
  connect(logBox_, &QCheckBox::toggled, this, &AttentionMsePlot::setLogScale);
  connect(fit, &QPushButton::clicked, this, &AttentionMsePlot::fitAll);
  applyTheme();
  applyScale();
  rebuild();
}

void AttentionMsePlot::clear() {
  series_.clear();
  userNavigated_ = false;
  rebuild();
}

void AttentionMsePlot::startLiveRun(const QString& label) {
  series_.clear();
  series_.push_back(Series{label, {}, {}});
  userNavigated_ = false;
  rebuild();
  replotTimer_->start();
}

void AttentionMsePlot::appendSteps(const QVector<StepUpdate>& steps) {
  if (series_.isEmpty()) series_.push_back(Series{tr("live run"), {}, {}});
  auto& s = series_.back();
  for (const auto& m : steps) {
    const int stage = stageIndex(m.stage);
    if (stage == kAttentionAlignment) {
      for (int b = 0; b < m.perBlockMse.size(); ++b) {
        if (!s.blocks.contains(b)) structureDirty_ = true;
        s.blocks[b].push_back(QPointF(double(m.step), m.perBlockMse[b]));
      }
      liveDirty_ = true;
    } else if (stage == kFeatureAlignment) {
      if (s.feature.isEmpty()) structureDirty_ = true;
      s.feature.push_back(QPointF(double(m.step), m.loss));
      liveDirty_ = true;
    }
  }
  if (!replotTimer_->isActive()) replotTimer_->start();
}

bool AttentionMsePlot::loadRuns(const QString& dbPath, const QList<qint64>& runIds, QString* error) {
#ifdef ADALA_HAVE_STORE
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
#else
  if (error) *error = tr("this build has no run database");
  return false;
#endif
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
  const bool compare = series_.size() > 1;
  int maxBlocks = 0;
  auto* group = new QCPBarsGroup(bars_);
  group->setSpacingType(QCPBarsGroup::stAbsolute);
  group->setSpacing(2);
  for (int r = 0; r < series_.size(); ++r) {
    const auto& s = series_[r];
    for (auto it = s.blocks.cbegin(); it != s.blocks.cend(); ++it) {
      auto* g = curves_->addGraph();
      g->setName(compare ? tr("%1 · block %2").arg(s.label).arg(it.key()) : tr("block %1").arg(it.key()));
      QPen pen(seriesColor(it.key()), 1.8, runPenStyle(r));
      g->setPen(pen);
      QVector<double> x, y;
      x.reserve(it.value().size());
      y.reserve(it.value().size());
      for (const auto& p : it.value()) {
        x.push_back(p.x());
        y.push_back(p.y());
      }
      g->setData(x, y, true);
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
      QVector<double> x, y;
      for (const auto& p : s.feature) {
        x.push_back(p.x());
        y.push_back(p.y());
      }
      g->setData(x, y, true);
    }
  }
  bars_->legend->setVisible(compare);
  feature_->legend->setVisible(compare);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int b = 0; b < maxBlocks; ++b) ticker->addTick(b, tr("block %1").arg(b));
  bars_->xAxis->setTicker(ticker);

  const bool noStage1 = curves_->graphCount() == 0;
  const bool noStage2 = feature_->graphCount() == 0;
  plotTitle(curves_)->setText(noStage1 ? tr("Stage 1 · attention MSE per block (no data yet)")
                                     : tr("Stage 1 · attention MSE per block"));
  plotTitle(bars_)->setText(noStage1 ? tr("Final Stage-1 MSE per block (no data yet)") : tr("Final Stage-1 MSE per block"));
  plotTitle(feature_)->setText(noStage2 ? tr("Stage 2 · feature MSE (no data yet)") : tr("Stage 2 · feature MSE"));
  QStringList parts;
  for (const auto& s : series_) parts << s.label;
  summary_->setText(parts.isEmpty() ? tr("No run shown. Start a run or open one from the run list.")
                                    : tr("Showing: %1").arg(parts.join(QStringLiteral(", "))));
  applyPlotPalette(curves_, palette(), font());
  applyPlotPalette(bars_, palette(), font());
  applyPlotPalette(feature_, palette(), font());
  bars_->xAxis->grid()->setVisible(false);
  if (!userNavigated_) fitAll();
  else
    for (auto* p : {curves_, bars_, feature_}) p->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionMsePlot::refreshLive() {
  if (structureDirty_) return rebuild();
  if (!liveDirty_) return;
  liveDirty_ = false;
  if (series_.isEmpty()) return;
  // One live series: graphs are in block order; refresh their data and the bars.
  const auto& s = series_.back();
  int g = 0;
  QVector<double> keys, values;
  for (auto it = s.blocks.cbegin(); it != s.blocks.cend() && g < curves_->graphCount(); ++it, ++g) {
    auto* graph = curves_->graph(g);
    const int have = graph->data()->size();
    for (int i = have; i < it.value().size(); ++i) graph->addData(it.value()[i].x(), it.value()[i].y());
    if (!it.value().isEmpty()) {
      keys.push_back(it.key());
      values.push_back(it.value().back().y());
    }
  }
  if (bars_->plottableCount() > 0)
    if (auto* b = qobject_cast<QCPBars*>(bars_->plottable(bars_->plottableCount() - 1))) b->setData(keys, values, true);
  if (feature_->graphCount() > 0) {
    auto* graph = feature_->graph(feature_->graphCount() - 1);
    for (int i = graph->data()->size(); i < s.feature.size(); ++i) graph->addData(s.feature[i].x(), s.feature[i].y());
  }
  if (!userNavigated_) fitAll();
  else
    for (auto* p : {curves_, bars_, feature_}) p->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionMsePlot::fitAll() {
  for (auto* plot : {curves_, feature_}) {
    plot->rescaleAxes();
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
      auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
      plot->yAxis->setTicker(ticker);
      // "g" keeps sub-decade ticks (0.025, 0.03) distinct; tiny values get a 10^n exponent.
      plot->yAxis->setNumberFormat("gb");
      plot->yAxis->setNumberPrecision(3);
    } else {
      plot->yAxis->setScaleType(QCPAxis::stLinear);
      plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
      plot->yAxis->setNumberFormat("gb");
      plot->yAxis->setNumberPrecision(3);
    }
  }
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

bool AttentionMsePlot::exportPng(const QString& path) {
  for (auto* p : {curves_, bars_, feature_}) p->replot(QCustomPlot::rpImmediateRefresh);
  return plotArea_->grab().save(path, "PNG");
}

bool AttentionMsePlot::svgAvailable() {
#ifdef ADALA_HAVE_QTSVG
  return true;
#else
  return false;
#endif
}

bool AttentionMsePlot::exportSvg(const QString& path) {
#ifdef ADALA_HAVE_QTSVG
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
#else
  Q_UNUSED(path);
  return false;
#endif
}

bool AttentionMsePlot::exportCsv(const QString& path) const {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) return false;
  QTextStream out(&file);
  out << "series,stage,key,block,step,value\n";
  auto quoted = [](QString s) { return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"'); };
  for (const auto& s : series_) {
    for (auto it = s.blocks.cbegin(); it != s.blocks.cend(); ++it)
      for (const auto& p : it.value())
        out << quoted(s.label) << ",attention_alignment,block_mse," << it.key() << ',' << qint64(p.x()) << ','
            << QString::number(p.y(), 'g', 10) << '\n';
    for (const auto& p : s.feature)
      out << quoted(s.label) << ",feature_alignment,loss,," << qint64(p.x()) << ',' << QString::number(p.y(), 'g', 10)
          << '\n';
  }
  return out.status() == QTextStream::Ok;
}

}  // namespace adala::widgets
