// AttentionInspector's colour scales and its figure export: how the three maps' weights map
// to colours (shared, per pane, log, fixed range) and the panes written as one figure.
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>

#include <algorithm>
#include <cmath>

#include "widgets/inspect/attention_inspector.h"
#include "widgets/common/image_pane.h"

namespace adala::widgets {

void AttentionInspector::setScaleMode(ScaleMode mode) {
  scaleCombo_->setCurrentIndex(static_cast<int>(mode));
}

QString AttentionInspector::setFixedRange(const QString& text) {
  updatingControls_ = true;
  rangeEdit_->setText(text);
  scaleCombo_->setCurrentIndex(static_cast<int>(ScaleMode::Fixed));
  rangeEdit_->setVisible(true);
  updatingControls_ = false;
  applyFixedRangeText();
  return rangeEdit_->property("error").toString();
}

void AttentionInspector::applyFixedRangeText() {
  double lo = 0.0, hi = 0.0;
  QString error;
  if (!parseFixedRange(rangeEdit_->text(), &lo, &hi, &error)) {
    rangeEdit_->setProperty("error", error);
    rangeEdit_->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #d04040; }"));
    rangeEdit_->setToolTip(error);
    statusLabel_->setText(tr("Colour range not changed: %1").arg(error));
    return;  // the previous scale stays
  }
  rangeEdit_->setProperty("error", QString());
  rangeEdit_->setStyleSheet(QString());
  rangeEdit_->setToolTip(tr("The fixed colour range, minimum..maximum (Enter applies)"));
  fixedMin_ = lo;
  fixedMax_ = hi;
  scaleMode_ = ScaleMode::Fixed;
  updateScales();
  redraw();
}

PaneScale AttentionInspector::paneScale(Pane pane) const {
  return pane >= SoftmaxPane ? scales_[pane - SoftmaxPane] : PaneScale{};
}

// The three maps' scales from the current rows and the scale mode.
void AttentionInspector::updateScales() {
  const int n = image_.gridHeight * image_.gridWidth;
  const float *soft = nullptr, *lin = nullptr;
  if (!shownRows(&soft, &lin)) return;
  double maxima[3] = {0.0, 0.0, 0.0};
  // A rollout keeps at least 0.5^depth on the query itself (the residual halves): that one
  // cell is left out of the scale (it shows as the top colour) so the rest of the map reads.
  const int self = rollout_ ? query_ - image_.prefixTokens : -1;
  for (int i = 0; i < n; ++i) {
    if (i == self) continue;
    maxima[0] = std::max(maxima[0], double(soft[i]));
    maxima[1] = std::max(maxima[1], double(lin[i]));
    maxima[2] = std::max(maxima[2], std::abs(double(lin[i]) - double(soft[i])));
  }
  const double vmax = std::max(maxima[0], maxima[1]);
  scaleMax_ = vmax > 0.0 ? vmax : 1.0;
  // The shared and log scales span the two maps' largest weight (the difference is at most
  // that), so the three panes compare directly.
  const QVector<double> m = {maxima[0], maxima[1],
                             scaleMode_ == ScaleMode::PerPane ? maxima[2] : 0.0};
  const QVector<PaneScale> scales = paneScales(scaleMode_, m, fixedMin_, fixedMax_);
  for (int k = 0; k < 3; ++k) scales_[k] = scales[k];
}

Figure AttentionInspector::figure() const {
  Figure f;
  f.map = colormap_;
  for (int i = 0; i < 4; ++i) {
    FigurePane pane;
    pane.title = i == ImagePaneIndex ? tr("Image") : panes_[i]->title();
    pane.image = panes_[i]->image();
    pane.ticks = panes_[i]->scaleStripTicks();
    if (query_ >= image_.prefixTokens && haveProbe_) {
      const int p = query_ - image_.prefixTokens;
      pane.highlight = cellRect(p / image_.gridWidth, p % image_.gridWidth);
    }
    if (!image_.content.isEmpty())
      pane.content =
          QRect(image_.content.topLeft() * displayScale_, image_.content.size() * displayScale_);
    f.panes.push_back(pane);
  }
  QString query;
  if (query_ < image_.prefixTokens)
    query = tr("prefix token %1").arg(query_);
  else
    query = tr("patch (row %1, column %2)")
                .arg((query_ - image_.prefixTokens) / std::max(1, image_.gridWidth))
                .arg((query_ - image_.prefixTokens) % std::max(1, image_.gridWidth));
  QString scale = scaleModeNames().value(static_cast<int>(scaleMode_));
  if (scaleMode_ == ScaleMode::Fixed)
    scale += QStringLiteral(" %1..%2").arg(fixedMin_, 0, 'g', 4).arg(fixedMax_, 0, 'g', 4);
  else if (scaleMode_ == ScaleMode::Log)
    scale +=
        QStringLiteral(" %1..%2").arg(scales_[0].vmin, 0, 'g', 3).arg(scales_[0].vmax, 0, 'g', 3);
  f.caption = tr("Checkpoint %1 · image %2 (%3 × %4 px input) · block %5, head %6 · query %7 · "
                 "%8 · KL(softmax ‖ linear) = %9")
                  .arg(QFileInfo(image_.checkpoint).fileName(), image_.description)
                  .arg(image_.image.width())
                  .arg(image_.image.height())
                  .arg(block_)
                  .arg(head_)
                  .arg(query, scale)
                  .arg(rows_.kl, 0, 'g', 4);
  if (rollout_)
    f.caption = tr("Checkpoint %1 · image %2 (%3 × %4 px input) · attention rollout through %5 "
                   "blocks (heads averaged, 0.5 A + 0.5 I per block) · query %6 · %7")
                    .arg(QFileInfo(image_.checkpoint).fileName(), image_.description)
                    .arg(image_.image.width())
                    .arg(image_.image.height())
                    .arg(image_.depth)
                    .arg(query, scale);
  return f;
}

QString AttentionInspector::exportFigure(const QString& path) {
  if (!haveProbe_ || rows_.softmax.isEmpty()) return tr("Nothing to export yet.");
  return writeFigure(figure(), path);
}

bool AttentionInspector::isContentPatch(int row, int col) const {
  if (!haveProbe_ || row < 0 || col < 0 || row >= image_.gridHeight || col >= image_.gridWidth)
    return false;
  if (image_.content.isEmpty()) return true;
  const int p = image_.patchSize;
  return QRect(col * p, row * p, p, p).intersects(image_.content);
}

}  // namespace adala::widgets
