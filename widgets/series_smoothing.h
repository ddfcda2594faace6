#pragma once
// Smoothing of a plotted series, as TensorBoard's slider does it: an exponential moving
// average s_0 = y_0, s_i = w * s_{i-1} + (1 - w) * y_i with weight w in [0, 1) (0: the raw
// values). A non-finite value is passed through and does not enter the average.
#include <QVector>

namespace adala::widgets {

QVector<double> emaSmooth(const QVector<double>& values, double weight);

}  // namespace adala::widgets
