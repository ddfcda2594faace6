#pragma once
// How the inspector maps attention weights to colours: one scale shared by the three maps,
// each map on its own 0..max, a logarithmic scale (log10 of the weights from max / 1e4 up,
// labelled in decades), or a range the user types. Plain maths and labels; no widgets.
#include <QImage>
#include <QString>
#include <QStringList>
#include <QVector>

#include "widgets/common/colormap.h"

class QPainter;
class QRectF;
class QColor;

namespace adala::widgets {

enum class ScaleMode { Shared = 0, PerPane = 1, Log = 2, Fixed = 3 };

// One map's scale: values in [vmin, vmax] (clamped outside) map to the colour map's 0..255.
struct PaneScale {
  double vmin = 0.0, vmax = 1.0;
  bool log = false;  // levels follow log10 of the value (vmin > 0)
};

struct ScaleTick {
  double position = 0.0;  // 0 = the bottom (vmin) of the bar, 1 = the top (vmax)
  QString label;
};

// The lowest weight a logarithmic scale shows: vmax / kLogDynamicRange.
constexpr double kLogDynamicRange = 1e4;

// The scale of each of `count` maps (maxima[i] = the largest value of map i) under a mode;
// fixedMin / fixedMax are used by ScaleMode::Fixed only.
QVector<PaneScale> paneScales(ScaleMode mode, const QVector<double>& maxima, double fixedMin,
                              double fixedMax);
// 0..255 level of a value on a scale (log scales floor the value at vmin).
int scaleLevel(double value, const PaneScale& scale);
// A gridWidth x gridHeight RGB image, one pixel per value (row-major) on the scale.
QImage scaleGrid(const float* values, int gridHeight, int gridWidth, const PaneScale& scale,
                 Colormap map);
// The tick marks of a scale's colour bar: linear scales 0, ¼ … max; log scales every decade
// in range (labelled 10⁻³, 10⁻², …).
QVector<ScaleTick> scaleTicks(const PaneScale& scale);
// A decade as text: 10 with a superscript exponent ("10⁻⁴").
QString decadeLabel(int exponent);
// Why min..max is not a usable fixed range (empty if it is): both finite, min < max, max > 0.
QString fixedRangeError(double min, double max);
// Parses "min..max" (or "min - max", "min, max", "min max"); on failure `error` says why.
bool parseFixedRange(const QString& text, double* min, double* max, QString* error);
// A horizontal colour strip (left = the scale's bottom) with its ticks under it and their
// labels below, kept within [labelLeft, labelRight]; a label that would overlap the previous
// one is left out (the last, the scale's top, is always written). Uses the painter's font.
void drawScaleStrip(QPainter& p, const QRectF& strip, Colormap map, const QVector<ScaleTick>& ticks,
                    const QColor& text, double labelLeft, double labelRight);
// Names of the modes in enum order, for a combo box.
QStringList scaleModeNames();

}  // namespace adala::widgets
