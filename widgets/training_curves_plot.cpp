#include "widgets/training_curves_plot.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "widgets/log_axis_ticker.h"
#include "widgets/plot_hover.h"
#include "widgets/plot_legend.h"
#include "widgets/plot_style.h"
#include "widgets/run_types.h"

#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#endif

namespace adala::widgets {
namespace {

constexpr const char* kRunProperty = "adalaRun";
constexpr const char* kMetricProperty = "adalaMetric";

void addTitle(QCustomPlot* plot, const QString& text) {
  plot->plotLayout()->insertRow(0);
  plot->plotLayout()->addElement(
      0, 0,
      new QCPTextElement(plot, text,
                         QFont(plot->font().family(), plot->font().pointSize(), QFont::Bold)));
}

QCPGraph* addGraph(QCustomPlot* plot, QCPAxis* valueAxis, const QVector<QPointF>& points,
                   const QColor& color, Qt::PenStyle style, const QString& name, int run,
                   TrainingCurvesPlot::Metric metric) {
  QCPGraph* g = plot->addGraph(plot->xAxis, valueAxis);
  QVector<double> keys, values;
  keys.reserve(points.size());
  values.reserve(points.size());
  for (const QPointF& p : points) {
    keys << p.x();
    values << p.y();
  }
  g->setData(keys, values, true);
  QPen pen(color, 1.6, style);
  g->setPen(pen);
  g->setName(name);
  g->setProperty(kRunProperty, run);
  g->setProperty(kMetricProperty, int(metric));
  if (points.size() == 1) g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
  return g;
}

}  // namespace

TrainingCurvesPlot::TrainingCurvesPlot(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  layout->addWidget(message_);
  scroll_ = new QScrollArea(this);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  layout->addWidget(scroll_, 1);
  rebuild();
}

void TrainingCurvesPlot::clear() { setRuns({}); }

void TrainingCurvesPlot::setRuns(const QVector<RunCurves>& runs) {
  runs_ = runs;
  rebuild();
}

bool TrainingCurvesPlot::loadRuns(const QString& dbPath, const QList<qint64>& runIds,
                                  QString* error) {
#ifdef ADALA_HAVE_STORE
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    QVector<RunCurves> runs;
    for (qint64 id : runIds) {
      RunCurves run;
      run.runId = id;
      const auto info = db.find_run(id);
      run.label =
          info ? tr("#%1 %2").arg(id).arg(QString::fromStdString(info->name)) : tr("#%1").arg(id);
      StageCurves stages[4];
      for (int i = 0; i < 4; ++i) {
        stages[i].index = i;
        stages[i].stage = stageNames().value(i);
      }
      const std::pair<const char*, QVector<QPointF> StageCurves::*> keys[] = {
          {"loss", &StageCurves::loss},
          {"lr", &StageCurves::lr},
          {"train_acc", &StageCurves::trainAcc}};
      for (const auto& [key, member] : keys)
        for (const auto& m : db.metrics(id, "", key)) {
          const int index = stageIndex(QString::fromStdString(m.stage));
          if (index < 0 || index > 3 || m.block >= 0) continue;
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
#else
  Q_UNUSED(dbPath);
  Q_UNUSED(runIds);
  if (error) *error = tr("no run database in this build");
  return false;
#endif
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

  QList<int> stages;
  for (const RunCurves& run : runs_)
    for (const StageCurves& s : run.stages)
      if (!stages.contains(s.index)) stages << s.index;
  std::sort(stages.begin(), stages.end());
  if (runs_.isEmpty())
    message_->setText(
        tr("Open a run (or compare several) to see every stage's loss and learning rate."));
  else if (stages.isEmpty())
    message_->setText(tr("These runs logged no loss or learning rate."));
  else
    message_->setText(tr(
        "Loss (log axis; training accuracy dashed, right axis, where the stage logs it) and "
        "learning rate of every stage, by step. Drag to pan, wheel to zoom, double-click to fit."));

  const bool several = runs_.size() > 1;
  for (int row = 0; row < stages.size(); ++row) {
    const int stage = stages[row];
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
        addGraph(r.loss, r.loss->yAxis, s->loss, color, Qt::SolidLine,
                 several ? run.label : tr("loss"), i, Metric::Loss);
      if (!s->trainAcc.isEmpty()) {
        anyAcc = true;
        addGraph(r.loss, r.loss->yAxis2, s->trainAcc, color, Qt::DashLine,
                 several ? tr("%1 · training accuracy").arg(run.label) : tr("training accuracy"), i,
                 Metric::TrainAccuracy);
      }
      if (!s->lr.isEmpty())
        addGraph(r.lr, r.lr->yAxis, s->lr, color, Qt::SolidLine,
                 several ? run.label : tr("learning rate"), i, Metric::LearningRate);
    }
    r.loss->xAxis->setLabel(tr("step"));
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
    r.lr->xAxis->setLabel(tr("step"));
    r.lr->yAxis->setLabel(tr("learning rate"));
    r.lr->yAxis->setNumberFormat("gb");
    r.lr->yAxis->setNumberPrecision(3);
    for (QCustomPlot* p : {r.loss, r.lr}) {
      p->setMinimumHeight(220);
      p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
      p->rescaleAxes();
      if (p == r.loss && anyAcc) r.loss->yAxis2->setRange(0.0, 1.0);
      p->yAxis->scaleRange(1.1, p->yAxis->range().center());
      if (several || (p == r.loss && anyAcc)) {
        p->legend->setVisible(true);
        placeLegendOutside(p, LegendPlace::Below);
        enableLegendToggle(p);
      }
      new PlotHover(p);
      connect(p, &QCustomPlot::mouseDoubleClick, p, [p] {
        p->rescaleAxes();
        p->replot();
      });
    }
    grid->addWidget(r.loss, row, 0);
    grid->addWidget(r.lr, row, 1);
    rows_ << r;
  }
  grid->setColumnStretch(0, 1);
  grid->setColumnStretch(1, 1);
  scroll_->setWidget(grid_);
  applyTheme();
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
