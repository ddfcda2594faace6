#include "widgets/common/colour_scale.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace adala::widgets {

namespace {

// A positive upper end for a scale whose values are all zero (or missing).
double usableMax(double vmax) { return vmax > 0.0 && std::isfinite(vmax) ? vmax : 1.0; }

}  // namespace

QVector<PaneScale> paneScales(ScaleMode mode, const QVector<double>& maxima, double fixedMin,
                              double fixedMax) {
  double shared = 0.0;
  for (double m : maxima) shared = std::max(shared, m);
  shared = usableMax(shared);
  QVector<PaneScale> out;
  for (double m : maxima) {
    PaneScale s;
    switch (mode) {
      case ScaleMode::Shared:
        s.vmax = shared;
        break;
      case ScaleMode::PerPane:
        s.vmax = usableMax(m);
        break;
      case ScaleMode::Log:
        s.vmax = shared;
        s.vmin = shared / kLogDynamicRange;
        s.log = true;
        break;
      case ScaleMode::Fixed:
        s.vmin = fixedMin;
        s.vmax = fixedMax;
        break;
    }
    out.push_back(s);
  }
  return out;
}

int scaleLevel(double value, const PaneScale& s) {
  if (!s.log) return colormapLevel(value, s.vmin, s.vmax);
  const double lo = std::log10(s.vmin), hi = std::log10(s.vmax);
  const double t = (std::log10(std::max(value, s.vmin)) - lo) / (hi - lo);
  if (!std::isfinite(t)) return 0;
  return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * 255.0));
}

QImage scaleGrid(const float* values, int gridHeight, int gridWidth, const PaneScale& scale,
                 Colormap map) {
  if (!scale.log) return colormapGrid(values, gridHeight, gridWidth, scale.vmin, scale.vmax, map);
  QImage image(gridWidth, gridHeight, QImage::Format_RGB32);
  QRgb table[256];
  for (int i = 0; i < 256; ++i) table[i] = colormapColor(map, i).rgb();
  for (int r = 0; r < gridHeight; ++r) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
    for (int c = 0; c < gridWidth; ++c)
      line[c] = table[scaleLevel(values[r * gridWidth + c], scale)];
  }
  return image;
}

QString decadeLabel(int exponent) {
  static const QString digits[10] = {QStringLiteral("⁰"), QStringLiteral("¹"), QStringLiteral("²"),
                                     QStringLiteral("³"), QStringLiteral("⁴"), QStringLiteral("⁵"),
                                     QStringLiteral("⁶"), QStringLiteral("⁷"), QStringLiteral("⁸"),
                                     QStringLiteral("⁹")};
  QString e;
  for (const QChar c : QString::number(std::abs(exponent))) e += digits[c.digitValue()];
  return QStringLiteral("10") + (exponent < 0 ? QStringLiteral("⁻") : QString()) + e;
}

QVector<ScaleTick> scaleTicks(const PaneScale& s) {
  QVector<ScaleTick> ticks;
  if (!s.log) {
    for (int i = 0; i <= 4; ++i) {
      const double v = s.vmin + (s.vmax - s.vmin) * i / 4.0;
      ticks.push_back({i / 4.0, QString::number(v, 'g', 3)});
    }
    return ticks;
  }
  const double lo = std::log10(s.vmin), hi = std::log10(s.vmax);
  for (int k = static_cast<int>(std::ceil(lo - 1e-9)); k <= static_cast<int>(std::floor(hi + 1e-9));
       ++k)
    ticks.push_back({(k - lo) / (hi - lo), decadeLabel(k)});
  return ticks;
}

QString fixedRangeError(double min, double max) {
  if (!std::isfinite(min) || !std::isfinite(max))
    return QCoreApplication::translate("ColourScale", "The range's ends must be finite numbers.");
  if (!(min < max))
    return QCoreApplication::translate("ColourScale",
                                       "The range's minimum must be below its maximum.");
  return {};
}

bool parseFixedRange(const QString& text, double* min, double* max, QString* error) {
  static const QRegularExpression split(
      QStringLiteral(R"(^\s*(\S+?)\s*(?:\.\.|–|,|\s)\s*(\S+)\s*$)"));
  const auto m = split.match(text);
  bool okMin = false, okMax = false;
  double a = 0.0, b = 0.0;
  if (m.hasMatch()) {
    a = m.captured(1).toDouble(&okMin);
    b = m.captured(2).toDouble(&okMax);
  }
  if (!okMin || !okMax) {
    if (error)
      *error = QCoreApplication::translate(
          "ColourScale", "Type the range as two numbers, minimum..maximum (e.g. 0..0.01).");
    return false;
  }
  const QString why = fixedRangeError(a, b);
  if (!why.isEmpty()) {
    if (error) *error = why;
    return false;
  }
  *min = a;
  *max = b;
  if (error) error->clear();
  return true;
}

void drawScaleStrip(QPainter& p, const QRectF& strip, Colormap map, const QVector<ScaleTick>& ticks,
                    const QColor& text, double labelLeft, double labelRight) {
  const int w = std::max(2, static_cast<int>(strip.width()));
  QImage bar(w, 1, QImage::Format_RGB32);
  for (int x = 0; x < w; ++x)
    bar.setPixel(x, 0,
                 colormapColor(map, static_cast<int>(std::lround(255.0 * x / (w - 1)))).rgb());
  p.save();
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(strip, bar);
  p.setPen(text);
  p.setBrush(Qt::NoBrush);
  p.drawRect(strip);
  const QFontMetricsF fm(p.font());
  double lastRight = -1e9;
  for (int i = 0; i < ticks.size(); ++i) {
    const double x = strip.left() + ticks[i].position * strip.width();
    p.drawLine(QPointF(x, strip.bottom()), QPointF(x, strip.bottom() + 3));
    const double lw = fm.horizontalAdvance(ticks[i].label);
    double left = std::clamp(x - lw / 2, labelLeft, std::max(labelLeft, labelRight - lw));
    if (left < lastRight + 4) {
      if (i + 1 < ticks.size()) continue;
      left = lastRight + 4;
    }
    p.drawText(QRectF(left, strip.bottom() + 3, lw + 1, fm.height()), Qt::AlignLeft | Qt::AlignTop,
               ticks[i].label);
    lastRight = left + lw;
  }
  p.restore();
}

QStringList scaleModeNames() {
  return {QCoreApplication::translate("ColourScale", "shared scale"),
          QCoreApplication::translate("ColourScale", "per-pane scale"),
          QCoreApplication::translate("ColourScale", "log scale"),
          QCoreApplication::translate("ColourScale", "fixed range")};
}

}  // namespace adala::widgets
