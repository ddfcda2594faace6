#include "app/gui/stall_meter.h"

#include <algorithm>
#include <cmath>

namespace adala::gui {

StallMeter::StallMeter(int intervalMs, QObject* parent) : QObject(parent), interval_(intervalMs) {
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(intervalMs);
  connect(&timer_, &QTimer::timeout, this, &StallMeter::tick);
}

void StallMeter::start() {
  gaps_.clear();
  seconds_ = 0.0;
  clock_.start();
  lastNs_ = 0;
  timer_.start();
}

void StallMeter::stop() {
  timer_.stop();
  if (clock_.isValid()) seconds_ = clock_.nsecsElapsed() / 1e9;
}

void StallMeter::tick() {
  const qint64 now = clock_.nsecsElapsed();
  gaps_.push_back((now - lastNs_) / 1e6);
  lastNs_ = now;
  seconds_ = now / 1e9;
}

double StallMeter::maxGapMs() const { return gaps_.empty() ? 0.0 : *std::max_element(gaps_.begin(), gaps_.end()); }

double StallMeter::percentileMs(double p) const {
  if (gaps_.empty()) return 0.0;
  std::vector<double> sorted = gaps_;
  std::sort(sorted.begin(), sorted.end());
  const size_t i = std::min(sorted.size() - 1, static_cast<size_t>(std::floor(p / 100.0 * (sorted.size() - 1) + 0.5)));
  return sorted[i];
}

QString StallMeter::report() const {
  return tr("longest gap between %1 ms event-loop ticks: %2 ms (median %3 ms, p99 %4 ms, p99.9 %5 ms; %6 ticks over %7 s)")
      .arg(interval_)
      .arg(maxGapMs(), 0, 'f', 1)
      .arg(percentileMs(50), 0, 'f', 1)
      .arg(percentileMs(99), 0, 'f', 1)
      .arg(percentileMs(99.9), 0, 'f', 1)
      .arg(ticks())
      .arg(seconds(), 0, 'f', 1);
}

}  // namespace adala::gui
