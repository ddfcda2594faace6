#include "widgets/common/log_axis_ticker.h"

#include <algorithm>
#include <cmath>

namespace adala::widgets {

namespace {
constexpr double kSlack = 1e-9;  // relative: 1e-5 computed as pow(10, -5) still counts as inside
}

QVector<double> LogAxisTicker::niceTicks(double lower, double upper, int maxTicks) {
  QVector<double> ticks;
  if (!(lower > 0) || !(upper > lower)) return ticks;
  const int first = int(std::floor(std::log10(lower))), last = int(std::ceil(std::log10(upper)));
  // Mantissas from fine to coarse: the finest set that gives at most maxTicks in the range.
  const QVector<QVector<double>> sets = {
      {1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 5, 7}, {1, 2, 5}, {1, 3}, {1}};
  for (const auto& mantissas : sets) {
    ticks.clear();
    for (int e = first; e <= last; ++e)
      for (double m : mantissas) {
        const double v = m * std::pow(10.0, e);
        if (v >= lower * (1 - kSlack) && v <= upper * (1 + kSlack)) ticks << v;
      }
    if (ticks.size() <= maxTicks) break;
  }
  if (ticks.size() > maxTicks) {  // many decades: every other power of ten
    QVector<double> sparse;
    for (int i = 0; i < ticks.size(); i += 2) sparse << ticks[i];
    ticks = sparse;
  }
  return ticks;
}

QVector<double> LogAxisTicker::decadeTicks(double lower, double upper) {
  QVector<double> ticks;
  if (!(lower > 0) || !(upper > lower) || !std::isfinite(upper)) return ticks;
  const int first = int(std::floor(std::log10(lower))), last = int(std::ceil(std::log10(upper)));
  for (int e = first; e <= last; ++e) {
    const double v = std::pow(10.0, e);
    if (v >= lower * (1 - kSlack) && v <= upper * (1 + kSlack)) ticks << v;
  }
  return ticks;
}

QVector<double> LogAxisTicker::decadeSubTicks(const QVector<double>& decades) {
  QVector<double> sub;
  if (decades.isEmpty()) return sub;
  sub << decades.first() * 0.2 << decades.first() * 0.5;
  for (double d : decades) sub << d * 2 << d * 5;
  return sub;
}

bool LogAxisTicker::usesDecades(double lower, double upper) {
  return decadeTicks(lower, upper).size() >= 2;
}

QString LogAxisTicker::label(double value) {
  if (value >= 100 && value < 1e6) return QString::number(value, 'f', 0);
  // Below 0.01 always as mantissa "e" exponent ("1e-4", "2.5e-3"), which QCustomPlot draws as
  // 10⁻⁴ and 2.5·10⁻³: 'g' wrote 1e-4 as "0.0001" beside 10⁻⁵ on the same axis.
  if (value != 0 && std::abs(value) < 1e-2) {
    const int exponent = int(std::floor(std::log10(std::abs(value)) + 1e-9));
    const double mantissa = value / std::pow(10.0, exponent);
    return QString::number(mantissa, 'g', 3) + QStringLiteral("e") + QString::number(exponent);
  }
  return QString::number(value, 'g', 3);
}

int LogAxisTicker::getSubTickCount(double) { return decades_ ? 2 : 0; }

QVector<double> LogAxisTicker::createTickVector(double, const QCPRange& range) {
  decades_ = false;
  QVector<double> ticks;
  if (!fixed_.isEmpty()) {
    for (double t : fixed_)
      if (t >= range.lower && t <= range.upper) ticks << t;
    std::sort(ticks.begin(), ticks.end());
    return ticks;
  }
  if (usesDecades(range.lower, range.upper)) {
    decades_ = true;
    ticks = decadeTicks(range.lower, range.upper);
    ticks << ticks.last() * 10;  // the sub-ticks above the last decade need its successor
    return ticks;
  }
  return niceTicks(range.lower, range.upper, kMaxInDecade);
}

// Sub-ticks only between decades: between 1-2-5 or fixed ticks they would only mislead.
QVector<double> LogAxisTicker::createSubTickVector(int, const QVector<double>& ticks) {
  if (!decades_) return {};
  return decadeSubTicks(ticks);
}

QString LogAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) { return label(tick); }

}  // namespace adala::widgets
