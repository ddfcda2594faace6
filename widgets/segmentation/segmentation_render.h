#pragma once
// Pictures of class-index masks and of the teacher / student agreement map: each class in its
// palette colour, each agreement category in a fixed colour; ignored pixels are transparent so
// the image shows through when the picture is laid over it.
#include <QColor>
#include <QImage>
#include <QString>
#include <QVector>

#include "widgets/segmentation/segmentation_metrics.h"

namespace adala::widgets {

// ARGB32: palette[index], transparent for the ignore index (and any index past the palette).
QImage renderClassMask(const ClassMask& mask, const QVector<QColor>& palette, int ignoreIndex);
QImage renderAgreement(const AgreementMap& map);

QColor agreementColor(Agreement a);  // Ignore: transparent
QString agreementName(Agreement a);  // "student wrong (teacher right)", ... (translated)

// `overlay` over `base` (same size) at `opacity` in [0, 1]: RGB32.
QImage composeMask(const QImage& base, const QImage& overlay, double opacity);

}  // namespace adala::widgets
