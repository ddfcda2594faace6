#include "widgets/runs/training_curves_plot.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include <qcustomplot.h>

#include "widgets/common/log_axis_ticker.h"
#include "widgets/common/plot_hover.h"
#include "widgets/common/plot_legend.h"
#include "widgets/common/plot_style.h"
#include "widgets/runs/run_types.h"
#include "engine/train/stage_catalog.h"

#include "engine/store/run_store.h"

namespace adala::widgets {
namespace {

constexpr const char* kRunProperty = "adalaRun";
constexpr const char* kMetricProperty = "adalaMetric";
constexpr const char* kStageProperty = "adalaStage";

void addTitle(QCustomPlot* plot, const QString& text) {
  plot->plotLayout()->insertRow(0);
  plot->plotLayout()->addElement(
      0, 0,
      new QCPTextElement(plot, text,
                         QFont(plot->font().family(), plot->font().pointSize(), QFont::Bold)));
}

// A graph of run `run`'s `metric` in `stage`; fillGraphs gives it its points.
QCPGraph* addGraph(QCustomPlot* plot, QCPAxis* valueAxis, const QColor& color, Qt::PenStyle style,
                   const QString& name, int run, int stage, TrainingCurvesPlot::Metric metric) {
  QCPGraph* g = plot->addGraph(plot->xAxis, valueAxis);
  QPen pen(color, 1.6, style);
  g->setPen(pen);
  g->setName(name);
  g->setProperty(kRunProperty, run);
  g->setProperty(kStageProperty, stage);
  g->setProperty(kMetricProperty, int(metric));
  return g;
}

const QVector<QPointF>& seriesOf(const StageCurves& s, TrainingCurvesPlot::Metric metric) {
  switch (metric) {
    case TrainingCurvesPlot::Metric::Loss:
      return s.loss;
    case TrainingCurvesPlot::Metric::LearningRate:
      return s.lr;
    case TrainingCurvesPlot::Metric::TrainAccuracy:
      break;
  }
  return s.trainAcc;
}

// The run's earliest logged wall time (NaN: none recorded).
double wallOrigin(const RunCurves& run) {
  double origin = std::numeric_limits<double>::quiet_NaN();
  for (const auto& s : run.stages)
    for (double t : s.wall)
      if (std::isfinite(t) && !(t >= origin)) origin = t;
  return origin;
}

// Both axes fitted to the data (the accuracy axis stays 0..1), the value axis with a margin.
void fitPlot(QCustomPlot* p, bool accuracyAxis) {
  p->rescaleAxes();
  if (accuracyAxis) p->yAxis2->setRange(0.0, 1.0);
  p->yAxis->scaleRange(1.1, p->yAxis->range().center());
}

}  // namespace

TrainingCurvesPlot::TrainingCurvesPlot(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  layout->addWidget(message_);
  controls_ = new SeriesControls(this);
  auto* controlsRow = new QHBoxLayout;
  controlsRow->addWidget(controls_);
  controlsRow->addStretch(1);
  layout->addLayout(controlsRow);
  liveTimer_ = new QTimer(this);
  liveTimer_->setSingleShot(true);
  liveTimer_->setInterval(100);  // live steps: at most 10 redraws a second
  connect(liveTimer_, &QTimer::timeout, this, &TrainingCurvesPlot::refreshLive);
  connect(controls_, &SeriesControls::smoothingChanged, this, [this] {
    fillGraphs();
    for (const Row& r : rows_)
      for (QCustomPlot* p : {r.loss, r.lr}) p->replot(QCustomPlot::rpQueuedReplot);
  });
  connect(controls_, &SeriesControls::xAxisChanged, this, &TrainingCurvesPlot::setXAxis);
  scroll_ = new QScrollArea(this);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  layout->addWidget(scroll_, 1);
  rebuild();
}

void TrainingCurvesPlot::clear() { setRuns({}); }

void TrainingCurvesPlot::setSmoothing(double weight) { controls_->setSmoothing(weight); }

double TrainingCurvesPlot::smoothing() const { return controls_->smoothing(); }

QSlider* TrainingCurvesPlot::smoothingSlider() const { return controls_->smoothingSlider(); }

QComboBox* TrainingCurvesPlot::xAxisBox() const { return controls_->xAxisBox(); }

void TrainingCurvesPlot::setXAxis(CurveXAxis axis) {
  controls_->setXAxis(axis);  // comes back here
  if (xAxis_ == axis) return;
  xAxis_ = axis;
  rebuild();
}

void TrainingCurvesPlot::appendSteps(qint64 runId, const QVector<StepUpdate>& steps) {
  if (runs_.size() != 1 || runs_.first().runId != runId) return;
  RunCurves& run = runs_.first();
  for (const StepUpdate& u : steps) {
    const int index = stageIndex(u.stage);
    if (!is_stage_index(index)) continue;
    auto s = std::find_if(run.stages.begin(), run.stages.end(),
                          [index](const StageCurves& c) { return c.index == index; });
    if (s == run.stages.end()) {
      StageCurves added;
      added.index = index;
      added.stage = u.stage;
      s = run.stages.insert(std::upper_bound(run.stages.begin(), run.stages.end(), added,
                                             [](const StageCurves& a, const StageCurves& b) {
                                               return a.index < b.index;
                                             }),
                            added);
      liveNewStage_ = true;
    }
    const double step = double(u.step);
    // A step logged again (a resumed run repeats its last one) replaces nothing: skipped.
    if (!s->loss.isEmpty() && s->loss.last().x() >= step) continue;
    s->loss << QPointF(step, u.loss);
    s->lr << QPointF(step, u.lr);
    if (const auto acc = u.extra.constFind(QStringLiteral("train_acc")); acc != u.extra.constEnd())
      s->trainAcc << QPointF(step, acc.value());
    if (const auto wall = u.extra.constFind(QLatin1String(kWallTimeKey));
        wall != u.extra.constEnd())
      s->wall[u.step] = wall.value();
    if (s->trainAcc.size() == 1 && s->loss.size() > 1) liveNewStage_ = true;  // a new axis
    liveDirty_ = true;
  }
  if (liveDirty_ && !liveTimer_->isActive()) liveTimer_->start();
}

void TrainingCurvesPlot::refreshLive() {
  if (!liveDirty_) return;
  liveDirty_ = false;
  if (liveNewStage_ || rows_.isEmpty()) {
    liveNewStage_ = false;
    rebuild();
    return;
  }
  fillGraphs();
  for (const Row& r : rows_) {
    fitPlot(r.loss, r.loss->yAxis2->visible());
    fitPlot(r.lr, false);
    for (QCustomPlot* p : {r.loss, r.lr}) p->replot(QCustomPlot::rpQueuedReplot);
  }
}

void TrainingCurvesPlot::fillGraphs() {
  const double weight = controls_->smoothing();
  const bool time = xAxis_ == CurveXAxis::WallTime;
  for (const Row& r : rows_)
    for (QCustomPlot* plot : {r.loss, r.lr})
      for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph* g = plot->graph(i);
        const int run = g->property(kRunProperty).toInt();
        const int stage = g->property(kStageProperty).toInt();
        const auto metric = Metric(g->property(kMetricProperty).toInt());
        if (run < 0 || run >= runs_.size()) continue;
        const auto& stages = runs_[run].stages;
        const auto s = std::find_if(stages.begin(), stages.end(),
                                    [stage](const StageCurves& c) { return c.index == stage; });
        if (s == stages.end()) continue;
        const double origin = time ? wallOrigin(runs_[run]) : 0.0;
        QVector<double> keys, values;
        for (const QPointF& p : seriesOf(*s, metric)) {
          double key = p.x();
          if (time) {
            const auto wall = s->wall.constFind(qint64(p.x()));
            if (wall == s->wall.constEnd() || !std::isfinite(origin)) continue;
            key = wall.value() - origin;
          }
          keys << key;
          values << p.y();
        }
        if (metric != Metric::LearningRate) values = emaSmooth(values, weight);
        g->setData(keys, values, true);
        g->setScatterStyle(keys.size() == 1 ? QCPScatterStyle(QCPScatterStyle::ssCircle, 5)
                                            : QCPScatterStyle());
      }
}

void TrainingCurvesPlot::setRuns(const QVector<RunCurves>& runs) {
  runs_ = runs;
  rebuild();
}

bool TrainingCurvesPlot::loadRuns(const QString& dbPath, const QList<qint64>& runIds,
                                  QString* error) {
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    QVector<RunCurves> runs;
    for (qint64 id : runIds) {
      RunCurves run;
      run.runId = id;
      const auto info = db.find_run(id);
      run.label =
          info ? tr("#%1 %2").arg(id).arg(QString::fromStdString(info->name)) : tr("#%1").arg(id);
      StageCurves stages[kStageCount];
      for (int i = 0; i < kStageCount; ++i) {
        stages[i].index = i;
        stages[i].stage = stageNames().value(i);
      }
      for (const auto& m : db.metrics(id, "", kWallTimeKey)) {
        const int index = stageIndex(QString::fromStdString(m.stage));
        if (is_stage_index(index) && m.block < 0) stages[index].wall[m.step] = m.value;
      }
      const std::pair<const char*, QVector<QPointF> StageCurves::*> keys[] = {
          {"loss", &StageCurves::loss},
          {"lr", &StageCurves::lr},
          {"train_acc", &StageCurves::trainAcc}};
      for (const auto& [key, member] : keys)
        for (const auto& m : db.metrics(id, "", key)) {
          const int index = stageIndex(QString::fromStdString(m.stage));
          if (!is_stage_index(index) || m.block >= 0) continue;
          (stages[index].*member).push_back(QPointF(double(m.step), m.value));
        }
      for (const auto& s : stages)
        if (!s.loss.isEmpty() || !s.lr.isEmpty() || !s.trainAcc.isEmpty()) run.stages << s;
      runs << run;
    }
    setRuns(runs);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

QList<int> TrainingCurvesPlot::stagesShown() const {
  QList<int> stages;
  for (const Row& r : rows_) stages << r.stage;
  return stages;
}

QCustomPlot* TrainingCurvesPlot::lossPlot(int stage) const {
  for (const Row& r : rows_)
    if (r.stage == stage) return r.loss;
  return nullptr;
}

QCustomPlot* TrainingCurvesPlot::lrPlot(int stage) const {
  for (const Row& r : rows_)
    if (r.stage == stage) return r.lr;
  return nullptr;
}

QVector<QPointF> TrainingCurvesPlot::plottedPoints(int stage, Metric metric, int run) const {
  QCustomPlot* plot = metric == Metric::LearningRate ? lrPlot(stage) : lossPlot(stage);
  QVector<QPointF> points;
  if (!plot) return points;
  for (int i = 0; i < plot->graphCount(); ++i) {
    QCPGraph* g = plot->graph(i);
    if (g->property(kRunProperty).toInt() != run ||
        g->property(kMetricProperty).toInt() != int(metric))
      continue;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
      points << QPointF(it->key, it->value);
  }
  return points;
}

void TrainingCurvesPlot::rebuild() {
  rows_.clear();
  delete scroll_->takeWidget();
  grid_ = new QWidget;
  auto* grid = new QGridLayout(grid_);
  grid->setContentsMargins(0, 0, 0, 0);

  const QList<int> stages = shownStages();
  showIntro(stages.isEmpty());
  const bool several = runs_.size() > 1;
  for (int stage : stages) rows_ << buildRow(stage, several);
  fillGraphs();  // the points, by step or wall time, smoothed
  for (int row = 0; row < rows_.size(); ++row) {
    const Row& r = rows_[row];
    finishRowPlots(r, several);
    grid->addWidget(r.loss, row, 0);
    grid->addWidget(r.lr, row, 1);
  }
  grid->setColumnStretch(0, 1);
  grid->setColumnStretch(1, 1);
  scroll_->setWidget(grid_);
  applyTheme();
}

QList<int> TrainingCurvesPlot::shownStages() const {
  QList<int> stages;
  for (const RunCurves& run : runs_)
    for (const StageCurves& s : run.stages)
      if (!stages.contains(s.index)) stages << s.index;
  std::sort(stages.begin(), stages.end());
  return stages;
}

void TrainingCurvesPlot::showIntro(bool noStages) {
  if (runs_.isEmpty())
    message_->setText(
        tr("Open a run (or compare several) to see every stage's loss and learning rate."));
  else if (noStages)
    message_->setText(tr("These runs logged no loss or learning rate."));
  else
    message_->setText(
        xAxis_ == CurveXAxis::WallTime
            ? tr("Loss (log axis; training accuracy dashed, right axis, where the stage logs it) "
                 "and learning rate of every stage, by wall time (steps logged without one are "
                 "left out). Drag to pan, wheel to zoom, double-click to fit.")
            : tr("Loss (log axis; training accuracy dashed, right axis, where the stage logs it) "
                 "and learning rate of every stage, by step. Drag to pan, wheel to zoom, "
                 "double-click to fit."));
}

// A stage's loss and learning-rate plots, with a graph per run that logged them (points
// come from fillGraphs) and their axes.
TrainingCurvesPlot::Row TrainingCurvesPlot::buildRow(int stage, bool several) {
  Row r;
  r.stage = stage;
  r.loss = new QCustomPlot(grid_);
  r.lr = new QCustomPlot(grid_);
  addTitle(r.loss, tr("%1 · loss").arg(stageTitle(stage)));
  addTitle(r.lr, tr("%1 · learning rate").arg(stageTitle(stage)));
  bool anyAcc = false;
  for (int i = 0; i < runs_.size(); ++i) {
    const RunCurves& run = runs_[i];
    const auto s = std::find_if(run.stages.begin(), run.stages.end(),
                                [stage](const StageCurves& c) { return c.index == stage; });
    if (s == run.stages.end()) continue;
    const QColor color = seriesColor(i);
    if (!s->loss.isEmpty())
      addGraph(r.loss, r.loss->yAxis, color, Qt::SolidLine, several ? run.label : tr("loss"), i,
               stage, Metric::Loss);
    if (!s->trainAcc.isEmpty()) {
      anyAcc = true;
      addGraph(r.loss, r.loss->yAxis2, color, Qt::DashLine,
               several ? tr("%1 · training accuracy").arg(run.label) : tr("training accuracy"), i,
               stage, Metric::TrainAccuracy);
    }
    if (!s->lr.isEmpty())
      addGraph(r.lr, r.lr->yAxis, color, Qt::SolidLine, several ? run.label : tr("learning rate"),
               i, stage, Metric::LearningRate);
  }
  SeriesControls::applyXAxis(r.loss->xAxis, xAxis_);
  r.loss->yAxis->setLabel(tr("loss"));
  r.loss->yAxis->setScaleType(QCPAxis::stLogarithmic);
  r.loss->yAxis->setTicker(QSharedPointer<LogAxisTicker>::create());
  r.loss->yAxis->setNumberFormat("gb");
  r.loss->yAxis->setNumberPrecision(3);
  if (anyAcc) {
    r.loss->yAxis2->setVisible(true);
    r.loss->yAxis2->setLabel(tr("training accuracy"));
    r.loss->yAxis2->setRange(0.0, 1.0);
  }
  SeriesControls::applyXAxis(r.lr->xAxis, xAxis_);
  r.lr->yAxis->setLabel(tr("learning rate"));
  r.lr->yAxis->setNumberFormat("gb");
  r.lr->yAxis->setNumberPrecision(3);
  return r;
}

// Once the points are in: each plot's size, fit, legend, hover and double-click to fit.
void TrainingCurvesPlot::finishRowPlots(const Row& r, bool several) {
  const CurveXAxis mode = xAxis_;
  const bool anyAcc = r.loss->yAxis2->visible();
  for (QCustomPlot* p : {r.loss, r.lr}) {
    p->setMinimumHeight(220);
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    fitPlot(p, p == r.loss && anyAcc);
    if (several || (p == r.loss && anyAcc)) {
      p->legend->setVisible(true);
      placeLegendOutside(p, LegendPlace::Below);
      enableLegendToggle(p);
    }
    auto* hover =
        new PlotHover(p, [mode](double key) { return SeriesControls::keyText(key, mode); });
    hover->setValueNote(p == r.loss ? controls_->valueNote() : QString());
    connect(controls_, &SeriesControls::smoothingChanged, hover, [hover, this, loss = p == r.loss] {
      hover->setValueNote(loss ? controls_->valueNote() : QString());
    });
    connect(p, &QCustomPlot::mouseDoubleClick, p, [p, accuracy = p == r.loss && anyAcc] {
      fitPlot(p, accuracy);
      p->replot();
    });
  }
}

void TrainingCurvesPlot::applyTheme() {
  for (const Row& r : rows_)
    for (QCustomPlot* p : {r.loss, r.lr}) {
      applyPlotPalette(p, palette(), font());
      updateLegendItemColors(p);
      p->replot();
    }
}

void TrainingCurvesPlot::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) applyTheme();
  if (event->type() == QEvent::LanguageChange) rebuild();
  QWidget::changeEvent(event);
}

}  // namespace adala::widgets
