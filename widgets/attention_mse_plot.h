#pragma once
// The alignment plots of one or more runs (QCustomPlot):
//   * Stage 1: per-block attention MSE over steps, one curve per block (per run when comparing)
//   * the final per-block Stage-1 MSE as a bar chart (grouped by run)
//   * Stage 2: the feature-alignment MSE (the stage's loss) over steps
// Live while a run trains (appendSteps), or read from the run database afterwards
// (loadRuns, through its own read-only connection). Drag to pan, wheel to zoom, double-click
// to fit; export PNG / SVG / CSV of what is shown.
#include <QList>
#include <QMap>
#include <QPointF>
#include <QString>
#include <QVector>
#include <QWidget>

#include "widgets/run_types.h"

class QCustomPlot;
class QCheckBox;
class QLabel;
class QTimer;

namespace adala::widgets {

class AttentionMsePlot : public QWidget {
  Q_OBJECT
 public:
  explicit AttentionMsePlot(QWidget* parent = nullptr);

  // Drops every series.
  void clear();
  // Starts (replacing everything shown) a live series that appendSteps feeds.
  void startLiveRun(const QString& label);
  void appendSteps(const QVector<adala::widgets::StepUpdate>& steps);
  // Shows these runs from the database, overlaid (replacing what is shown). False + error
  // when the database cannot be read.
  bool loadRuns(const QString& dbPath, const QList<qint64>& runIds, QString* error = nullptr);

  void setLogScale(bool on);
  bool logScale() const { return logScale_; }
  void fitAll();

  bool exportPng(const QString& path);
  bool exportSvg(const QString& path);
  bool exportCsv(const QString& path) const;
  static bool svgAvailable();

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

 signals:
  void logScaleChanged(bool on);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  struct Series {
    QString label;
    QMap<int, QVector<QPointF>> blocks;  // Stage 1 block -> (step, MSE)
    QVector<QPointF> feature;            // Stage 2 (step, feature MSE)
  };

  void rebuild();
  void refreshLive();
  void applyTheme();
  void applyScale();

  QCustomPlot* curves_ = nullptr;
  QCustomPlot* bars_ = nullptr;
  QCustomPlot* feature_ = nullptr;
  QWidget* plotArea_ = nullptr;
  QCheckBox* logBox_ = nullptr;
  QLabel* summary_ = nullptr;
  QTimer* replotTimer_ = nullptr;

  QVector<Series> series_;
  bool liveDirty_ = false;
  bool structureDirty_ = false;
  bool userNavigated_ = false;
  bool logScale_ = true;
};

}  // namespace adala::widgets
