#include "widgets/segmentation/segmentation_metrics.h"

#include <QtNumeric>

#include <algorithm>
#include <cstring>

namespace adala::widgets {

namespace {

bool sameSize(const ClassMask& a, const ClassMask& b) {
  return a.width == b.width && a.height == b.height && !a.isNull();
}

}  // namespace

bool classMaskFromImage(const QImage& image, ClassMask* mask) {
  if (image.isNull()) return false;
  if (image.format() != QImage::Format_Grayscale8 && image.format() != QImage::Format_Indexed8)
    return false;
  mask->width = image.width();
  mask->height = image.height();
  mask->labels.resize(qsizetype(image.width()) * image.height());
  for (int y = 0; y < image.height(); ++y)
    std::memcpy(mask->labels.data() + qsizetype(y) * image.width(), image.constScanLine(y),
                size_t(image.width()));
  return true;
}

QImage classMaskToImage(const ClassMask& mask) {
  QImage image(mask.width, mask.height, QImage::Format_Grayscale8);
  for (int y = 0; y < mask.height; ++y)
    std::memcpy(image.scanLine(y), mask.labels.constData() + qsizetype(y) * mask.width,
                size_t(mask.width));
  return image;
}

Agreement agreementOf(int truth, int teacher, int student, int ignoreIndex) {
  if (truth == ignoreIndex) return Agreement::Ignore;
  const bool teacherRight = teacher == truth, studentRight = student == truth;
  if (teacherRight && studentRight) return Agreement::AgreeCorrect;
  if (teacherRight) return Agreement::StudentWrong;
  if (studentRight) return Agreement::TeacherWrong;
  return teacher == student ? Agreement::AgreeWrong : Agreement::BothWrongDifferently;
}

double AgreementMap::fraction(Agreement a) const {
  const qint64 total = qint64(width) * height;
  const qint64 labelled = total - counts[size_t(Agreement::Ignore)];
  const qint64 of = a == Agreement::Ignore ? total : labelled;
  return of > 0 ? double(counts[size_t(a)]) / double(of) : qQNaN();
}

AgreementMap agreementMap(const ClassMask& truth, const ClassMask& teacher,
                          const ClassMask& student, int ignoreIndex) {
  AgreementMap map;
  if (!sameSize(truth, teacher) || !sameSize(truth, student)) return map;
  map.width = truth.width;
  map.height = truth.height;
  map.values.resize(truth.labels.size());
  const quint8* t = truth.labels.constData();
  const quint8* a = teacher.labels.constData();
  const quint8* b = student.labels.constData();
  quint8* out = map.values.data();
  for (qsizetype i = 0; i < truth.labels.size(); ++i) {
    const Agreement g = agreementOf(t[i], a[i], b[i], ignoreIndex);
    out[i] = static_cast<quint8>(g);
    ++map.counts[size_t(g)];
  }
  return map;
}

QVector<double> perClassIou(const ClassMask& truth, const ClassMask& prediction, int classCount,
                            int ignoreIndex) {
  QVector<double> iou(std::max(0, classCount), qQNaN());
  if (!sameSize(truth, prediction)) return iou;
  QVector<qint64> inter(classCount, 0), inTruth(classCount, 0), inPred(classCount, 0);
  const quint8* t = truth.labels.constData();
  const quint8* p = prediction.labels.constData();
  for (qsizetype i = 0; i < truth.labels.size(); ++i) {
    if (t[i] == ignoreIndex) continue;
    if (t[i] < classCount) ++inTruth[t[i]];
    if (p[i] < classCount) ++inPred[p[i]];
    if (t[i] == p[i] && t[i] < classCount) ++inter[t[i]];
  }
  for (int c = 0; c < classCount; ++c) {
    const qint64 uni = inTruth[c] + inPred[c] - inter[c];
    if (uni > 0) iou[c] = double(inter[c]) / double(uni);
  }
  return iou;
}

double meanIou(const QVector<double>& iou) {
  double sum = 0.0;
  int n = 0;
  for (double v : iou)
    if (!qIsNaN(v)) {
      sum += v;
      ++n;
    }
  return n > 0 ? sum / n : qQNaN();
}

double pixelAccuracy(const ClassMask& truth, const ClassMask& prediction, int ignoreIndex) {
  if (!sameSize(truth, prediction)) return qQNaN();
  qint64 labelled = 0, correct = 0;
  for (qsizetype i = 0; i < truth.labels.size(); ++i) {
    if (truth.labels[i] == ignoreIndex) continue;
    ++labelled;
    correct += truth.labels[i] == prediction.labels[i];
  }
  return labelled > 0 ? double(correct) / double(labelled) : qQNaN();
}

double disagreementFraction(const ClassMask& truth, const ClassMask& teacher,
                            const ClassMask& student, int ignoreIndex) {
  if (!sameSize(truth, teacher) || !sameSize(truth, student)) return qQNaN();
  qint64 labelled = 0, differ = 0;
  for (qsizetype i = 0; i < truth.labels.size(); ++i) {
    if (truth.labels[i] == ignoreIndex) continue;
    ++labelled;
    differ += teacher.labels[i] != student.labels[i];
  }
  return labelled > 0 ? double(differ) / double(labelled) : qQNaN();
}

}  // namespace adala::widgets
