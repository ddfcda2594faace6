#pragma once
// The resolution-scaling benchmark drawn (QCustomPlot, no LibTorch): GFLOPs, peak memory and
// latency against resolution on log-log axes, one curve per attention mode (softmax,
// softmax-chunked, linear), the resolution where the linear curve crosses the softmax one
// marked (or "no crossover in range"), the paper's ViT-L 1024² figures as reference markers,
// and a summary. Data from a benchmark run in the run database (read-only connection) or a
// CSV of `adala bench scaling --csv`; Export PNG / CSV of what is shown.
#include <QMap>
#include <QString>
#include <QVector>
#include <QWidget>

#include "widgets/scaling/scaling_data.h"

class QCheckBox;
class QCPErrorBars;
class QCPGraph;
class QFont;
class QCustomPlot;
class QLabel;
class QPushButton;

namespace adala::widgets {

struct ValueSpan;

class ScalingView : public QWidget {
  Q_OBJECT
 public:
  explicit ScalingView(QWidget* parent = nullptr);

  // Shows these points (replacing what is shown); `source` says where they came from.
  void setSamples(const QVector<ScalingSample>& samples, const QString& source);
  void clear();
  // While a benchmark runs: one point more (replacing the one of the same mode and
  // resolution), drawn at once; the resolutions it will measure set the x range from the
  // first point on (empty: the points' own).
  void addSample(const ScalingSample& sample);
  void setPlannedResolutions(const QVector<int>& resolutions);
  QVector<int> plannedResolutions() const { return planned_; }
  // False + error (and nothing changed) when there is nothing to show.
  bool loadCsv(const QString& path, QString* error = nullptr);
  bool loadRun(const QString& dbPath, qint64 runId, QString* error = nullptr);
  const QVector<ScalingSample>& samples() const { return samples_; }
  QString source() const { return source_; }

  // The paper's ViT-L 1024² points (shown by default, labelled "paper ViT-L").
  void setPaperPointsVisible(bool on);
  bool paperPointsVisible() const { return paperVisible_; }

  // The three plots side by side under a title line, as a PNG of width x height pixels.
  bool exportPng(const QString& path, int width = 2100, int height = 620);
  // The points shown, as readScalingCsv reads them back.
  bool exportCsv(const QString& path, QString* error = nullptr) const;

  // What is drawn (for tests and the status bar).
  QCustomPlot* plot(ScalingMetric metric) const { return plots_[int(metric)]; }
  QCPGraph* curve(ScalingMetric metric, const QString& mode) const;
  QCPGraph* attentionOnlyCurve(const QString& mode) const;  // GFLOPs plot, dashed
  QCPGraph* paperGraph(ScalingMetric metric) const;         // nullptr where none is drawn
  // The spread of a mode's measured points (nullptr where none was recorded).
  QCPErrorBars* errorBars(ScalingMetric metric, const QString& mode) const;
  Crossover crossover(ScalingMetric metric) const { return crossovers_[int(metric)]; }
  // Softmax and linear were measured with a spread: the crossover is claimed only where the
  // intervals separate (GFLOPs, analytic, and points without a spread: crossover()).
  IntervalCrossover intervalCrossover(ScalingMetric metric) const {
    return intervalCrossovers_[int(metric)];
  }
  bool usesIntervals(ScalingMetric metric) const {
    return intervalCrossovers_[int(metric)].comparable();
  }
  QString crossoverText(ScalingMetric metric) const;   // the whole sentence (summary)
  QString crossoverLabel(ScalingMetric metric) const;  // short, drawn on the plot
  QString summaryText() const;
  // The benchmark's flag where its reference-matmul rate moved by more than 25 % ("unsteady:
  // matmul rate moved 26 % (100.0-126.0 GFLOP/s)"), shown above the summary; empty otherwise.
  QString unsteadyFlag() const;
  QLabel* flagLabel() const { return flag_; }
  QPushButton* exportPngButton() const { return exportPngButton_; }
  QPushButton* exportCsvButton() const { return exportCsvButton_; }

  static QColor modeColor(const QString& mode);

 signals:
  void message(const QString& text);  // what an export did, for the status bar

 protected:
  void changeEvent(QEvent* event) override;

 private:
  QCustomPlot* buildMetricPlot(const QString& title, const QString& yLabel);
  // Redraws the plots, the source line and the summary from samples_.
  void rebuild();
  void addMeasuredCurves(ScalingMetric metric, const QStringList& modes, ValueSpan& values);
  void addAttentionOnlyCurves(const QStringList& modes, ValueSpan& values);
  void addPaperPoints(ScalingMetric metric, const QFont& labelFont, ValueSpan& values);
  void addCrossoverNote(ScalingMetric metric, const QFont& labelFont);
  void updateSourceLine();
  QString summaryHtml() const;
  QString loadHtml() const;
  QString rateHtml() const;
  QString medianCrossoverText(ScalingMetric metric) const;
  QString hoverKeyText(double key) const;
  QString intervalText(ScalingMetric metric) const;
  QString notMeasuredHtml() const;
  QString savingsHtml() const;
  void exportPngDialog();
  void exportCsvDialog();

  QCustomPlot* plots_[kScalingMetricCount] = {};
  QLabel* summary_ = nullptr;
  QLabel* flag_ = nullptr;  // the unsteady flag, hidden while there is none
  QLabel* sourceLabel_ = nullptr;
  QCheckBox* paperBox_ = nullptr;
  QPushButton* exportPngButton_ = nullptr;
  QPushButton* exportCsvButton_ = nullptr;

  QVector<ScalingSample> samples_;
  QString source_;
  bool paperVisible_ = true;
  QVector<int> planned_;
  QMap<QString, QCPGraph*> curves_[kScalingMetricCount];
  QMap<QString, QCPErrorBars*> errorBars_[kScalingMetricCount];
  IntervalCrossover intervalCrossovers_[kScalingMetricCount];
  QMap<QString, QCPGraph*> attentionCurves_;
  QCPGraph* paperGraphs_[kScalingMetricCount] = {};
  Crossover crossovers_[kScalingMetricCount];
};

}  // namespace adala::widgets
