#pragma once
// The mark on the query patch, the same on screen (ImagePane) and in an exported figure: a
// black-and-white square around a patch of at least 10 pixels, else (a 1024 x 1024 input's
// patch is a pixel or two) a ring with cross hairs around its centre.
#include <QRectF>

class QPainter;

namespace adala::widgets {

void drawQueryMarker(QPainter& painter, const QRectF& cell);

}  // namespace adala::widgets
