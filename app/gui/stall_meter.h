#pragma once
// Measures how long the GUI thread's event loop goes without turning: a precise timer ticks
// every `interval`; the gap between two ticks beyond the interval is time the loop was
// blocked (or starved). The longest gap is the stall. While it runs it also watches every event
// the application delivers and keeps the slowest (receiver class and event type): the usual
// culprit of a stall.
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
  // The event that took longest from its delivery to the next one ("" before any), and how long.
  QString slowestEvent() const { return slowestEvent_; }
  double slowestEventMs() const { return slowestEventMs_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void tick();

  int interval_;
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 lastNs_ = 0;
  double seconds_ = 0.0;
  std::vector<double> gaps_;  // ms between consecutive ticks
  qint64 eventStartNs_ = -1;  // delivery of the event in progress
  QString eventInProgress_;
  QString slowestEvent_;
  double slowestEventMs_ = 0.0;
};

}  // namespace adala::gui
