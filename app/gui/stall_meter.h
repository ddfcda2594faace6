#pragma once
// Measures how long the GUI thread's event loop goes without turning: a precise timer ticks
// every `interval`; the gap between two ticks beyond the interval is time the loop was
// blocked (or starved). The longest gap is the stall.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <vector>

namespace adala::gui {

class StallMeter : public QObject {
  Q_OBJECT
 public:
  explicit StallMeter(int intervalMs = 5, QObject* parent = nullptr);

  void start();
  void stop();
  bool running() const { return timer_.isActive(); }

  qint64 ticks() const { return static_cast<qint64>(gaps_.size()); }
  double seconds() const { return seconds_; }
  double maxGapMs() const;
  double percentileMs(double p) const;  // p in [0, 100]
  int intervalMs() const { return interval_; }
  QString report() const;

 private:
  void tick();

  int interval_;
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 lastNs_ = 0;
  double seconds_ = 0.0;
  std::vector<double> gaps_;  // ms between consecutive ticks
};

}  // namespace adala::gui
