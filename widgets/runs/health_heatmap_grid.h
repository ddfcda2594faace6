#pragma once
// The health heat map's cells, worked out from its plain rows before anything is drawn: the
// stages shown and where their steps fall on the x axis, each value's cell and the steps it
// covers, the colour map's columns and the colour range.
#include <QHash>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

#include "widgets/runs/health_heatmap.h"

class QCPRange;

namespace adala::widgets {

// The stages shown, in pipeline order, each with the offset that puts its steps on the x axis:
// one stage at its own steps; all stages (those with rows of the key) one after another. A
// stage logged from step 0 logs at the start of each interval (a value covers
// [s, s + interval)) and lasts until one interval after its last row; one logged from a later
// step counts its steps from 1 (a value covers (s - interval, s]) and ends at its last row.
struct HeatmapStages {
  QStringList shown;
  QHash<QString, qint64> offset;
  QHash<QString, qint64> firstStep;  // all stages: each one's first recorded step
};
HeatmapStages heatmapStages(const QVector<HealthSample>& samples, const QString& key,
                            const QString& stage, bool all);

using HeatmapCell = QPair<int, qint64>;  // (block, global step)

struct HeatmapExtent {
  qint64 from = 0, to = 0;  // the global steps a value covers
  QString stage;
};

// Cells: the (global) steps of the stages shown (any health key), every block seen. With all
// stages, a value covers its stage's logging interval, so stages logged at different intervals
// share one grid without empty columns between their rows. A cell is non-finite where a row of
// one of `nonfiniteKeys` counts more than zero (or NaN).
struct HeatmapCells {
  QVector<qint64> steps;  // sorted, each once
  int blocks = 0;
  QMap<HeatmapCell, double> values, nonfinite;
  QMap<HeatmapCell, HeatmapExtent> extent;
};
HeatmapCells heatmapCells(const QVector<HealthSample>& samples, const QString& key,
                          const QStringList& nonfiniteKeys, const HeatmapStages& stages, bool all);

// Steps on a regular grid (their greatest common spacing), so the x axis reads in steps; a step
// without rows is an empty cell. Very long runs get one column per recorded step instead.
struct HeatmapColumns {
  qint64 spacing = 0;  // 0: one column per recorded step
  qint64 first = 0, last = 0, count = 0;
  QVector<qint64> steps;  // the step of each column
  int columnOf(qint64 step) const;
  double x0() const { return double(first); }
  double x1() const { return spacing > 0 ? double(last) : double(first + count - 1); }
  double halfWidth() const { return spacing > 0 ? 0.5 * double(spacing) : 0.5; }
};
HeatmapColumns heatmapColumns(const QVector<qint64>& steps);

// The colour range over the values the scale can draw (positive ones on a log scale).
QCPRange heatmapColourRange(const QMap<HeatmapCell, double>& values, bool log);

}  // namespace adala::widgets
