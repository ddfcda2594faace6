#pragma once
// A segmentation results folder, one per head, as the engine writes it:
//
//   <dir>/index.json   head, split, ignore_index, classes [{name, color}], summary
//                      {teacher, student: {miou, pixel_accuracy, per_class_iou}} and images
//                      [{id, image, truth, teacher, student, teacher_miou, student_miou,
//                        teacher_iou, student_iou, disagreement}]
//   image              RGB PNG; truth / teacher / student: 8-bit single-channel PNGs of class
//                      indices (ignore_index, default 255, = not labelled); paths relative to
//                      index.json.
//
// Loading checks everything it reads, and each error names the file (and the field) at fault.
// Per-image metrics the index lacks are computed from the masks.
#include <QColor>
#include <QCoreApplication>
#include <QImage>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QtNumeric>

#include "widgets/segmentation_metrics.h"

namespace adala::widgets {

struct SegmentationClass {
  QString name;
  QColor color;
};

// One model (teacher or student) over the whole split.
struct SegmentationScores {
  double miou = qQNaN();
  double pixelAccuracy = qQNaN();
  QVector<double> perClassIou;  // one per class (NaN: class absent), empty if not recorded
};

struct SegmentationEntry {
  QString id;
  QString image, truth, teacher, student;  // absolute paths
  double teacherMiou = qQNaN(), studentMiou = qQNaN();
  QVector<double> teacherIou, studentIou;  // one per class, NaN where absent
  double disagreement = qQNaN();           // share of labelled pixels where the two differ

  // Student − teacher, the sign used everywhere (class table Δ, run summary, method tables):
  // negative where the student loses.
  double gap() const { return studentMiou - teacherMiou; }
};

// One entry read from disk: the image and its three masks, all of one size.
struct SegmentationSample {
  QImage image;  // RGB32
  ClassMask truth, teacher, student;
};

class SegmentationResults {
  Q_DECLARE_TR_FUNCTIONS(adala::widgets::SegmentationResults)

 public:
  QString dir;    // absolute
  QString head;   // "linear", "mask2former", ...
  QString split;  // "validation", ...
  int ignoreIndex = 255;
  QVector<SegmentationClass> classes;
  SegmentationScores teacher, student;
  QVector<SegmentationEntry> entries;

  QString indexPath() const;

  // Reads <dir>/index.json, checks its fields and that every file it names exists and has the
  // image's size (PNG headers only), then computes the per-image metrics the index lacks.
  static bool load(const QString& dir, SegmentationResults* results, QString* error);
  // Decodes entry `index` and checks its formats, sizes and class indices.
  bool loadSample(int index, SegmentationSample* sample, QString* error) const;
  // Where results folders are under `path`: `path` itself when it holds an index.json, else
  // its subfolders that do, else those of path/segmentation (a run folder). Sorted by name.
  static QStringList findResultDirs(const QString& path);
};

}  // namespace adala::widgets
