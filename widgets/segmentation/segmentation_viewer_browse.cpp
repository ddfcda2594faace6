// Loading a results folder and stepping through its images, and the panes' shared view: what is
// drawn, zoom, pan and the classes under the cursor.
#include "widgets/segmentation/segmentation_viewer.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "widgets/common/zoom_image_pane.h"
#include "widgets/segmentation/segmentation_legend.h"
#include "widgets/segmentation/segmentation_pane_grid.h"
#include "widgets/segmentation/segmentation_render.h"

namespace adala::widgets {

namespace {

constexpr double kMaxScale = 64.0;

}  // namespace

bool SegmentationViewer::openFolder(const QString& path, QString* error) {
  const QStringList dirs = SegmentationResults::findResultDirs(path);
  if (dirs.isEmpty()) {
    // Nothing to offer: the loader says what is missing (index.json, naming it).
    SegmentationResults probe;
    QString message;
    if (SegmentationResults::load(path, &probe, &message))  // cannot happen without an index
      message = tr("No segmentation results in %1.").arg(path);
    showError(message);
    if (error) *error = message;
    return false;
  }
  const QString previousHead =
      head_ >= 0 && head_ < headDirs_.size() ? QFileInfo(headDirs_[head_]).fileName() : QString();
  folder_ = QFileInfo(path).absoluteFilePath();
  headDirs_ = dirs;
  updatingControls_ = true;
  headCombo_->clear();
  for (const auto& d : dirs) headCombo_->addItem(QFileInfo(d).fileName(), d);
  updatingControls_ = false;
  int index = 0;
  for (int i = 0; i < dirs.size(); ++i)
    if (QFileInfo(dirs[i]).fileName() == previousHead) index = i;
  head_ = -1;
  order_.clear();  // a new folder starts at its first image (a new head keeps the image)
  position_ = -1;
  return loadHead(index, error);
}

bool SegmentationViewer::setHead(int index) {
  if (index < 0 || index >= headDirs_.size()) return false;
  if (index == head_ && loaded_) return true;
  return loadHead(index, nullptr);
}

bool SegmentationViewer::loadHead(int index, QString* error) {
  const QString keepId = currentId();
  head_ = index;
  updatingControls_ = true;
  headCombo_->setCurrentIndex(index);
  headCombo_->setEnabled(headDirs_.size() > 1);
  updatingControls_ = false;
  SegmentationResults loaded;
  QString message;
  if (!SegmentationResults::load(headDirs_[index], &loaded, &message)) {
    loaded_ = false;
    results_ = SegmentationResults{};
    order_.clear();
    position_ = -1;
    sampleOk_ = false;
    for (auto* p : panes_) p->setImage(QImage());
    classLegend_->setClasses({});
    agreementLegend_->setMap({});
    showError(message);
    updateSweepTable();
    updateTexts();
    if (error) *error = message;
    return false;
  }
  results_ = std::move(loaded);
  loaded_ = true;
  showError(QString());
  classLegend_->setClasses(results_.classes);
  updateSweepTable();
  position_ = -1;
  rebuildOrder(false);
  int start = 0;
  for (int p = 0; p < order_.size(); ++p)
    if (results_.entries[order_[p]].id == keepId) start = p;
  setPosition(start);
  emit resultsLoaded(results_.dir);
  return true;
}

QString SegmentationViewer::errorText() const { return messageLabel_->text(); }

void SegmentationViewer::showError(const QString& message) {
  messageLabel_->setText(message);
  messageLabel_->setVisible(!message.isEmpty());
}

void SegmentationViewer::rebuildOrder(bool keepCurrent) {
  const int current = currentEntry();
  const auto& entries = results_.entries;
  order_.resize(entries.size());
  std::iota(order_.begin(), order_.end(), 0);
  auto byKey = [&](auto key, bool descending) {
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      const double ka = key(entries[a]), kb = key(entries[b]);
      if (std::isnan(ka) || std::isnan(kb))
        return !std::isnan(ka) && std::isnan(kb);  // unknown last
      return descending ? ka > kb : ka < kb;
    });
  };
  switch (sort_) {
    case FileOrder:
      break;
    case DisagreementDescending:
      byKey([](const SegmentationEntry& e) { return e.disagreement; }, true);
      break;
    case StudentMiouAscending:
      byKey([](const SegmentationEntry& e) { return e.studentMiou; }, false);
      break;
    case GapAscending:
      byKey([](const SegmentationEntry& e) { return e.gap(); }, false);
      break;
  }
  position_ = -1;
  int start = 0;
  if (keepCurrent && current >= 0) start = int(order_.indexOf(current));
  if (!order_.isEmpty()) setPosition(std::max(0, start));
}

void SegmentationViewer::setSortOrder(SortOrder order) {
  sort_ = order;
  updatingControls_ = true;
  sortCombo_->setCurrentIndex(sortCombo_->findData(order));
  updatingControls_ = false;
  if (loaded_) rebuildOrder(false);  // the first of the new order: the worst case
}

void SegmentationViewer::setIouScope(IouScope scope) {
  scope_ = scope;
  updatingControls_ = true;
  scopeCombo_->setCurrentIndex(scopeCombo_->findData(scope));
  updatingControls_ = false;
  updateLegendIou();
}

int SegmentationViewer::currentEntry() const {
  return position_ >= 0 && position_ < order_.size() ? order_[position_] : -1;
}

QString SegmentationViewer::currentId() const {
  const int e = currentEntry();
  return e >= 0 ? results_.entries[e].id : QString();
}

void SegmentationViewer::setPosition(int position) {
  if (order_.isEmpty()) return;
  position = std::clamp(position, 0, int(order_.size()) - 1);
  if (position == position_) return;
  position_ = position;
  showCurrent();
}

void SegmentationViewer::showCurrent() {
  const int entry = currentEntry();
  if (entry < 0) return;
  const QSize before = sampleOk_ ? sample_.image.size() : QSize();
  QString message;
  sampleOk_ = results_.loadSample(entry, &sample_, &message);
  if (sampleOk_) {
    agreement_ =
        agreementMap(sample_.truth, sample_.teacher, sample_.student, results_.ignoreIndex);
    QVector<QColor> palette;
    for (const auto& c : results_.classes) palette << c.color;
    overlays_[TruthPane] = renderClassMask(sample_.truth, palette, results_.ignoreIndex);
    overlays_[TeacherPane] = renderClassMask(sample_.teacher, palette, results_.ignoreIndex);
    overlays_[StudentPane] = renderClassMask(sample_.student, palette, results_.ignoreIndex);
    overlays_[DisagreementPane] = renderAgreement(agreement_);
    grid_->setImageSize(sample_.image.size());
    if (sample_.image.size() != before) {
      scale_ = 0.0;
      centre_ = QPointF(sample_.image.width() / 2.0, sample_.image.height() / 2.0);
    }
    showError(QString());
  } else {
    sample_ = SegmentationSample{};
    agreement_ = AgreementMap{};
    for (auto& o : overlays_) o = QImage();
    showError(message);
  }
  agreementLegend_->setMap(agreement_);
  redrawPanes();
  applyView();
  updateTexts();
  onHover(hover_);
  emit currentImageChanged(currentId());
}

void SegmentationViewer::redrawPanes() {
  if (!sampleOk_) {
    for (auto* p : panes_) p->setImage(QImage());
    return;
  }
  panes_[ImagePane]->setImage(sample_.image);
  for (int k : {TruthPane, TeacherPane, StudentPane, DisagreementPane})
    panes_[k]->setImage(composeMask(sample_.image, overlays_[k], opacity_));
}

void SegmentationViewer::setOpacity(double opacity) {
  opacitySlider_->setValue(int(std::lround(std::clamp(opacity, 0.0, 1.0) * 100)));
}

void SegmentationViewer::applyView() {
  for (auto* p : panes_) p->setView(scale_, centre_);
  zoomLabel_->setText(scale_ > 0.0 ? tr("zoom %1×").arg(scale_, 0, 'f', 1)
                                   : tr("fit (%1×)").arg(panes_[ImagePane]->scale(), 0, 'f', 1));
}

void SegmentationViewer::onZoomRequested(ZoomImagePane* origin, double factor, QPointF anchor,
                                         QPointF offset) {
  if (!sampleOk_) return;
  const double fit = origin->fitScale();
  const double scale = std::min(std::max(kMaxScale, 16 * fit), origin->scale() * factor);
  if (scale <= fit * 1.001) {
    resetZoom();
    return;
  }
  scale_ = scale;
  const QSizeF size = sample_.image.size();
  const QPointF c = anchor - offset / scale;
  centre_ = QPointF(std::clamp(c.x(), 0.0, size.width()), std::clamp(c.y(), 0.0, size.height()));
  applyView();
}

void SegmentationViewer::zoomBy(double factor) {
  auto* origin = panes_[ImagePane];
  onZoomRequested(origin, factor, origin->centre(), QPointF());
}

void SegmentationViewer::resetZoom() {
  scale_ = 0.0;
  if (sampleOk_) centre_ = QPointF(sample_.image.width() / 2.0, sample_.image.height() / 2.0);
  applyView();
}

void SegmentationViewer::onPanRequested(QPointF delta) {
  if (!sampleOk_ || scale_ <= 0.0) return;
  const QSizeF size = sample_.image.size();
  const QPointF c = centre_ + delta;
  centre_ = QPointF(std::clamp(c.x(), 0.0, size.width()), std::clamp(c.y(), 0.0, size.height()));
  applyView();
}

QString SegmentationViewer::className(int index) const {
  if (index == results_.ignoreIndex) return tr("ignore (%1)").arg(index);
  if (index >= 0 && index < results_.classes.size()) return results_.classes[index].name;
  return tr("class %1").arg(index);
}

QColor SegmentationViewer::classColor(int index) const {
  return index >= 0 && index < results_.classes.size() && index != results_.ignoreIndex
             ? results_.classes[index].color
             : QColor();
}

void SegmentationViewer::onHover(QPoint pixel) {
  hover_ = pixel;
  const bool inside = sampleOk_ && pixel.x() >= 0 && pixel.y() >= 0 &&
                      pixel.x() < sample_.truth.width && pixel.y() < sample_.truth.height;
  if (!inside) {
    for (auto* p : panes_) p->setHover(QPoint(-1, -1), QString());
    classLegend_->setHighlightedClass(-1);
    if (loaded_) hoverLabel_->setText(tr("Point at a pane to read the classes under the cursor."));
    return;
  }
  const int x = pixel.x(), y = pixel.y();
  const int t = sample_.truth.at(x, y), a = sample_.teacher.at(x, y), s = sample_.student.at(x, y);
  const Agreement g = agreement_.at(x, y);
  panes_[ImagePane]->setHover(pixel, tr("x %1, y %2").arg(x).arg(y));
  panes_[TruthPane]->setHover(pixel, className(t), classColor(t));
  panes_[TeacherPane]->setHover(pixel, className(a), classColor(a));
  panes_[StudentPane]->setHover(pixel, className(s), classColor(s));
  panes_[DisagreementPane]->setHover(pixel, agreementName(g),
                                     g == Agreement::Ignore ? QColor() : agreementColor(g));
  classLegend_->setHighlightedClass(t == results_.ignoreIndex ? -1 : t);
  hoverLabel_->setText(tr("Pixel (%1, %2): truth %3 · teacher %4 · student %5 — %6")
                           .arg(x)
                           .arg(y)
                           .arg(className(t), className(a), className(s), agreementName(g)));
}

}  // namespace adala::widgets
