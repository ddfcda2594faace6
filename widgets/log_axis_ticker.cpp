#include "widgets/log_axis_ticker.h"

#include <algorithm>
#include <cmath>

namespace adala::widgets {

QVector<double> LogAxisTicker::niceTicks(double lower, double upper) {
  QVector<double> ticks;
  if (!(lower > 0) || !(upper > lower)) return ticks;
  const int first = int(std::floor(std::log10(lower))), last = int(std::ceil(std::log10(upper)));
  // Mantissas from fine to coarse: the finest set that gives at most 10 ticks in the range.
  const QVector<QVector<double>> sets = {
      {1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 5, 7}, {1, 2, 5}, {1, 3}, {1}};
  for (const auto& mantissas : sets) {
    ticks.clear();
    for (int e = first; e <= last; ++e)
      for (double m : mantissas) {
        const double v = m * std::pow(10.0, e);
        if (v >= lower * (1 - 1e-9) && v <= upper * (1 + 1e-9)) ticks << v;
      }
    if (ticks.size() <= 10) break;
  }
  if (ticks.size() > 10) {  // many decades: every other power of ten
    QVector<double> sparse;
    for (int i = 0; i < ticks.size(); i += 2) sparse << ticks[i];
    ticks = sparse;
  }
  return ticks;
}

QString LogAxisTicker::label(double value) {
  if (value >= 100) return QString::number(value, 'f', 0);
  return QString::number(value, 'g', 3);
}

// Ticks are not evenly spaced: sub-ticks between them would only mislead.
int LogAxisTicker::getSubTickCount(double) { return 0; }

QVector<double> LogAxisTicker::createTickVector(double, const QCPRange& range) {
  if (fixed_.isEmpty()) return niceTicks(range.lower, range.upper);
  QVector<double> ticks;
  for (double t : fixed_)
    if (t >= range.lower && t <= range.upper) ticks << t;
  std::sort(ticks.begin(), ticks.end());
  return ticks;
}

QString LogAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) { return label(tick); }

}  // namespace adala::widgets
