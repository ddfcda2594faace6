#pragma once
// The alignment plots of one or more runs (QCustomPlot):
//   * Stage 1: per-block attention MSE over steps, one curve per block (per run when comparing)
//   * the final per-block Stage-1 MSE as a bar chart (grouped by run)
//   * Stage 2: the feature-alignment MSE (the stage's loss) over steps
// Live while a run trains (appendSteps), or read from the run database afterwards
// (loadRuns, through its own read-only connection). Drag to pan, wheel to zoom, double-click
// to fit; hover a point for its value; click a legend entry to hide / show its curve; an EMA
// smoothing slider; the x axis by step or by wall time (the "wall_time" each logged step
// records, seconds since the epoch; runs recorded before it have none); export PNG / SVG /
// CSV of what is shown (the CSV holds the raw values).
#include <QList>
#include <QMap>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include "widgets/runs/run_types.h"
#include "widgets/common/series_smoothing.h"

class QCustomPlot;
class QCPGraph;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSlider;
class QTimer;

namespace adala::widgets {

class PlotHover;

class AttentionMsePlot : public QWidget {
  Q_OBJECT
 public:
  explicit AttentionMsePlot(QWidget* parent = nullptr);

  // Drops every series.
  void clear();
  // Starts (replacing everything shown) a live series that appendSteps feeds; with a database
  // and a run, the series starts from the run's recorded history (a resumed run).
  void startLiveRun(const QString& label, const QString& dbPath = QString(), qint64 runId = -1);
  void appendSteps(const QVector<adala::widgets::StepUpdate>& steps);
  // Shows these runs from the database, overlaid (replacing what is shown). False + error
  // when the database cannot be read.
  bool loadRuns(const QString& dbPath, const QList<qint64>& runIds, QString* error = nullptr);

  void setLogScale(bool on);
  bool logScale() const { return logScale_; }

  // EMA smoothing weight of the curves in [0, 0.99] (0: raw values), the slider's value / 100.
  void setSmoothing(double weight);
  double smoothing() const;
  using XAxis = CurveXAxis;
  void setXAxis(XAxis axis);
  XAxis xAxis() const { return xAxis_; }
  void fitAll();

  bool exportPng(const QString& path);
  bool exportSvg(const QString& path);
  bool exportCsv(const QString& path) const;

  // What is shown (for tests and the status bar).
  int seriesCount() const { return series_.size(); }
  int stage1CurveCount() const;
  int stage1PointCount(int curve) const;
  QString stage1CurveName(int curve) const;
  int barCount() const;
  int stage2PointCount() const;
  QCustomPlot* stage1Plot() const { return curves_; }
  QCustomPlot* barPlot() const { return bars_; }
  QCustomPlot* stage2Plot() const { return feature_; }
  QSlider* smoothingSlider() const { return controls_->smoothingSlider(); }
  QComboBox* xAxisBox() const { return controls_->xAxisBox(); }
  PlotHover* stage1Hover() const { return curvesHover_; }
  PlotHover* stage2Hover() const { return featureHover_; }

 signals:
  void logScaleChanged(bool on);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  struct Series {
    QString label;
    QMap<int, QVector<QPointF>> blocks;  // Stage 1 block -> (step, MSE)
    QVector<QPointF> feature;            // Stage 2 (step, feature MSE)
    QMap<qint64, double> wall1, wall2;   // Stage 1 / 2 step -> wall time (s since the epoch)
    double wallOrigin() const;           // the earliest wall time, NaN without any
  };
  // Which series a graph draws: run index, and block (-1: the Stage-2 curve).
  struct GraphSource {
    int run = 0, block = -1;
  };

  QHBoxLayout* buildToolbar();
  QWidget* buildPlotArea();
  void setUpPlots();
  void rebuild();
  int addSeriesPlottables(bool compare);
  void updateSummary();
  // The graphs' points from series_: step or elapsed wall time, smoothed.
  void fillGraphs();
  void fillGraph(QCPGraph* graph, const GraphSource& source) const;
  void applyXAxis();
  void refreshLive();
  void applyTheme();
  void applyScale();

  QCustomPlot* curves_ = nullptr;
  QCustomPlot* bars_ = nullptr;
  QCustomPlot* feature_ = nullptr;
  QWidget* plotArea_ = nullptr;
  QCheckBox* logBox_ = nullptr;
  QLabel* summary_ = nullptr;
  SeriesControls* controls_ = nullptr;  // smoothing, x axis (shared with the loss & lr tab)
  PlotHover* curvesHover_ = nullptr;
  PlotHover* featureHover_ = nullptr;
  QTimer* replotTimer_ = nullptr;

  QVector<Series> series_;
  QVector<GraphSource> curveSources_, featureSources_;  // per graph of curves_ / feature_
  QStringList hidden_;  // names of the curves hidden from the legend (kept across rebuilds)
  XAxis xAxis_ = XAxis::Step;
  bool liveDirty_ = false;
  bool structureDirty_ = false;
  bool userNavigated_ = false;
  bool logScale_ = true;
};

}  // namespace adala::widgets
