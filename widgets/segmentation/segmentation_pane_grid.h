#pragma once
// The segmentation viewer's panes, laid out anew whenever the space or the image's shape changes.
#include <QSize>
#include <QVector>
#include <QWidget>

#include <functional>

namespace adala::widgets {

class ZoomImagePane;

// The five panes in the grid that makes them largest for the space and the image's shape; in
// two rows of three, truth, teacher and student share the first row.
class SegmentationPaneGrid : public QWidget {
 public:
  explicit SegmentationPaneGrid(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }
  void setPanes(const QVector<ZoomImagePane*>& panes) {
    panes_ = panes;
    arrange();
  }
  void setImageSize(const QSize& size) {
    if (size.isEmpty() || size == imageSize_) return;
    imageSize_ = size;
    arrange();
  }
  int columns() const { return columns_; }
  // Called after the panes have been laid out again.
  void setRelayoutHandler(std::function<void()> handler) { relayout_ = std::move(handler); }
  QSize sizeHint() const override { return {900, 560}; }
  QSize minimumSizeHint() const override { return {320, 240}; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void arrange();

  static constexpr int kSpacing = 6;
  QVector<ZoomImagePane*> panes_;
  std::function<void()> relayout_;
  QSize imageSize_{1, 1};
  int columns_ = 0;
};

}  // namespace adala::widgets
