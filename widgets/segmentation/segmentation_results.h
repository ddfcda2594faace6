#pragma once
// A segmentation results folder, one per head, as the engine writes it:
//
//   <dir>/index.json   head, split, ignore_index, classes [{name, color}], summary
//                      {teacher, student: {miou, pixel_accuracy, per_class_iou}} and images
//                      [{id, image, truth, teacher, student, teacher_miou, student_miou,
//                        teacher_iou, student_iou, disagreement}]
//                      and, from newer writers, story {image_size, backbone, backbone_lr_scale,
//                      layer_decay, head, train_images, adaptation}, sweep [{image_size,
//                      val_images, garments, teacher, student: {miou, pixel_accuracy, img_per_s,
//                      peak_mb}}] and paper_reference {dataset, image_size, teacher, student}
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

#include <optional>

#include "widgets/segmentation/segmentation_metrics.h"

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

// How the models behind the results were made (index.json "story").
struct SegmentationStory {
  int imageSize = 0;  // training resolution (square)
  bool fineTuned = false;
  double backboneLrScale = qQNaN(), layerDecay = qQNaN();  // fine-tuned; NaN: not recorded
  qint64 probeEpochs = -1;  // the head's frozen-backbone epochs first (LP-FT); -1: not recorded
  QString head;
  qint64 trainImages = -1;  // -1: not recorded
  QString adaptation;       // free text, may be empty
};

// One model at one resolution. NaN: not recorded.
struct SegmentationMeasure {
  double miou = qQNaN(), pixelAccuracy = qQNaN();  // fractions
  double imgPerS = qQNaN(), peakMb = qQNaN();
};

// Teacher and student evaluated at one resolution (index.json "sweep").
struct SegmentationSweepRow {
  int imageSize = 0;
  qint64 valImages = 0;
  qint64 garmentsMin = 0, garmentsMax = 0;  // garments per scene
  SegmentationMeasure teacher, student;
};

// The paper's numbers for comparison (index.json "paper_reference").
struct SegmentationPaperReference {
  QString dataset;
  int imageSize = 0;
  SegmentationMeasure teacher, student;
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
  // Absent in older results folders.
  std::optional<SegmentationStory> story;
  QVector<SegmentationSweepRow> sweep;  // as written (one row per resolution)
  std::optional<SegmentationPaperReference> paper;

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
