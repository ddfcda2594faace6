#pragma once
// One square-pixel view of an image (letterboxed, aspect kept) with a title, an optional
// highlighted grid cell, an optional outline of the image's content (the rest being padding)
// and an optional labelled colour strip under the image. Clicks report the clicked point in
// image pixel coordinates.
#include <QPointF>
#include <QRect>
#include <QString>
#include <QVector>

#include "widgets/common/colormap.h"
#include "widgets/common/colour_scale.h"
#include "widgets/common/titled_image_pane.h"

namespace adala::widgets {

class ImagePane : public TitledImagePane {
  Q_OBJECT
 public:
  explicit ImagePane(const QString& title, QWidget* parent = nullptr);

  // The cell to outline, in image pixels (empty: none).
  void setHighlight(const QRect& imageRect);
  // The part of the image that is content (outlined, dashed, when it is not the whole image).
  void setContentRect(const QRect& imageRect);
  // A horizontal colour strip under the image, left = the scale's bottom, with tick labels;
  // no ticks: none.
  void setScaleStrip(Colormap map, const QVector<ScaleTick>& ticks);
  const QVector<ScaleTick>& scaleStripTicks() const { return ticks_; }
  // Where the strip is drawn (empty without one), in widget coordinates.
  QRectF scaleStripRect() const;
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
  void drawScaleStrip(QPainter& p) const;

  QRect highlight_;
  QRect content_;
  Colormap map_ = Colormap::Viridis;
  QVector<ScaleTick> ticks_;
};

}  // namespace adala::widgets
