#include "widgets/common/series_smoothing.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

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

SeriesControls::SeriesControls(QWidget* parent) : QWidget(parent) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(new QLabel(tr("Smoothing"), this));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 99);
  slider_->setValue(0);
  slider_->setFixedWidth(120);
  slider_->setToolTip(
      tr("Exponential moving average of the curves (0: raw values); the CSV "
         "export keeps the raw values"));
  row->addWidget(slider_);
  value_ = new QLabel(QStringLiteral("0.00"), this);
  row->addWidget(value_);
  row->addSpacing(12);
  row->addWidget(new QLabel(tr("x axis"), this));
  box_ = new QComboBox(this);
  box_->addItem(tr("step"));
  box_->addItem(tr("wall time"));
  box_->setToolTip(tr("Steps, or the wall-clock time since the run's first logged step"));
  row->addWidget(box_);
  connect(slider_, &QSlider::valueChanged, this, [this](int value) {
    value_->setText(QString::number(value / 100.0, 'f', 2));
    emit smoothingChanged(value / 100.0);
  });
  connect(box_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this](int index) { setXAxis(index == 1 ? CurveXAxis::WallTime : CurveXAxis::Step); });
}

void SeriesControls::setSmoothing(double weight) {
  slider_->setValue(int(std::lround(std::clamp(weight, 0.0, 0.99) * 100)));
}

double SeriesControls::smoothing() const { return slider_->value() / 100.0; }

void SeriesControls::setXAxis(CurveXAxis axis) {
  if (box_->currentIndex() != int(axis)) box_->setCurrentIndex(int(axis));  // comes back here
  if (xAxis_ == axis) return;
  xAxis_ = axis;
  emit xAxisChanged(axis);
}

QString SeriesControls::valueNote() const {
  return slider_->value() > 0 ? tr(" (smoothed)") : QString();
}

void SeriesControls::applyXAxis(QCPAxis* axis, CurveXAxis mode) {
  if (mode == CurveXAxis::WallTime) {
    auto ticker = QSharedPointer<QCPAxisTickerTime>::create();
    ticker->setTimeFormat(QStringLiteral("%h:%m:%s"));
    axis->setTicker(ticker);
    axis->setLabel(tr("wall time since the run's first logged step (h:mm:ss)"));
  } else {
    axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    axis->setLabel(tr("step"));
  }
}

QString SeriesControls::keyText(double key, CurveXAxis mode) {
  if (mode == CurveXAxis::Step) return tr("step %1").arg(qint64(std::llround(key)));
  const qint64 t = qint64(std::llround(key));
  return tr("time %1:%2:%3")
      .arg(t / 3600)
      .arg((t / 60) % 60, 2, 10, QLatin1Char('0'))
      .arg(t % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace adala::widgets
