#pragma once
// The numerical health of a run's training as a block × step heatmap (QCustomPlot colour map):
// one health metric (smallest linear-attention normaliser, share of small normalisers,
// non-finite counts, largest activation) of one stage, chosen with two combo boxes. Cells
// where any non-finite count (attention output, block output or gradient) is above zero are
// outlined in red. Drawn from plain rows (HealthSample), read from the run database through
// its own read-only connection (loadRun) or handed over (setSamples). The same view shows the
// per-block alignment MSE ("block_mse": Stage 1 attention output, Stage 2 hidden state); with
// "all stages" chosen, the stages' steps follow one another on one global step axis and a
// labelled vertical line marks where each stage begins.
#include <QHash>
#include <QPoint>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPAbstractItem;
class QCPTextElement;
class QLabel;

namespace adala::widgets {

struct HeatmapStages;
struct HeatmapCells;
struct HeatmapColumns;

// One stored health metric value: key "health.*", per (stage, step, block).
struct HealthSample {
  QString stage;
  qint64 step = 0;
  QString key;
  int block = 0;
  double value = 0.0;
};

class HealthHeatmap : public QWidget {
  Q_OBJECT
 public:
  explicit HealthHeatmap(QWidget* parent = nullptr);

  // The health keys the training loop writes, in the order the key combo lists them.
  static QStringList healthKeys();
  // The per-block alignment MSE the alignment stages write, offered after the health keys.
  static QString alignmentKey();
  // The stage combo's data for "all stages, one after another on a global step axis".
  static QString allStages();
  // Whether the key is drawn on a logarithmic colour scale.
  static bool logScaleKey(const QString& key);

  // Shows the run's health rows (replacing what is shown). False + error when the database
  // cannot be read.
  bool loadRun(const QString& dbPath, qint64 runId, QString* error = nullptr);
  void setSamples(const QVector<HealthSample>& samples);
  void clear();
  qint64 runId() const { return runId_; }

  // Current selection; false when the key or stage is not offered.
  bool setKey(const QString& key);
  bool setStage(const QString& stage);
  QString key() const;
  QString stage() const;
  QStringList stages() const;

  // What is drawn (for tests).
  QCPColorMap* colorMap() const { return map_; }
  QCPColorScale* colorScale() const { return scale_; }
  QCustomPlot* plot() const { return plot_; }
  bool isMarked(int block, qint64 step) const;
  // With all stages shown: the global step at which each stage after the first begins (its
  // first recorded step), where a boundary line is drawn; empty for a single stage.
  QVector<qint64> boundarySteps() const { return boundarySteps_; }
  QVector<QCPAbstractItem*> boundaryItems() const { return boundaryItems_; }
  int markedCount() const { return marked_.size(); }
  QComboBox* keyCombo() const { return keyBox_; }
  QComboBox* stageCombo() const { return stageBox_; }
  // The tooltip for the mouse at `pixel` (plot coordinates): block, step, metric and value of
  // the cell under it; empty outside the map. lastHoverText: what the last mouse move showed.
  QString hoverText(const QPoint& pixel) const;
  QString lastHoverText() const { return lastHover_; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void buildPlot();
  void rebuildStages();
  void redraw();
  void clearOverlays();
  void applyKeyToAxes(const QString& key, bool all, bool log);
  // Returns, per stage, the first column it fills.
  QHash<QString, int> fillCells(const HeatmapCells& cells, const HeatmapColumns& columns);
  void outlineNonfinite(const HeatmapCells& cells, const HeatmapColumns& columns);
  void drawStageBoundaries(const HeatmapStages& stages, const QHash<QString, int>& firstColumn,
                           double halfWidth);
  void applyTheme();

  QComboBox* stageBox_ = nullptr;
  QComboBox* keyBox_ = nullptr;
  QLabel* summary_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  QVector<HealthSample> samples_;
  QVector<QPair<int, qint64>> marked_;  // (block, step) with non-finite values in the view
  QVector<QCPAbstractItem*> markedItems_;
  QVector<qint64> boundarySteps_;
  QVector<QCPAbstractItem*> boundaryItems_;  // a line and a label per stage start
  QCPTextElement* title_ = nullptr;
  QVector<qint64> columnSteps_;  // the step of each colour-map column
  QString lastHover_;
  qint64 runId_ = 0;
};

}  // namespace adala::widgets
