#include "widgets/common/figure_export.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>
#include <cmath>

#include "widgets/common/query_marker.h"

namespace adala::widgets {

namespace {

constexpr int kMargin = 12;
constexpr int kPanelGap = 14;
constexpr int kTitle = 24;
constexpr int kStrip = 10;
constexpr int kFigureStripFooter = 34;

QFont figureFont(double scale = 1.0) {
  QFont f = QGuiApplication::font();
  f.setPixelSize(std::max(8, static_cast<int>(std::lround(13 * scale))));
  return f;
}

QSize paneImageSize(const QImage& image) {
  if (image.isNull()) return {kFigurePaneSide / 2, kFigurePaneSide / 2};
  const int longest = std::max(image.width(), image.height());
  if (longest <= kFigurePaneSide) return image.size();
  return image.size().scaled(kFigurePaneSide, kFigurePaneSide, Qt::KeepAspectRatio);
}

int captionHeight(const Figure& figure, int width) {
  const QFontMetricsF fm(figureFont());
  return static_cast<int>(std::ceil(
      fm.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, figure.caption).height()));
}

}  // namespace

QSize figureSize(const Figure& figure, QVector<QRect>* imageRects) {
  int x = kMargin, tallest = 0;
  QVector<QRect> rects;
  for (const auto& pane : figure.panes) {
    const QSize s = paneImageSize(pane.image);
    rects.push_back(QRect(QPoint(x, kMargin + kTitle), s));
    x += s.width() + kPanelGap;
    tallest = std::max(tallest, s.height());
  }
  const int width = std::max(200, x - kPanelGap + kMargin);
  if (imageRects) *imageRects = rects;
  const int height = kMargin + kTitle + tallest + kFigureStripFooter + 8 +
                     captionHeight(figure, width - 2 * kMargin) + kMargin;
  return {width, height};
}

void paintFigure(QPainter& p, const Figure& figure) {
  QVector<QRect> rects;
  const QSize size = figureSize(figure, &rects);
  p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
  int tallest = 0;
  for (const auto& r : rects) tallest = std::max(tallest, r.height());
  QFont bold = figureFont();
  bold.setBold(true);
  for (int i = 0; i < figure.panes.size(); ++i) {
    const auto& pane = figure.panes[i];
    const QRect r = rects[i];
    p.setPen(Qt::black);
    p.setFont(bold);
    p.drawText(QRect(r.left(), kMargin, r.width(), kTitle - 4), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(bold).elidedText(pane.title, Qt::ElideRight, r.width()));
    if (!pane.image.isNull()) {
      p.setRenderHint(QPainter::SmoothPixmapTransform, r.width() < pane.image.width());
      p.drawImage(r, pane.image);
    }
    const double sx = pane.image.isNull() ? 1.0 : double(r.width()) / pane.image.width();
    const double sy = pane.image.isNull() ? 1.0 : double(r.height()) / pane.image.height();
    auto toFigure = [&](const QRect& box) {
      return QRectF(r.left() + box.left() * sx, r.top() + box.top() * sy, box.width() * sx,
                    box.height() * sy);
    };
    p.setBrush(Qt::NoBrush);
    if (!pane.content.isEmpty() && pane.content != pane.image.rect()) {
      p.setPen(QPen(Qt::white, 1, Qt::DashLine));
      p.drawRect(toFigure(pane.content));
    }
    if (!pane.highlight.isEmpty()) drawQueryMarker(p, toFigure(pane.highlight));
    if (!pane.ticks.isEmpty()) {
      const QRectF strip(r.left(), kMargin + kTitle + tallest + 6, r.width(), kStrip);
      p.setFont(figureFont(0.9));
      drawScaleStrip(p, strip, figure.map, pane.ticks, Qt::black, r.left(), r.right());
    }
  }
  p.setPen(Qt::black);
  p.setFont(figureFont());
  p.drawText(QRect(kMargin, kMargin + kTitle + tallest + kFigureStripFooter + 8,
                   size.width() - 2 * kMargin, size.height()),
             Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, figure.caption);
}

QImage renderFigure(const Figure& figure) {
  QImage image(figureSize(figure), QImage::Format_RGB32);
  QPainter p(&image);
  paintFigure(p, figure);
  return image;
}

QString writeFigure(const Figure& figure, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("pdf")) {
    const QSize size = figureSize(figure);
    QPdfWriter writer(path);
    writer.setResolution(96);
    writer.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0),
                                 QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(figure.caption);
    QPainter p;
    if (!p.begin(&writer))
      return QCoreApplication::translate("FigureExport", "Cannot write %1.").arg(path);
    paintFigure(p, figure);
    p.end();
    return {};
  }
  if (!renderFigure(figure).save(path, "PNG"))
    return QCoreApplication::translate("FigureExport", "Cannot write %1.").arg(path);
  return {};
}

}  // namespace adala::widgets
