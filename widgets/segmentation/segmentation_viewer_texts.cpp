// What the viewer says: the controls' counts, the story, summary and image lines, the panes'
// titles, the class legend's IoU and the resolution sweep table.
#include "widgets/segmentation/segmentation_viewer.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>

#include <algorithm>
#include <cmath>

#include "engine/report/sweep_columns.h"
#include "widgets/common/zoom_image_pane.h"
#include "widgets/segmentation/segmentation_legend.h"

namespace adala::widgets {

namespace {

QString number(double v, int decimals = 3) {
  return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', decimals);
}

QString signedNumber(double v, int decimals = 3) {
  if (std::isnan(v)) return QStringLiteral("—");
  const QString magnitude = QString::number(std::abs(v), 'f', decimals);
  return (v < -0.5 * std::pow(10.0, -decimals) ? QStringLiteral("−") : QStringLiteral("+")) +
         magnitude;
}

QString percent(double v) {
  return std::isnan(v) ? QStringLiteral("—") : QString::number(100.0 * v, 'f', 1);
}

// The sweep table's numbers, as the report writes them: mIoU in percent with 2 decimals, its gap
// in percentage points, rates and sizes with 4 significant digits, ratios (student / teacher)
// with 2 decimals and "×".
QString sweepPercent(double fraction) {
  return std::isnan(fraction) ? QStringLiteral("—") : QString::number(100.0 * fraction, 'f', 2);
}

QString sweepAmount(double v) {
  if (std::isnan(v)) return QStringLiteral("—");
  const double a = std::abs(v);
  if (a == 0) return QStringLiteral("0");
  if (a < 1e-3 || a >= 1e6) return QString::number(v, 'g', 4);
  const int leading = int(std::floor(std::log10(a))) + 1;  // digits before the point, or −zeros
  return QString::number(v, 'f', std::clamp(4 - leading, 0, 8));
}

// "112²", built rather than translated: arg() would read "%1²" as the 12th substitution.
QString sweepSide(int imageSize) { return QString::number(imageSize) + QStringLiteral("²"); }

// The sweep table's height: its header and every row, and the horizontal scroll bar when the
// columns are wider than the room (AdjustToContents alone leaves blank space under the rows).
void fitSweepTableHeight(QTableWidget* table) {
  int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
  for (int r = 0; r < table->rowCount(); ++r) height += table->rowHeight(r);
  const QScrollBar* bar = table->horizontalScrollBar();
  if (bar->maximum() > bar->minimum()) height += bar->sizeHint().height();
  table->setFixedHeight(height);
}

static_assert(SegmentationViewer::SweepColumnCount == 1 + kSweepColumnCount,
              "the viewer's sweep columns are the resolution and sweep_columns()");

QString sweepCell(const SweepColumn& column, const SweepPairValues& values) {
  const double v = column.value(values);
  switch (column.format) {
    case SweepCellFormat::Percent:
      return sweepPercent(v);
    case SweepCellFormat::SignedPoints:
      return std::isnan(v) ? QStringLiteral("—") : signedNumber(100.0 * v, 2);
    case SweepCellFormat::Amount:
      return sweepAmount(v);
    case SweepCellFormat::Ratio:
      return std::isfinite(v) ? QString::number(v, 'f', 2) + QStringLiteral("×")
                              : QStringLiteral("—");
  }
  return QString();
}

// One row of the sweep table: the label, then the two models side by side (the columns of
// engine/report/sweep_columns.h).
void fillSweepRow(QTableWidget* table, int row, const QString& label, const QString& tip,
                  const SegmentationMeasure& t, const SegmentationMeasure& s) {
  using V = SegmentationViewer;
  const SweepPairValues values{t.miou, s.miou, t.imgPerS, s.imgPerS, t.peakMb, s.peakMb};
  auto* first = new QTableWidgetItem(label);
  first->setFlags(Qt::ItemIsEnabled);
  first->setToolTip(tip);
  table->setItem(row, V::SweepResolution, first);
  const auto& columns = sweep_columns();
  for (int c = 0; c < kSweepColumnCount; ++c) {
    auto* item = new QTableWidgetItem(sweepCell(columns[size_t(c)], values));
    item->setFlags(Qt::ItemIsEnabled);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, V::SweepResolution + 1 + c, item);
  }
}

}  // namespace

// Teacher and student at each resolution of the sweep, and the paper's numbers: read-only, as
// tall as its rows, hidden until results with a sweep are shown.
QTableWidget* SegmentationViewer::buildSweepTable() {
  sweepTable_ = new QTableWidget(0, SweepColumnCount, this);
  sweepTable_->setObjectName(QStringLiteral("sweepTable"));
  auto* resolution = new QTableWidgetItem(tr("Resolution"));
  resolution->setToolTip(tr("Side of the square evaluation images, in pixels"));
  sweepTable_->setHorizontalHeaderItem(SweepResolution, resolution);
  const auto& columns = sweep_columns();
  for (int c = 0; c < kSweepColumnCount; ++c) {
    const auto& column = columns[size_t(c)];
    auto* item = new QTableWidgetItem(QCoreApplication::translate("AdalaReport", column.header));
    item->setToolTip(QCoreApplication::translate("AdalaReport", column.tip));
    sweepTable_->setHorizontalHeaderItem(SweepResolution + 1 + c, item);
  }
  sweepTable_->verticalHeader()->setVisible(false);
  sweepTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  sweepTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  sweepTable_->setSelectionMode(QAbstractItemView::NoSelection);
  sweepTable_->setFocusPolicy(Qt::NoFocus);  // keys stay with the viewer
  sweepTable_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  sweepTable_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  sweepTable_->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
  sweepTable_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  // As tall as its header and rows, plus the horizontal scroll bar while that shows.
  connect(sweepTable_->horizontalScrollBar(), &QScrollBar::rangeChanged, sweepTable_,
          [table = sweepTable_] { fitSweepTableHeight(table); });
  sweepTable_->setVisible(false);
  return sweepTable_;
}

void SegmentationViewer::updateTexts() {
  updatingControls_ = true;
  const int n = imageCount();
  positionSpin_->setRange(n > 0 ? 1 : 0, n);
  positionSpin_->setValue(position_ + 1);
  positionSpin_->setEnabled(n > 0);
  countLabel_->setText(tr("of %1").arg(n));
  prevButton_->setEnabled(position_ > 0);
  nextButton_->setEnabled(position_ >= 0 && position_ < n - 1);
  updatingControls_ = false;

  storyLabel_->setText(storyText());
  storyLabel_->setVisible(loaded_);
  summaryLabel_->setText(
      loaded_ ? summaryText()
              : tr("Open a segmentation results folder (File → Open segmentation results…)."));
  imageLabel_->setText(imageText());
  const int e = currentEntry();
  const SegmentationEntry* entry = e >= 0 ? &results_.entries[e] : nullptr;
  panes_[ImagePane]->setTitle(entry ? tr("Image %1").arg(entry->id) : tr("Image"));
  panes_[TruthPane]->setTitle(tr("Ground truth"));
  panes_[TeacherPane]->setTitle(entry ? tr("Teacher · mIoU %1").arg(number(entry->teacherMiou))
                                      : tr("Teacher"));
  panes_[StudentPane]->setTitle(entry ? tr("Student · mIoU %1").arg(number(entry->studentMiou))
                                      : tr("Student"));
  panes_[DisagreementPane]->setTitle(
      entry ? tr("Disagreement · %1 %").arg(percent(entry->disagreement)) : tr("Disagreement"));
  updateLegendIou();
}

// The usual split names in the interface's language; any other name as the results give it.
QString SegmentationViewer::splitName(const QString& split) {
  if (split == QLatin1String("train") || split == QLatin1String("training")) return tr("training");
  if (split == QLatin1String("validation") || split == QLatin1String("val"))
    return tr("validation");
  if (split == QLatin1String("test")) return tr("test");
  return split;
}

QString SegmentationViewer::summaryText() const {
  if (!loaded_) return {};
  const auto& r = results_;
  const QString where = r.split.isEmpty()
                            ? tr("%1 head · %2 images").arg(r.head).arg(r.entries.size())
                            : tr("%1 head · %2 split · %3 images")
                                  .arg(r.head, splitName(r.split))
                                  .arg(r.entries.size());
  return tr("%1  —  teacher mIoU %2 · student mIoU %3 · student − teacher %4  —  pixel accuracy: "
            "teacher %5 % · "
            "student %6 %")
      .arg(where, number(r.teacher.miou), number(r.student.miou),
           signedNumber(r.student.miou - r.teacher.miou), percent(r.teacher.pixelAccuracy),
           percent(r.student.pixelAccuracy));
}

QString SegmentationViewer::storyText() const {
  if (!loaded_) return {};
  if (!results_.story) return tr("%1 head").arg(results_.head);
  const SegmentationStory& s = *results_.story;
  QStringList parts{tr("%1×%1").arg(s.imageSize)};
  if (!s.fineTuned) {
    parts << tr("backbone frozen");
  } else {
    QStringList how;
    if (!std::isnan(s.backboneLrScale)) how << tr("lr ×%1").arg(s.backboneLrScale);
    if (!std::isnan(s.layerDecay)) how << tr("layer decay %1").arg(s.layerDecay);
    if (s.probeEpochs > 0) how << tr("head probed %n epoch(s) first", nullptr, int(s.probeEpochs));
    parts << (how.isEmpty() ? tr("backbone fine-tuned")
                            : tr("backbone fine-tuned (%1)").arg(how.join(QStringLiteral(", "))));
  }
  parts << tr("%1 head").arg(s.head.isEmpty() ? results_.head : s.head);
  if (s.trainImages >= 0) parts << tr("%n training scene(s)", nullptr, int(s.trainImages));
  if (!s.adaptation.isEmpty()) parts << tr("student: %1").arg(s.adaptation);
  return parts.join(QStringLiteral(" · "));
}

void SegmentationViewer::updateSweepTable() {
  const auto& sweep = results_.sweep;
  const bool shown = loaded_ && !sweep.isEmpty();
  const auto& paper = results_.paper;
  sweepTable_->setRowCount(shown ? int(sweep.size()) + (paper ? 1 : 0) : 0);
  sweepTable_->setVisible(shown);
  if (!shown) return;
  for (int i = 0; i < sweep.size(); ++i) {
    const auto& row = sweep[i];
    fillSweepRow(sweepTable_, i, sweepSide(row.imageSize),
                 tr("%n validation scene(s) of %1 to %2 garments", nullptr, int(row.valImages))
                     .arg(row.garmentsMin)
                     .arg(row.garmentsMax),
                 row.teacher, row.student);
  }
  if (paper) {
    const int row = int(sweep.size());
    const QString size = QString::number(paper->imageSize);
    fillSweepRow(
        sweepTable_, row,
        tr("paper: %1").arg(paper->dataset) + QLatin1Char(' ') + sweepSide(paper->imageSize),
        tr("The paper's numbers (%1 at %2 × %2 pixels), for comparison: not measured "
           "here.")
            .arg(paper->dataset, size),
        paper->teacher, paper->student);
    QFont italic = sweepTable_->font();
    italic.setItalic(true);
    for (int c = 0; c < SweepColumnCount; ++c) sweepTable_->item(row, c)->setFont(italic);
  }
  sweepTable_->resizeColumnsToContents();
  sweepTable_->resizeRowsToContents();
  fitSweepTableHeight(sweepTable_);
}

QString SegmentationViewer::imageText() const {
  const int e = currentEntry();
  if (e < 0) return {};
  const auto& entry = results_.entries[e];
  return tr("Image %1 (%2 of %3): teacher mIoU %4 · student mIoU %5 · student − teacher %6 · they "
            "disagree on %7 % "
            "of the labelled pixels")
      .arg(entry.id)
      .arg(position_ + 1)
      .arg(imageCount())
      .arg(number(entry.teacherMiou), number(entry.studentMiou), signedNumber(entry.gap()),
           percent(entry.disagreement));
}

QString SegmentationViewer::hoverText() const { return hoverLabel_->text(); }

void SegmentationViewer::updateLegendIou() {
  const int e = currentEntry();
  if (!loaded_) {
    classLegend_->setIou({}, {}, QString());
    return;
  }
  if (scope_ == ImageIou && e >= 0) {
    const auto& entry = results_.entries[e];
    classLegend_->setIou(entry.teacherIou, entry.studentIou,
                         tr("IoU on image %1 (— : class absent)").arg(entry.id));
  } else {
    const bool recorded =
        !results_.teacher.perClassIou.isEmpty() || !results_.student.perClassIou.isEmpty();
    classLegend_->setIou(
        results_.teacher.perClassIou, results_.student.perClassIou,
        recorded ? tr("IoU over all %1 images (— : class absent)").arg(results_.entries.size())
                 : tr("index.json records no per-class IoU over the split."));
  }
}

}  // namespace adala::widgets
