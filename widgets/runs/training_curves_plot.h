#pragma once
// Every stage's training curves, read from the run database: for each stage that logged any
// (Stage 0 teacher pretraining, 1 attention alignment, 2 feature alignment, 3 fine-tuning) a
// row of two plots, the loss (log axis; with the training accuracy on a right-hand axis where
// the stage logs one) and the learning rate, over the stage's steps. Several runs overlay (one
// colour per run). Draws RunCurves (plain data); loadRuns reads them through its own
// read-only connection (four small queries per run, on open only); a live run's logged steps
// are appended as they arrive (appendSteps). A smoothing slider (EMA of loss and training
// accuracy) and an x axis by step or by wall time, as the MSE plots have (SeriesControls).
#include <QList>
#include <QMap>
#include <QPointF>
#include <QString>
#include <QVector>
#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QScrollArea;
class QSlider;
class QTimer;

#include "widgets/runs/run_types.h"
#include "widgets/common/series_smoothing.h"

namespace adala::widgets {

struct StageCurves {
  QString stage;                        // as the database spells it
  int index = 0;                        // 0..3
  QVector<QPointF> loss, lr, trainAcc;  // (step, value), by step
  QMap<qint64, double> wall;            // step -> wall-clock time (s since the epoch)
};

struct RunCurves {
  qint64 runId = -1;
  QString label;
  QVector<StageCurves> stages;  // by stage index, only stages with any curve
};

class TrainingCurvesPlot : public QWidget {
  Q_OBJECT
 public:
  enum class Metric { Loss, LearningRate, TrainAccuracy };

  explicit TrainingCurvesPlot(QWidget* parent = nullptr);

  // False + error when the database cannot be read (what was shown stays).
  bool loadRuns(const QString& dbPath, const QList<qint64>& runIds, QString* error = nullptr);
  void setRuns(const QVector<RunCurves>& runs);
  void clear();
  const QVector<RunCurves>& runs() const { return runs_; }

  // The live run: its logged steps (loss, lr, training accuracy, wall time), added to the one
  // run shown (`runId`'s; nothing happens while other runs are shown), drawn within 100 ms.
  void appendSteps(qint64 runId, const QVector<adala::widgets::StepUpdate>& steps);

  // EMA smoothing of the loss and training-accuracy curves, [0, 0.99] (0: raw values).
  void setSmoothing(double weight);
  double smoothing() const;
  void setXAxis(CurveXAxis axis);
  CurveXAxis xAxis() const { return xAxis_; }
  QSlider* smoothingSlider() const;
  QComboBox* xAxisBox() const;

  // What is drawn (read back from the plots' graphs, for tests): the stages with a row, and
  // the points of run `run`'s curve of `metric` in stage `stage` (empty: no such curve).
  QList<int> stagesShown() const;
  QVector<QPointF> plottedPoints(int stage, Metric metric, int run = 0) const;
  QCustomPlot* lossPlot(int stage) const;
  QCustomPlot* lrPlot(int stage) const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void applyTheme();
  // The graphs' points from runs_: by step or elapsed wall time, loss and accuracy smoothed.
  void fillGraphs();
  void refreshLive();

  QVector<RunCurves> runs_;
  QLabel* message_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  QWidget* grid_ = nullptr;
  SeriesControls* controls_ = nullptr;
  QTimer* liveTimer_ = nullptr;
  CurveXAxis xAxis_ = CurveXAxis::Step;
  bool liveDirty_ = false, liveNewStage_ = false;
  // Per stage shown: its loss and lr plots.
  struct Row {
    int stage = 0;
    QCustomPlot* loss = nullptr;
    QCustomPlot* lr = nullptr;
  };
  QVector<Row> rows_;

  QList<int> shownStages() const;  // every stage any run has, in stage order
  void showIntro(bool noStages);
  Row buildRow(int stage, bool several);
  void finishRowPlots(const Row& r, bool several);
};

}  // namespace adala::widgets
