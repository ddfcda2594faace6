#include "widgets/segmentation/segmentation_render.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>

namespace adala::widgets {

QImage renderClassMask(const ClassMask& mask, const QVector<QColor>& palette, int ignoreIndex) {
  QImage out(mask.width, mask.height, QImage::Format_ARGB32);
  QRgb table[256];
  for (int i = 0; i < 256; ++i)
    table[i] = i < palette.size() && i != ignoreIndex ? palette[i].rgb() : qRgba(0, 0, 0, 0);
  for (int y = 0; y < mask.height; ++y) {
    auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
    const quint8* labels = mask.labels.constData() + qsizetype(y) * mask.width;
    for (int x = 0; x < mask.width; ++x) line[x] = table[labels[x]];
  }
  return out;
}

QColor agreementColor(Agreement a) {
  switch (a) {
    case Agreement::AgreeCorrect:
      return QColor(0x40, 0x40, 0x40);
    case Agreement::AgreeWrong:
      return QColor(0xb0, 0x7c, 0xe0);
    case Agreement::StudentWrong:
      return QColor(0xe8, 0x3f, 0x3f);
    case Agreement::TeacherWrong:
      return QColor(0x3a, 0x8e, 0xf0);
    case Agreement::BothWrongDifferently:
      return QColor(0xf2, 0xc2, 0x1a);
    case Agreement::Ignore:
      break;
  }
  return QColor(0, 0, 0, 0);
}

QString agreementName(Agreement a) {
  switch (a) {
    case Agreement::AgreeCorrect:
      return QCoreApplication::translate("adala::widgets", "both right");
    case Agreement::AgreeWrong:
      return QCoreApplication::translate("adala::widgets", "both wrong, same class");
    case Agreement::StudentWrong:
      return QCoreApplication::translate("adala::widgets", "student wrong (teacher right)");
    case Agreement::TeacherWrong:
      return QCoreApplication::translate("adala::widgets", "teacher wrong (student right)");
    case Agreement::BothWrongDifferently:
      return QCoreApplication::translate("adala::widgets", "both wrong, different classes");
    case Agreement::Ignore:
      return QCoreApplication::translate("adala::widgets", "ignored (not labelled)");
  }
  return {};
}

QImage renderAgreement(const AgreementMap& map) {
  QImage out(map.width, map.height, QImage::Format_ARGB32);
  QRgb table[kAgreementCount];
  for (int i = 0; i < kAgreementCount; ++i)
    table[i] = agreementColor(static_cast<Agreement>(i)).rgba();
  for (int y = 0; y < map.height; ++y) {
    auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
    const quint8* values = map.values.constData() + qsizetype(y) * map.width;
    for (int x = 0; x < map.width; ++x)
      line[x] = table[std::min<int>(values[x], kAgreementCount - 1)];
  }
  return out;
}

QImage composeMask(const QImage& base, const QImage& overlay, double opacity) {
  QImage out = base.convertToFormat(QImage::Format_RGB32);
  if (overlay.isNull()) return out;
  QPainter p(&out);
  p.setOpacity(std::clamp(opacity, 0.0, 1.0));
  p.drawImage(out.rect(), overlay);
  return out;
}

}  // namespace adala::widgets
