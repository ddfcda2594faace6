#pragma once
// One square-pixel view of an image (letterboxed, aspect kept) with a title and an optional
// highlighted grid cell. Clicks report the clicked point in image pixel coordinates.
#include <QImage>
#include <QPointF>
#include <QRect>
#include <QString>
#include <QWidget>

namespace adala::widgets {

class ImagePane : public QWidget {
  Q_OBJECT
 public:
  explicit ImagePane(const QString& title, QWidget* parent = nullptr);

  void setImage(const QImage& image);
  const QImage& image() const { return image_; }
  void setTitle(const QString& title);
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
  QString title_;
  QImage image_;
  QRect highlight_;
};

}  // namespace adala::widgets
