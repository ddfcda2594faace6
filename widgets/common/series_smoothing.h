#pragma once
// Smoothing of a plotted series, as TensorBoard's slider does it: an exponential moving
// average s_0 = y_0, s_i = w * s_{i-1} + (1 - w) * y_i with weight w in [0, 1) (0: the raw
// values). A non-finite value is passed through and does not enter the average.
// And the controls the workbench's curve plots share (the Stage-1/2 MSE plots, the loss and
// lr tab): a smoothing slider and an x axis by step or by wall time, with the axis set-up and
// hover text of each.
#include <QString>
#include <QVector>
#include <QWidget>

class QComboBox;
class QCPAxis;
class QLabel;
class QSlider;

namespace adala::widgets {

QVector<double> emaSmooth(const QVector<double>& values, double weight);

// The metric each logged step records with its wall-clock time (seconds since the epoch).
constexpr const char* kWallTimeKey = "wall_time";

enum class CurveXAxis { Step, WallTime };

// "Smoothing [slider] 0.00  x axis [step|wall time]", laid out in a row.
class SeriesControls : public QWidget {
  Q_OBJECT
 public:
  explicit SeriesControls(QWidget* parent = nullptr);

  // EMA weight in [0, 0.99] (0: raw values), the slider's value / 100.
  void setSmoothing(double weight);
  double smoothing() const;
  void setXAxis(CurveXAxis axis);
  CurveXAxis xAxis() const { return xAxis_; }

  QSlider* smoothingSlider() const { return slider_; }
  QComboBox* xAxisBox() const { return box_; }

  // An x axis set up for `axis`: a step axis, or h:mm:ss since the first logged step.
  static void applyXAxis(QCPAxis* axis, CurveXAxis mode);
  // How a key reads in a hover tooltip: "step 120" or "time 0:02:10".
  static QString keyText(double key, CurveXAxis mode);
  // " (smoothed)" while the curves are smoothed, for the hover tooltips.
  QString valueNote() const;

 signals:
  void smoothingChanged(double weight);
  void xAxisChanged(adala::widgets::CurveXAxis axis);

 private:
  QSlider* slider_ = nullptr;
  QLabel* value_ = nullptr;
  QComboBox* box_ = nullptr;
  CurveXAxis xAxis_ = CurveXAxis::Step;
};

}  // namespace adala::widgets
