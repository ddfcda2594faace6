#pragma once
// Hover tooltips for a QCustomPlot: with the mouse near a data point of a visible graph, a
// tooltip names the graph and gives the point's key and value. Attach one per plot; the plot
// gets mouse tracking.
#include <QObject>
#include <QPointF>
#include <QString>

#include <functional>

class QCustomPlot;
class QMouseEvent;

namespace adala::widgets {

class PlotHover : public QObject {
  Q_OBJECT
 public:
  // How a key (x) reads in the tooltip, e.g. "step 120" or "time 0:02:10".
  using KeyText = std::function<QString(double key)>;

  explicit PlotHover(QCustomPlot* plot, KeyText keyText = {});
  void setKeyText(KeyText keyText) { keyText_ = std::move(keyText); }
  // Appended to every value (e.g. " (smoothed)"); empty by default.
  void setValueNote(const QString& note) { valueNote_ = note; }

  // The tooltip for the mouse at `pixel` (plot coordinates): the nearest data point of a
  // visible graph within `radius` pixels, or an empty string where there is none.
  QString textAt(const QPointF& pixel, double radius = 12.0) const;
  // What the last mouse move showed (empty: no tooltip).
  QString lastText() const { return last_; }

  static QString valueText(double value);  // how values read: 6 significant digits

 private:
  void onMouseMove(QMouseEvent* event);

  QCustomPlot* plot_;
  KeyText keyText_;
  QString valueNote_;
  QString last_;
};

}  // namespace adala::widgets
