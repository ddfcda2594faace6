#pragma once
// A ticker for QCustomPlot's logarithmic axes that reads at any range: ticks at given values
// (the measured resolutions) or, without them, at 1-2-5 steps (1, 2, 5, 10, 20, ...; finer
// where the range spans less than a decade, coarser where it spans many), labelled as plain
// numbers ("2000", "0.5") instead of powers of ten.
#include <QVector>

#include <qcustomplot.h>

namespace adala::widgets {

class LogAxisTicker : public QCPAxisTickerLog {
 public:
  // Non-empty: ticks exactly at these values (those inside the range). No sub-ticks either way.
  void setFixedTicks(const QVector<double>& ticks) { fixed_ = ticks; }
  const QVector<double>& fixedTicks() const { return fixed_; }

  // The 1-2-5 ticks of [lower, upper] (lower > 0), as the axis uses them without fixed ticks.
  static QVector<double> niceTicks(double lower, double upper);
  static QString label(double value);

 protected:
  int getSubTickCount(double tickStep) override;
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                       int precision) override;

 private:
  QVector<double> fixed_;
};

}  // namespace adala::widgets
