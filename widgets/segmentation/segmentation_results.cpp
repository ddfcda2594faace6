#include "widgets/segmentation/segmentation_results.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>

#include "engine/seg/results_index.h"

namespace adala::widgets {

namespace {

QString native(const QString& path) { return QDir::toNativeSeparators(path); }

QVector<double> toVector(const std::vector<double>& values) {
  return QVector<double>(values.begin(), values.end());
}

SegmentationScores toScores(const SegmentationIndexScores& s) {
  return {s.miou, s.pixel_accuracy, toVector(s.per_class_iou)};
}

SegmentationMeasure toMeasure(const SegmentationIndexMeasure& m) {
  return {m.miou, m.pixel_accuracy, m.img_per_s, m.peak_mb};
}

SegmentationStory toStory(const SegmentationIndexStory& s) {
  SegmentationStory out;
  out.imageSize = s.image_size;
  out.fineTuned = s.fine_tuned();
  out.backboneLrScale = s.backbone_lr_scale;
  out.layerDecay = s.layer_decay;
  out.probeEpochs = s.probe_epochs;
  out.head = QString::fromStdString(s.head);
  out.trainImages = s.train_images;
  out.adaptation = QString::fromStdString(s.adaptation);
  return out;
}

SegmentationSweepRow toSweepRow(const SegmentationIndexSweepRow& r) {
  return {r.image_size,   r.val_images,         r.garments_min,
          r.garments_max, toMeasure(r.teacher), toMeasure(r.student)};
}

// Decodes one class-index PNG and checks it.
bool readMask(const QString& path, const QSize& size, const QString& imagePath, int classCount,
              int ignoreIndex, ClassMask* mask, QString* error) {
  QImageReader reader(path);
  const QImage image = reader.read();
  if (image.isNull()) {
    *error = SegmentationResults::tr("%1: cannot read the image (%2).")
                 .arg(native(path), reader.errorString());
    return false;
  }
  if (!classMaskFromImage(image, mask)) {
    *error =
        SegmentationResults::tr(
            "%1 is not an 8-bit single-channel PNG of class indices (its pixels are %2-bit %3).")
            .arg(native(path))
            .arg(image.depth())
            .arg(image.isGrayscale() ? SegmentationResults::tr("grey")
                                     : SegmentationResults::tr("colour"));
    return false;
  }
  if (image.size() != size) {
    *error = SegmentationResults::tr("%1 is %2 × %3 pixels, but its image %4 is %5 × %6.")
                 .arg(native(path))
                 .arg(image.width())
                 .arg(image.height())
                 .arg(native(imagePath))
                 .arg(size.width())
                 .arg(size.height());
    return false;
  }
  for (qsizetype i = 0; i < mask->labels.size(); ++i) {
    const int v = mask->labels[i];
    if (v >= classCount && v != ignoreIndex) {
      *error = SegmentationResults::tr(
                   "%1: pixel (%2, %3) holds class %4, but there are %5 classes (0 to %6) and "
                   "the ignore index is %7.")
                   .arg(native(path))
                   .arg(i % mask->width)
                   .arg(i / mask->width)
                   .arg(v)
                   .arg(classCount)
                   .arg(classCount - 1)
                   .arg(ignoreIndex);
      return false;
    }
  }
  return true;
}

// The folder holds an index.json that opens and parses.
bool readIndexJson(const QString& dir, const QString& index, SegmentationIndex* read,
                   QString* problem) {
  if (!QFileInfo(dir).isDir()) {
    *problem = SegmentationResults::tr("%1 is not a folder.").arg(native(dir));
    return false;
  }
  QFile file(index);
  if (!file.exists()) {
    *problem =
        SegmentationResults::tr("%1 does not exist: %2 is not a segmentation results folder.")
            .arg(native(index), native(dir));
    return false;
  }
  if (!file.open(QIODevice::ReadOnly)) {
    *problem =
        SegmentationResults::tr("%1: cannot open (%2).").arg(native(index), file.errorString());
    return false;
  }
  file.close();
  try {
    *read = read_segmentation_index(index.toStdString());
  } catch (const SegmentationIndexError& e) {
    *problem = QStringLiteral("%1: %2").arg(native(index), QString::fromStdString(e.problem()));
    return false;
  }
  return true;
}

bool readClasses(const std::vector<SegmentationIndexClass>& read, const QString& index,
                 QVector<SegmentationClass>* classes, QString* problem) {
  for (size_t i = 0; i < read.size(); ++i) {
    const auto& c = read[i];
    SegmentationClass k;
    k.name = QString::fromStdString(c.name);
    k.color = QColor::fromString(QString::fromStdString(c.color));
    if (!k.color.isValid()) {
      *problem = QStringLiteral("%1: %2").arg(
          native(index),
          SegmentationResults::tr("%1.color \"%2\" is not a colour (#rrggbb).")
              .arg(QStringLiteral("classes[%1]").arg(i), QString::fromStdString(c.color)));
      return false;
    }
    *classes << k;
  }
  return true;
}

SegmentationEntry toEntry(const SegmentationIndexEntry& entry, const QDir& base) {
  const auto path = [&](const std::string& relative) {
    return QDir::cleanPath(base.absoluteFilePath(QString::fromStdString(relative)));
  };
  SegmentationEntry e;
  e.id = QString::fromStdString(entry.id);
  e.image = path(entry.image);
  e.truth = path(entry.truth);
  e.teacher = path(entry.teacher);
  e.student = path(entry.student);
  e.teacherMiou = entry.teacher_miou;
  e.studentMiou = entry.student_miou;
  e.disagreement = entry.disagreement;
  e.teacherIou = toVector(entry.teacher_iou);
  e.studentIou = toVector(entry.student_iou);
  return e;
}

// Every file is there and every mask has its image's size (headers only: cheap).
bool checkEntryFiles(const QVector<SegmentationEntry>& entries, const QString& index,
                     QString* problem) {
  for (qsizetype i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const QString files[4] = {e.image, e.truth, e.teacher, e.student};
    const char* keys[4] = {"image", "truth", "teacher", "student"};
    QSize imageSize;
    for (int k = 0; k < 4; ++k) {
      const QString field = QStringLiteral("images[%1].%2").arg(i).arg(QLatin1String(keys[k]));
      if (!QFileInfo(files[k]).isFile()) {
        *problem = SegmentationResults::tr("%1 does not exist (%2 in %3).")
                       .arg(native(files[k]), field, native(index));
        return false;
      }
      QImageReader reader(files[k]);
      const QSize size = reader.size();
      if (!size.isValid()) {
        *problem = SegmentationResults::tr("%1: cannot read the image (%2).")
                       .arg(native(files[k]), reader.errorString());
        return false;
      }
      if (k == 0) {
        imageSize = size;
      } else if (size != imageSize) {
        *problem = SegmentationResults::tr("%1 is %2 × %3 pixels, but its image %4 is %5 × %6.")
                       .arg(native(files[k]))
                       .arg(size.width())
                       .arg(size.height())
                       .arg(native(e.image))
                       .arg(imageSize.width())
                       .arg(imageSize.height());
        return false;
      }
    }
  }
  return true;
}

// Per-image metrics the index does not record come from the masks.
bool completeEntryMetrics(SegmentationResults* results, QString* problem) {
  const int classCount = int(results->classes.size());
  const int ignoreIndex = results->ignoreIndex;
  for (qsizetype i = 0; i < results->entries.size(); ++i) {
    auto& e = results->entries[i];
    const bool complete = !qIsNaN(e.teacherMiou) && !qIsNaN(e.studentMiou) &&
                          !qIsNaN(e.disagreement) && !e.teacherIou.isEmpty() &&
                          !e.studentIou.isEmpty();
    if (complete) continue;
    SegmentationSample s;
    if (!results->loadSample(int(i), &s, problem)) return false;
    if (e.teacherIou.isEmpty())
      e.teacherIou = perClassIou(s.truth, s.teacher, classCount, ignoreIndex);
    if (e.studentIou.isEmpty())
      e.studentIou = perClassIou(s.truth, s.student, classCount, ignoreIndex);
    if (qIsNaN(e.teacherMiou)) e.teacherMiou = meanIou(e.teacherIou);
    if (qIsNaN(e.studentMiou)) e.studentMiou = meanIou(e.studentIou);
    if (qIsNaN(e.disagreement))
      e.disagreement = disagreementFraction(s.truth, s.teacher, s.student, ignoreIndex);
  }
  return true;
}

}  // namespace

QString SegmentationResults::indexPath() const {
  return QDir(dir).filePath(QStringLiteral("index.json"));
}

bool SegmentationResults::load(const QString& dirPath, SegmentationResults* results,
                               QString* error) {
  SegmentationResults out;
  out.dir = QFileInfo(dirPath).absoluteFilePath();
  const QString index = out.indexPath();
  QString failure;
  auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  SegmentationIndex read;
  if (!readIndexJson(out.dir, index, &read, &failure)) return fail(failure);

  out.head = read.head ? QString::fromStdString(*read.head) : QFileInfo(out.dir).fileName();
  out.split = QString::fromStdString(read.split);
  out.ignoreIndex = read.ignore_index;
  if (!readClasses(read.classes, index, &out.classes, &failure)) return fail(failure);
  out.teacher = toScores(read.teacher);
  out.student = toScores(read.student);
  if (read.story) out.story = toStory(*read.story);
  for (const auto& row : read.sweep) out.sweep << toSweepRow(row);
  if (const auto& p = read.paper_reference)
    out.paper = SegmentationPaperReference{QString::fromStdString(p->dataset), p->image_size,
                                           toMeasure(p->teacher), toMeasure(p->student)};
  const QDir base(out.dir);
  for (const auto& entry : read.entries) out.entries << toEntry(entry, base);

  if (!checkEntryFiles(out.entries, index, &failure) || !completeEntryMetrics(&out, &failure))
    return fail(failure);
  *results = std::move(out);
  return true;
}

bool SegmentationResults::loadSample(int index, SegmentationSample* sample, QString* error) const {
  QString problem;
  auto fail = [&] {
    if (error) *error = problem;
    return false;
  };
  if (index < 0 || index >= entries.size()) {
    problem = tr("%1: there is no image %2 (the index has %3).")
                  .arg(native(indexPath()))
                  .arg(index)
                  .arg(entries.size());
    return fail();
  }
  const auto& e = entries[index];
  QImageReader reader(e.image);
  const QImage image = reader.read();
  if (image.isNull()) {
    problem = tr("%1: cannot read the image (%2).").arg(native(e.image), reader.errorString());
    return fail();
  }
  SegmentationSample s;
  s.image = image.convertToFormat(QImage::Format_RGB32);
  const int classCount = int(classes.size());
  if (!readMask(e.truth, image.size(), e.image, classCount, ignoreIndex, &s.truth, &problem) ||
      !readMask(e.teacher, image.size(), e.image, classCount, ignoreIndex, &s.teacher, &problem) ||
      !readMask(e.student, image.size(), e.image, classCount, ignoreIndex, &s.student, &problem))
    return fail();
  *sample = std::move(s);
  return true;
}

QStringList SegmentationResults::findResultDirs(const QString& path) {
  const QDir dir(path);
  if (dir.exists(QStringLiteral("index.json"))) return {dir.absolutePath()};
  QStringList found;
  for (const QString& sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
    if (QFileInfo(dir.filePath(sub + QStringLiteral("/index.json"))).isFile())
      found << dir.absoluteFilePath(sub);
  if (found.isEmpty() && dir.exists(QStringLiteral("segmentation")))
    return findResultDirs(dir.filePath(QStringLiteral("segmentation")));
  return found;
}

}  // namespace adala::widgets
