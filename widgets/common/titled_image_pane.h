#pragma once
// What ImagePane and ZoomImagePane share: a titled view of one image, the title on a line of
// its own above the area the image is drawn in, "no image" there while there is none, and the
// scale that fits the whole image into that area (aspect kept).
#include <QColor>
#include <QImage>
#include <QRectF>
#include <QString>
#include <QWidget>

class QPainter;

namespace adala::widgets {

class TitledImagePane : public QWidget {
  Q_OBJECT
 public:
  void setTitle(const QString& title);
  QString title() const { return title_; }
  void setImage(const QImage& image);
  const QImage& image() const { return image_; }

  // The area below the title line, where the image is drawn.
  QRectF viewArea() const;
  // Screen pixels per image pixel for the whole image to fit viewArea() (1 with no image).
  double fitScale() const;

 protected:
  TitledImagePane(const QString& title, int titleHeight, QWidget* parent);
  int titleHeight() const { return titleHeight_; }
  // The title in bold, elided where it does not fit.
  void drawTitle(QPainter& p, const QColor& color) const;
  // `text` (the subclass's translation of "no image") centred in viewArea().
  void drawPlaceholder(QPainter& p, const QString& text) const;

 private:
  QString title_;
  QImage image_;
  int titleHeight_;
};

}  // namespace adala::widgets
