#pragma once
// Class-index masks and what the segmentation viewer computes from them: the per-pixel
// teacher / student agreement map, per-class IoU, mIoU, pixel accuracy and the fraction of
// pixels where teacher and student disagree. Plain data, no drawing.
#include <QImage>
#include <QVector>

#include <array>

namespace adala::widgets {

// One class index per pixel, row-major.
struct ClassMask {
  int width = 0, height = 0;
  QVector<quint8> labels;

  bool isNull() const { return width <= 0 || height <= 0; }
  int at(int x, int y) const { return labels[y * width + x]; }
};

// The indices of an 8-bit single-channel image: Grayscale8 (its grey levels) or Indexed8
// (its palette indices, not the palette's colours). Any other format: false.
bool classMaskFromImage(const QImage& image, ClassMask* mask);
// Grayscale8 image of the indices (what the engine writes as PNG).
QImage classMaskToImage(const ClassMask& mask);

// How teacher and student fare on one pixel against the ground truth.
enum class Agreement : quint8 {
  AgreeCorrect = 0,      // both predict the true class
  AgreeWrong,            // both predict the same wrong class
  StudentWrong,          // teacher right, student wrong
  TeacherWrong,          // student right, teacher wrong
  BothWrongDifferently,  // both wrong, with different classes
  Ignore,                // the truth is the ignore index
};
constexpr int kAgreementCount = 6;

Agreement agreementOf(int truth, int teacher, int student, int ignoreIndex);

struct AgreementMap {
  int width = 0, height = 0;
  QVector<quint8> values;  // Agreement per pixel, row-major
  std::array<qint64, kAgreementCount> counts{};

  Agreement at(int x, int y) const { return static_cast<Agreement>(values[y * width + x]); }
  // Share of the labelled (non-ignore) pixels in category `a`; for Ignore, of all pixels.
  double fraction(Agreement a) const;
};

// The three masks must have one size (else an empty map).
AgreementMap agreementMap(const ClassMask& truth, const ClassMask& teacher,
                          const ClassMask& student, int ignoreIndex);

// IoU of each class over the labelled pixels; NaN for a class neither in the truth nor in the
// prediction. Sizes must match (else all NaN).
QVector<double> perClassIou(const ClassMask& truth, const ClassMask& prediction, int classCount,
                            int ignoreIndex);
// Mean of the values that are not NaN (NaN when there are none).
double meanIou(const QVector<double>& iou);
// Correct share of the labelled pixels (NaN when none is labelled).
double pixelAccuracy(const ClassMask& truth, const ClassMask& prediction, int ignoreIndex);
// Share of the labelled pixels where teacher and student predict different classes.
double disagreementFraction(const ClassMask& truth, const ClassMask& teacher,
                            const ClassMask& student, int ignoreIndex);

}  // namespace adala::widgets
