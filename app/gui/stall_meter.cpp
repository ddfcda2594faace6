#include "app/gui/stall_meter.h"

#include <QCoreApplication>
#include <QEvent>
#include <QMetaEnum>

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
  eventStartNs_ = -1;
  slowestEvent_.clear();
  slowestEventMs_ = 0.0;
  qApp->installEventFilter(this);
  timer_.start();
}

bool StallMeter::eventFilter(QObject* watched, QEvent* event) {
  // The previous event ran until this one was delivered (the loop never idles longer than the
  // tick interval, so an idle wait counts at most that).
  const qint64 now = clock_.nsecsElapsed();
  if (eventStartNs_ >= 0) {
    const double ms = (now - eventStartNs_) / 1e6;
    if (ms > slowestEventMs_) {
      slowestEventMs_ = ms;
      slowestEvent_ = eventInProgress_;
    }
  }
  eventStartNs_ = now;
  eventInProgress_ =
      QStringLiteral("%1 \"%2\": %3")
          .arg(QString::fromLatin1(watched->metaObject()->className()), watched->objectName(),
               QString::fromLatin1(QMetaEnum::fromType<QEvent::Type>().valueToKey(event->type())));
  return false;
}

void StallMeter::stop() {
  qApp->removeEventFilter(this);
  timer_.stop();
  if (clock_.isValid()) seconds_ = clock_.nsecsElapsed() / 1e9;
}

void StallMeter::tick() {
  const qint64 now = clock_.nsecsElapsed();
  gaps_.push_back((now - lastNs_) / 1e6);
  lastNs_ = now;
  seconds_ = now / 1e9;
}

double StallMeter::maxGapMs() const {
  return gaps_.empty() ? 0.0 : *std::max_element(gaps_.begin(), gaps_.end());
}

double StallMeter::percentileMs(double p) const {
  if (gaps_.empty()) return 0.0;
  std::vector<double> sorted = gaps_;
  std::sort(sorted.begin(), sorted.end());
  const size_t i = std::min(sorted.size() - 1,
                            static_cast<size_t>(std::floor(p / 100.0 * (sorted.size() - 1) + 0.5)));
  return sorted[i];
}

QString StallMeter::report() const {
  return tr("longest gap between %1 ms event-loop ticks: %2 ms (median %3 ms, p99 %4 ms, p99.9 %5 "
            "ms; %6 ticks over %7 s)")
      .arg(interval_)
      .arg(maxGapMs(), 0, 'f', 1)
      .arg(percentileMs(50), 0, 'f', 1)
      .arg(percentileMs(99), 0, 'f', 1)
      .arg(percentileMs(99.9), 0, 'f', 1)
      .arg(ticks())
      .arg(seconds(), 0, 'f', 1);
}

}  // namespace adala::gui
