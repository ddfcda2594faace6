#include "widgets/inspect/feature_view.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QShowEvent>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "widgets/common/colormap.h"
#include "widgets/common/image_pane.h"
#include "widgets/common/plot_style.h"

namespace adala::widgets {

namespace {

// The cosine scale beside the map: the bar, its ticks and a title.
QImage labelledColourBar(const QPalette& palette, const QFont& font) {
  const int barW = 16, barH = 200, top = 22, left = 4, width = 84, height = barH + top + 12;
  QImage out(width, height, QImage::Format_ARGB32_Premultiplied);
  out.fill(Qt::transparent);
  QPainter p(&out);
  p.setFont(font);
  p.setPen(palette.color(QPalette::Text));
  p.drawText(QRect(0, 0, width, top - 4), Qt::AlignLeft | Qt::AlignVCenter,
             FeatureView::tr("cosine"));
  p.drawImage(QRect(left, top, barW, barH), colourBar(Colormap::Viridis, barW, barH));
  p.drawRect(QRect(left, top, barW, barH).adjusted(0, 0, -1, -1));
  for (double v : {1.0, 0.75, 0.5, 0.25, 0.0}) {
    const int y = top + int(std::lround((1.0 - v) * (barH - 1)));
    p.drawLine(left + barW, y, left + barW + 4, y);
    const QString label = v == 0.0 ? FeatureView::tr("≤ 0") : QString::number(v, 'f', 2);
    p.drawText(QRect(left + barW + 7, y - 8, width - barW - 10, 16),
               Qt::AlignLeft | Qt::AlignVCenter, label);
  }
  return out;
}

QImage colourFromValues(const QVector<float>& values, int h, int w) {
  if (values.size() != h * w || h <= 0) return {};
  return colormapGrid(values.constData(), h, w, FeatureView::kCosineMin, FeatureView::kCosineMax,
                      Colormap::Viridis);
}

}  // namespace

FeatureView::FeatureView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  addMapsSection(layout);
  addSweepSection(layout);
  redrawSweep();

  connect(index_, qOverload<int>(&QSpinBox::valueChanged), this, [this] {
    imagePath_.clear();
    requestMaps();
  });
  connect(fileButton_, &QPushButton::clicked, this, &FeatureView::openImageRequested);
  connect(sweepButton_, &QPushButton::clicked, this, [this] {
    if (runId_ < 0 && runDir_.isEmpty()) return;
    sweepButton_->setEnabled(false);
    sweepStatus_->setText(tr("Resolution sweep running…"));
    emit sweepRequested(runId_, runDir_, scales_->text(), sweepLimit_->value());
  });
}

// The run and image chosen, the input and the three feature maps, and what they say.
void FeatureView::addMapsSection(QVBoxLayout* layout) {
  auto* bar = new QHBoxLayout;
  runLabel_ = new QLabel(
      tr("Open a run (run list) to compare its teacher's and student's features."), this);
  runLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar->addWidget(runLabel_, 1);
  bar->addWidget(new QLabel(tr("Image:"), this));
  index_ = new QSpinBox(this);
  index_->setRange(0, 999999);  // until the run's data set says how many images it has
  index_->setToolTip(tr("An image of the run's evaluation data, by index"));
  index_->setAccessibleName(tr("Image index"));
  bar->addWidget(index_);
  fileButton_ = new QPushButton(tr("Image file…"), this);
  bar->addWidget(fileButton_);
  layout->addLayout(bar);

  auto* panes = new QHBoxLayout;
  inputPane_ = new ImagePane(tr("Input"), this);
  teacherPane_ = new ImagePane(tr("Teacher PCA (softmax)"), this);
  studentPane_ = new ImagePane(tr("Student PCA (linear)"), this);
  cosinePane_ = new ImagePane(tr("Cosine similarity per patch"), this);
  for (auto* pane : {inputPane_, teacherPane_, studentPane_, cosinePane_})
    panes->addWidget(pane, 1);
  colourBar_ = new QLabel(this);
  colourBar_->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  colourBar_->setPixmap(QPixmap::fromImage(labelledColourBar(palette(), font())));
  panes->addWidget(colourBar_);
  layout->addLayout(panes, 3);

  cosineText_ = new QLabel(this);
  varianceText_ = new QLabel(this);
  for (auto* l : {cosineText_, varianceText_}) {
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(l);
  }
  auto* note =
      new QLabel(tr("PCA fitted on the teacher's final patch features and applied to both; RGB = "
                    "PC1, PC2, PC3 on the teacher's range, so equal colours mean equal "
                    "projections."),
                 this);
  note->setWordWrap(true);
  note->setEnabled(false);
  layout->addWidget(note);
  status_ = new QLabel(this);
  layout->addWidget(status_);
}

// The resolution sweep: its settings, its status and its plot.
void FeatureView::addSweepSection(QVBoxLayout* layout) {
  auto* sweepBar = new QHBoxLayout;
  sweepBar->addWidget(new QLabel(tr("<b>Resolution sweep</b>"), this));
  sweepBar->addStretch(1);
  sweepBar->addWidget(new QLabel(tr("Scales:"), this));
  scales_ = new QLineEdit(QStringLiteral("1,2,4"), this);
  scales_->setMaximumWidth(90);
  scales_->setToolTip(tr("Multiples of the training resolution"));
  sweepBar->addWidget(scales_);
  sweepBar->addWidget(new QLabel(tr("Images:"), this));
  sweepLimit_ = new QSpinBox(this);
  sweepLimit_->setRange(0, 1000000);
  sweepLimit_->setValue(1000);
  sweepLimit_->setSpecialValueText(tr("all"));
  sweepLimit_->setToolTip(tr("The first N evaluation images (all: the whole set)"));
  sweepBar->addWidget(sweepLimit_);
  sweepButton_ = new QPushButton(tr("Run resolution sweep"), this);
  sweepButton_->setEnabled(false);
  sweepBar->addWidget(sweepButton_);
  layout->addLayout(sweepBar);
  sweepStatus_ = new QLabel(this);
  layout->addWidget(sweepStatus_);
  plot_ = new QCustomPlot(this);
  plot_->setMinimumHeight(200);
  plot_->xAxis->setLabel(tr("input resolution (pixels per side)"));
  plot_->yAxis->setLabel(tr("top-1 (%)"));
  plot_->legend->setVisible(true);
  layout->addWidget(plot_, 2);
}

void FeatureView::setRun(qint64 runId, const QString& runDir, const QString& name) {
  const bool changed = runId != runId_ || runDir != runDir_;
  runId_ = runId;
  runDir_ = runDir;
  runName_ = name;
  sweepButton_->setEnabled(!runDir.isEmpty());
  runLabel_->setText(runDir.isEmpty() ? tr("Run %1 has no folder: nothing to compare.").arg(runId)
                                      : tr("Run %1 (%2)").arg(runId).arg(name));
  if (!changed) return;
  maps_ = FeatureMaps{};
  for (auto* pane : {inputPane_, teacherPane_, studentPane_, cosinePane_}) pane->setImage({});
  cosineText_->clear();
  varianceText_->clear();
  sweep_ = ResolutionSweepData{};
  sweep_.runId = runId;
  sweepStatus_->clear();
  redrawSweep();
  imagePath_.clear();
  if (!runDir.isEmpty()) requestMaps();
}

void FeatureView::setImageFile(const QString& path) {
  imagePath_ = path;
  requestMaps();
}

void FeatureView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (pending_) requestMaps();
}

void FeatureView::requestMaps() {
  if (runDir_.isEmpty()) return;
  if (!isVisible()) {
    pending_ = true;
    return;
  }
  pending_ = false;
  FeatureRequest r;
  r.runId = runId_;
  r.runDir = runDir_;
  r.imagePath = imagePath_;
  r.itemIndex = index_->value();
  setStatus(tr("Computing the features of %1…")
                .arg(imagePath_.isEmpty() ? tr("item %1").arg(r.itemIndex) : imagePath_));
  emit mapsRequested(r);
}

void FeatureView::setStatus(const QString& text) { status_->setText(text); }
QString FeatureView::statusText() const { return status_->text(); }

void FeatureView::onMapsReady(const FeatureMaps& maps) {
  if (maps.runId != runId_) return;  // an answer for a run no longer shown
  maps_ = maps;
  if (maps.datasetSize > 0) {
    const QSignalBlocker block(index_);
    index_->setRange(0, maps.datasetSize - 1);
    if (maps.itemIndex >= 0) index_->setValue(maps.itemIndex);
  }
  inputPane_->setImage(maps.input);
  teacherPane_->setImage(maps.teacherPca);
  studentPane_->setImage(maps.studentPca);
  cosinePane_->setImage(colourFromValues(maps.cosine, maps.gridHeight, maps.gridWidth));
  cosineText_->setText(meanCosineText());
  varianceText_->setText(varianceText());
  setStatus(
      tr("%1 · %2x%3 patches · teacher %4 · student %5")
          .arg(maps.description)
          .arg(maps.gridHeight)
          .arg(maps.gridWidth)
          .arg(QFileInfo(maps.teacherPath).fileName(), QFileInfo(maps.studentPath).fileName()));
}

void FeatureView::onMapsFailed(const QString& message) { setStatus(message); }

QString FeatureView::meanCosineText() const {
  if (!hasMaps()) return {};
  return tr("Mean cosine similarity (teacher vs student): %1   (lowest patch %2)")
      .arg(QString::number(maps_.meanCosine, 'f', 4), QString::number(maps_.minCosine, 'f', 4));
}

QString FeatureView::varianceText() const {
  if (!hasMaps()) return {};
  QStringList parts;
  double total = 0.0;
  for (int i = 0; i < maps_.explainedVarianceRatio.size(); ++i) {
    parts << tr("PC%1 %2%")
                 .arg(i + 1)
                 .arg(QString::number(100.0 * maps_.explainedVarianceRatio[i], 'f', 1));
    total += maps_.explainedVarianceRatio[i];
  }
  return tr("Teacher PCA explained variance ratio: %1 (%2% in all)")
      .arg(parts.join(QStringLiteral(", ")), QString::number(100.0 * total, 'f', 1));
}

void FeatureView::setSweep(const ResolutionSweepData& sweep) {
  if (sweep.runId != runId_) return;
  sweep_ = sweep;
  sweepButton_->setEnabled(!runDir_.isEmpty());
  if (!sweep.points.isEmpty())
    sweepStatus_->setText(
        tr("Top-1 on %n evaluation image(s) at each resolution.", nullptr, sweep.images));
  redrawSweep();
}

void FeatureView::onSweepProgress(double fraction) {
  sweepStatus_->setText(tr("Resolution sweep running… %1%").arg(int(std::lround(100 * fraction))));
}

void FeatureView::onSweepFailed(const QString& message) {
  sweepButton_->setEnabled(!runDir_.isEmpty());
  sweepStatus_->setText(message);
}

void FeatureView::redrawSweep() {
  plot_->clearGraphs();
  plot_->clearItems();
  applyPlotPalette(plot_, palette(), font());
  const struct {
    QString name, mode;
    bool teacher;
  } lines[] = {{tr("teacher (softmax)"), QStringLiteral("softmax"), true},
               {tr("student (linear)"), QStringLiteral("linear"), false}};
  double lo = 100.0, hi = 0.0;
  QVector<double> ticks;
  QVector<QString> labels;
  for (const auto& p : sweep_.points) {
    ticks << p.resolution;
    labels << QString::number(p.resolution) + QChar(0x00B2);  // "56²"
  }
  for (const auto& line : lines) {
    QVector<double> x, y;
    for (const auto& p : sweep_.points) {
      const double v = line.teacher ? p.teacherTop1 : p.studentTop1;
      if (v < 0) continue;
      x << p.resolution;
      y << 100.0 * v;
      lo = std::min(lo, 100.0 * v);
      hi = std::max(hi, 100.0 * v);
    }
    if (x.isEmpty()) continue;
    auto* g = plot_->addGraph();
    g->setName(line.name);
    const QColor color = modeColor(line.mode);
    g->setPen(QPen(color, 2));
    g->setScatterStyle(QCPScatterStyle(
        line.teacher ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssDiamond, color, color, 8));
    g->setData(x, y, true);
    for (int i = 0; i < x.size(); ++i) {
      // The higher of the two values at a resolution is labelled above its point, the lower
      // below (lines that cross never stack their labels).
      double other = -1.0;
      for (const auto& p : sweep_.points)
        if (p.resolution == int(x[i])) other = line.teacher ? p.studentTop1 : p.teacherTop1;
      const bool above =
          other < 0 || y[i] > 100.0 * other || (y[i] == 100.0 * other && line.teacher);
      auto* label = new QCPItemText(plot_);
      label->position->setCoords(x[i], y[i]);
      label->setPositionAlignment(above ? (Qt::AlignBottom | Qt::AlignHCenter)
                                        : (Qt::AlignTop | Qt::AlignHCenter));
      label->setPadding(QMargins(0, 4, 0, 4));
      label->setText(QString::number(y[i], 'f', 1));
      label->setColor(color);
    }
  }
  plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
  if (!ticks.isEmpty()) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->setTicks(ticks, labels);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(ticks.front() / 1.3, ticks.back() * 1.3);
    const double pad = std::max(2.0, (hi - lo) * 0.25);
    plot_->yAxis->setRange(std::max(0.0, lo - pad), std::min(100.0, hi + pad));
  } else {
    plot_->xAxis->setRange(10, 1000);
    plot_->yAxis->setRange(0, 100);
  }
  plot_->legend->setVisible(plot_->graphCount() > 0);
  plot_->replot();
}

}  // namespace adala::widgets
