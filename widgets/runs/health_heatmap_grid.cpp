#include "widgets/runs/health_heatmap_grid.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <qcustomplot.h>

namespace adala::widgets {

HeatmapStages heatmapStages(const QVector<HealthSample>& samples, const QString& key,
                            const QString& stage, bool all) {
  HeatmapStages out;
  if (!all) {
    out.shown << stage;
    out.offset[stage] = 0;
    return out;
  }
  QHash<QString, QVector<qint64>> stageSteps;
  for (const auto& s : samples) {
    if (s.key != key) continue;
    if (!out.shown.contains(s.stage)) out.shown << s.stage;
    stageSteps[s.stage] << s.step;
  }
  qint64 next = 0;
  for (const QString& name : std::as_const(out.shown)) {
    auto& st = stageSteps[name];
    std::sort(st.begin(), st.end());
    qint64 gap = 0;
    for (int i = 1; i < st.size(); ++i) gap = std::gcd(gap, st[i] - st[0]);
    const qint64 interval = gap > 0 ? gap : 1;
    out.firstStep[name] = st.first();
    out.offset[name] = next;
    next += st.last() + (st.first() == 0 ? interval : 0);
  }
  return out;
}

namespace {

// Per stage, the gap between its logged steps seen most often (the smallest of ties); sorts
// each stage's steps and keeps each once.
QHash<QString, qint64> usualLoggingGaps(QHash<QString, QVector<qint64>>& logged) {
  QHash<QString, qint64> usualGap;
  for (auto it = logged.begin(); it != logged.end(); ++it) {
    auto& st = it.value();
    std::sort(st.begin(), st.end());
    st.erase(std::unique(st.begin(), st.end()), st.end());
    QMap<qint64, int> gaps;
    for (int i = 1; i < st.size(); ++i) ++gaps[st[i] - st[i - 1]];
    qint64 usual = 0;
    int seen = 0;
    for (auto g = gaps.cbegin(); g != gaps.cend(); ++g)
      if (g.value() > seen) usual = g.key(), seen = g.value();
    usualGap[it.key()] = usual;
  }
  return usualGap;
}

// A value covers the steps up to the next logged one (a stage logging from step 0 logs at the
// start of each interval) or back to the previous one (logging at its end, as the training loop
// does), where that gap is no longer than the stage's usual logging interval: its cells are
// contiguous even where the last step breaks the interval (936 after 930), and a longer gap
// (steps that logged nothing) stays empty.
HeatmapExtent heatmapExtent(const HeatmapCell& cell, const QString& stage,
                            const QVector<qint64>& st, qint64 usual, qint64 offset, bool all) {
  const qint64 step = cell.second;
  const auto i = std::lower_bound(st.begin(), st.end(), step) - st.begin();
  HeatmapExtent e{step, step, stage};
  if (st.first() - offset == 0) {
    if (i + 1 < st.size() && st[i + 1] - step <= usual) e.to = st[i + 1] - 1;
  } else if (i > 0 && step - st[i - 1] <= usual) {
    e.from = st[i - 1] + 1;
  } else if (i == 0 && all && usual > 0) {
    e.from = std::max(offset + 1, step - usual + 1);  // the stage's first interval
  }
  return e;
}

}  // namespace

HeatmapCells heatmapCells(const QVector<HealthSample>& samples, const QString& key,
                          const QStringList& nonfiniteKeys, const HeatmapStages& stages, bool all) {
  HeatmapCells out;
  QMap<HeatmapCell, QString> valueStage;
  QHash<QString, QVector<qint64>> logged;  // per stage, the (global) steps that logged `key`
  for (const auto& s : samples) {
    if (!stages.offset.contains(s.stage)) continue;
    const qint64 step = stages.offset.value(s.stage) + s.step;
    out.steps << step;
    out.blocks = std::max(out.blocks, s.block + 1);
    if (s.key == key) {
      out.values[qMakePair(s.block, step)] = s.value;
      valueStage[qMakePair(s.block, step)] = s.stage;
      logged[s.stage] << step;
    }
    if (nonfiniteKeys.contains(s.key) && (s.value > 0 || std::isnan(s.value)))
      out.nonfinite[qMakePair(s.block, step)] += 1;
  }
  std::sort(out.steps.begin(), out.steps.end());
  out.steps.erase(std::unique(out.steps.begin(), out.steps.end()), out.steps.end());
  const QHash<QString, qint64> usualGap = usualLoggingGaps(logged);
  for (auto it = out.values.cbegin(); it != out.values.cend(); ++it) {
    const QString& stage = valueStage[it.key()];
    out.extent[it.key()] = heatmapExtent(it.key(), stage, logged[stage], usualGap[stage],
                                         stages.offset.value(stage), all);
  }
  return out;
}

int HeatmapColumns::columnOf(qint64 step) const {
  if (spacing > 0) return int((step - first) / spacing);
  return int(std::lower_bound(steps.begin(), steps.end(), step) - steps.begin());
}

HeatmapColumns heatmapColumns(const QVector<qint64>& steps) {
  HeatmapColumns out;
  for (int i = 1; i < steps.size(); ++i) out.spacing = std::gcd(out.spacing, steps[i] - steps[0]);
  if (out.spacing <= 0) out.spacing = 1;
  out.first = steps.first();
  out.last = steps.last();
  out.count = (out.last - out.first) / out.spacing + 1;
  if (out.count > 4096) {
    out.spacing = 0;
    out.count = steps.size();
  }
  if (out.spacing > 0)
    for (qint64 st = out.first; st <= out.last; st += out.spacing) out.steps << st;
  else
    out.steps = steps;
  return out;
}

QCPRange heatmapColourRange(const QMap<HeatmapCell, double>& values, bool log) {
  QCPRange range;
  bool any = false;
  for (double v : values) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    if (!any) range = QCPRange(v, v);
    range.expand(v);
    any = true;
  }
  if (!any) range = log ? QCPRange(1e-6, 1) : QCPRange(0, 1);
  if (range.size() <= 0)
    range = log ? QCPRange(range.lower / 2, range.upper * 2)
                : QCPRange(range.lower - 0.5, range.upper + 0.5);
  return range;
}

}  // namespace adala::widgets
