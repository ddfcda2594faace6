#pragma once
// A ticker for QCustomPlot's logarithmic axes that reads at any range:
//   * given values (setFixedTicks: the measured resolutions), or else
//   * where the range holds two or more powers of ten: a labelled tick at every decade
//     (1e-5, 1e-4, ..., 1) with unlabelled sub-ticks at 2x and 5x of each decade;
//   * within about a decade: 1-2-5 steps (finer or coarser to give at most kMaxInDecade
//     labelled ticks, so a short axis of a small plot does not stack its labels).
// Labels are plain numbers ("2000", "0.5"); very small or large decades read "1e-05", which an
// axis with a "b" (beautiful) number format draws as 10 to the power.
#include <QVector>

#include <qcustomplot.h>

namespace adala::widgets {

class LogAxisTicker : public QCPAxisTickerLog {
 public:
  // Non-empty: ticks exactly at these values (those inside the range), no sub-ticks.
  void setFixedTicks(const QVector<double>& ticks) { fixed_ = ticks; }
  const QVector<double>& fixedTicks() const { return fixed_; }

  static constexpr int kMaxInDecade = 5;
  // The 1-2-5 ticks of [lower, upper] (lower > 0), at most maxTicks of them (the axis uses
  // kMaxInDecade within a decade).
  static QVector<double> niceTicks(double lower, double upper, int maxTicks = 10);
  // Every power of ten in [lower, upper] (empty when lower <= 0 or upper <= lower).
  static QVector<double> decadeTicks(double lower, double upper);
  // The 2x and 5x sub-ticks of every decade tick in `decades`, and of the decade below the
  // first (the part of the range under the first labelled tick).
  static QVector<double> decadeSubTicks(const QVector<double>& decades);
  // Whether [lower, upper] is labelled by decades (it holds at least two powers of ten).
  static bool usesDecades(double lower, double upper);
  static QString label(double value);

 protected:
  int getSubTickCount(double tickStep) override;
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
  QVector<double> createSubTickVector(int subTickCount, const QVector<double>& ticks) override;
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                       int precision) override;

 private:
  QVector<double> fixed_;
  bool decades_ = false;  // what the last createTickVector produced
};

}  // namespace adala::widgets
