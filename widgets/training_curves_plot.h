#pragma once
// Every stage's training curves, read from the run database: for each stage that logged any
// (Stage 0 teacher pretraining, 1 attention alignment, 2 feature alignment, 3 fine-tuning) a
// row of two plots, the loss (log axis; with the training accuracy on a right-hand axis where
// the stage logs one) and the learning rate, over the stage's steps. Several runs overlay (one
// colour per run). Draws RunCurves (plain data); loadRuns reads them through its own
// read-only connection (three small queries per run, on open only).
#include <QList>
#include <QPointF>
#include <QString>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QScrollArea;

namespace adala::widgets {

struct StageCurves {
  QString stage;                        // as the database spells it
  int index = 0;                        // 0..3
  QVector<QPointF> loss, lr, trainAcc;  // (step, value), by step
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

  QVector<RunCurves> runs_;
  QLabel* message_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  QWidget* grid_ = nullptr;
  // Per stage shown: its loss and lr plots.
  struct Row {
    int stage = 0;
    QCustomPlot* loss = nullptr;
    QCustomPlot* lr = nullptr;
  };
  QVector<Row> rows_;
};

}  // namespace adala::widgets
