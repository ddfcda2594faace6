#pragma once
// One square-pixel view of an image (letterboxed, aspect kept) with a title and an optional
// highlighted grid cell. Clicks report the clicked point in image pixel coordinates.
#include <QPointF>
#include <QRect>
#include <QString>

#include "widgets/titled_image_pane.h"

namespace adala::widgets {

class ImagePane : public TitledImagePane {
  Q_OBJECT
 public:
  explicit ImagePane(const QString& title, QWidget* parent = nullptr);

  // The cell to outline, in image pixels (empty: none).
  void setHighlight(const QRect& imageRect);
  // Where an image pixel (centre) lands in widget coordinates, and back.
  QPointF toWidget(const QPointF& imagePoint) const;
  QPointF toImage(const QPointF& widgetPoint) const;
  QRectF imageRectInWidget() const;

  QSize sizeHint() const override { return {280, 300}; }
  QSize minimumSizeHint() const override { return {120, 140}; }

 signals:
  void clicked(QPointF imagePoint);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  QRect highlight_;
};

}  // namespace adala::widgets
