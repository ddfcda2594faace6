#pragma once
// The inspector's panes as one figure: the panes side by side, each with its title and its
// labelled colour strip, and a caption line (checkpoint, image, block, head, query, scale),
// black on white, as PNG or PDF.
#include <QImage>
#include <QRect>
#include <QString>
#include <QVector>

#include "widgets/common/colormap.h"
#include "widgets/common/colour_scale.h"

class QPainter;

namespace adala::widgets {

struct FigurePane {
  QString title;
  QImage image;              // as the pane shows it (overlay included)
  QVector<ScaleTick> ticks;  // its colour strip; none: no strip (the image pane)
  QRect highlight;           // the query cell, in image pixels (empty: none)
  QRect content;             // the image's content, outlined when not all of it
};

struct Figure {
  QVector<FigurePane> panes;
  Colormap map = Colormap::Viridis;
  QString caption;
};

// The longest side a pane's image gets in the figure; smaller images keep their size (so the
// figure's pixels are the panes' pixels).
constexpr int kFigurePaneSide = 512;

// The figure's size and where each pane's image lands in it.
QSize figureSize(const Figure& figure, QVector<QRect>* imageRects = nullptr);
void paintFigure(QPainter& p, const Figure& figure);
QImage renderFigure(const Figure& figure);
// Writes `path` (.png, or .pdf through QPdfWriter); returns the error, empty on success.
QString writeFigure(const Figure& figure, const QString& path);

}  // namespace adala::widgets
