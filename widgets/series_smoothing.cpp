#include "widgets/series_smoothing.h"

#include <algorithm>
#include <cmath>

namespace adala::widgets {

QVector<double> emaSmooth(const QVector<double>& values, double weight) {
  const double w = std::clamp(weight, 0.0, 0.999);
  if (w == 0.0) return values;
  QVector<double> out;
  out.reserve(values.size());
  bool started = false;
  double s = 0.0;
  for (double y : values) {
    if (!std::isfinite(y)) {
      out.push_back(y);
      continue;
    }
    s = started ? w * s + (1.0 - w) * y : y;
    started = true;
    out.push_back(s);
  }
  return out;
}

}  // namespace adala::widgets
