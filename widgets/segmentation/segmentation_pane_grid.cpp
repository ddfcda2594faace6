#include "widgets/segmentation/segmentation_pane_grid.h"

#include <QResizeEvent>

#include <algorithm>
#include <numeric>

#include "widgets/common/zoom_image_pane.h"
#include "widgets/segmentation/segmentation_viewer.h"

namespace adala::widgets {

void SegmentationPaneGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  arrange();
  if (relayout_) relayout_();
}

void SegmentationPaneGrid::arrange() {
  const int n = int(panes_.size());
  if (n == 0) return;
  const double iw = std::max(1, imageSize_.width()), ih = std::max(1, imageSize_.height());
  double best = -1.0;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const double cw = (width() - (cols - 1) * kSpacing) / double(cols);
    const double ch =
        (height() - (rows - 1) * kSpacing) / double(rows) - ZoomImagePane::kTitleHeight;
    const double s = std::min(cw / iw, ch / ih);
    if (s > best + 1e-9) {
      best = s;
      columns_ = cols;
    }
  }
  const int cols = columns_, rows = (n + cols - 1) / cols;
  const int cw = std::max(0, (width() - (cols - 1) * kSpacing) / cols);
  const int ch = std::max(0, (height() - (rows - 1) * kSpacing) / rows);
  // Two rows of three: truth, teacher, student above; image and disagreement below.
  QVector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (cols == 3 && n == SegmentationViewer::PaneCount)
    order = {SegmentationViewer::TruthPane, SegmentationViewer::TeacherPane,
             SegmentationViewer::StudentPane, SegmentationViewer::ImagePane,
             SegmentationViewer::DisagreementPane};
  for (int i = 0; i < n; ++i) {
    const int row = i / cols, col = i % cols;
    const int inRow = std::min(cols, n - row * cols);
    const int left = (width() - (inRow * cw + (inRow - 1) * kSpacing)) / 2;  // centre a short row
    panes_[order[i]]->setGeometry(left + col * (cw + kSpacing), row * (ch + kSpacing), cw, ch);
  }
}

}  // namespace adala::widgets
