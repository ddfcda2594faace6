#pragma once
// One titled view of an image that can be zoomed and panned, meant to be one of several panes
// that show the same view: the pane does not change its view itself, it asks (Ctrl + wheel,
// drag, double-click) and its owner sets the shared view on every pane with setView(). It also
// reports the image pixel under the cursor and draws a marker and a label there on request.
#include <QColor>
#include <QPoint>
#include <QPointF>
#include <QString>

#include "widgets/common/titled_image_pane.h"

namespace adala::widgets {

class ZoomImagePane : public TitledImagePane {
  Q_OBJECT
 public:
  explicit ZoomImagePane(const QString& title, QWidget* parent = nullptr);

  // Screen pixels per image pixel (0: fit the pane) and the image point at the pane's centre
  // (ignored when fitting).
  void setView(double scale, const QPointF& centre);
  bool fitting() const { return scale_ <= 0.0; }
  double scale() const;  // in effect, fitting or not
  QPointF centre() const;

  // The marker on an image pixel and its label ((-1, -1): none).
  void setHover(const QPoint& pixel, const QString& label, const QColor& swatch = {});
  QPoint hoverPixel() const { return hoverPixel_; }
  QString hoverLabel() const { return hoverLabel_; }

  // The mapping between widget and image coordinates.
  QPointF toWidget(const QPointF& imagePoint) const;
  QPointF toImage(const QPointF& widgetPoint) const;

  QSize sizeHint() const override { return {260, 280}; }
  QSize minimumSizeHint() const override { return {100, 120}; }

  static constexpr int kTitleHeight = 22;

 signals:
  // Zoom by `factor`, keeping `anchor` (image point) at `offset` from the view area's centre.
  void zoomRequested(double factor, QPointF anchor, QPointF offset);
  void panRequested(QPointF imageDelta);
  void fitRequested();
  // The image pixel under the cursor, (-1, -1) when it leaves the image.
  void hovered(QPoint pixel);

 protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  void reportHover(const QPointF& widgetPoint);
  void drawHover(QPainter& p);
  void drawHoverMarks(QPainter& p);

  double scale_ = 0.0;
  QPointF centre_;
  bool dragging_ = false;
  QPointF lastDrag_;
  QPoint hoverPixel_{-1, -1};
  QString hoverLabel_;
  QColor hoverSwatch_;
};

}  // namespace adala::widgets
