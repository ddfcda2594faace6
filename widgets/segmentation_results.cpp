#include "widgets/segmentation_results.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <optional>

namespace adala::widgets {

namespace {

QString native(const QString& path) { return QDir::toNativeSeparators(path); }

// Reads typed fields of index.json; the first problem is kept, naming the file and the field.
class IndexReader {
 public:
  explicit IndexReader(const QString& file) : file_(file) {}

  bool failed() const { return !error_.isEmpty(); }
  const QString& error() const { return error_; }
  void fail(const QString& message) {
    if (error_.isEmpty()) error_ = QStringLiteral("%1: %2").arg(native(file_), message);
  }

  std::optional<QJsonValue> required(const QJsonObject& o, const QString& key, const QString& at) {
    const auto it = o.find(key);
    if (it == o.end() || it->isUndefined()) {
      fail(SegmentationResults::tr("%1 is missing.").arg(at));
      return std::nullopt;
    }
    return *it;
  }
  QString string(const QJsonObject& o, const QString& key, const QString& at) {
    const auto v = required(o, key, at);
    if (!v) return {};
    if (v->isDouble()) return QString::number(v->toDouble(), 'g', 15);  // a numeric id
    if (!v->isString() || v->toString().isEmpty())
      fail(SegmentationResults::tr("%1 must be a non-empty string.").arg(at));
    return v->toString();
  }
  QJsonObject object(const QJsonObject& o, const QString& key, const QString& at) {
    const auto v = required(o, key, at);
    if (v && !v->isObject()) fail(SegmentationResults::tr("%1 must be an object.").arg(at));
    return v ? v->toObject() : QJsonObject{};
  }
  QJsonArray array(const QJsonObject& o, const QString& key, const QString& at) {
    const auto v = required(o, key, at);
    if (v && !v->isArray()) fail(SegmentationResults::tr("%1 must be an array.").arg(at));
    return v ? v->toArray() : QJsonArray{};
  }
  // A number; absent or null gives NaN unless `needed`.
  double number(const QJsonObject& o, const QString& key, const QString& at, bool needed) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull()) {
      if (needed) fail(SegmentationResults::tr("%1 is missing.").arg(at));
      return qQNaN();
    }
    if (!v.isDouble()) fail(SegmentationResults::tr("%1 must be a number.").arg(at));
    return v.toDouble(qQNaN());
  }
  // One number (or null: absent class) per class; absent or null gives an empty list.
  QVector<double> perClass(const QJsonObject& o, const QString& key, const QString& at,
                           int classes) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull()) return {};
    if (!v.isArray()) {
      fail(SegmentationResults::tr("%1 must be an array with one number (or null) per class.")
               .arg(at));
      return {};
    }
    const QJsonArray a = v.toArray();
    if (a.size() != classes) {
      fail(SegmentationResults::tr("%1 has %2 entries, expected %3 (one per class).")
               .arg(at)
               .arg(a.size())
               .arg(classes));
      return {};
    }
    QVector<double> out;
    for (qsizetype i = 0; i < a.size(); ++i) {
      if (a[i].isNull())
        out << qQNaN();
      else if (a[i].isDouble())
        out << a[i].toDouble();
      else {
        fail(SegmentationResults::tr("%1[%2] must be a number or null.").arg(at).arg(i));
        return {};
      }
    }
    return out;
  }

 private:
  QString file_, error_;
};

SegmentationScores readScores(IndexReader& r, const QJsonObject& summary, const QString& model,
                              int classes) {
  const QString at = QStringLiteral("summary.") + model;
  const QJsonObject o = r.object(summary, model, at);
  SegmentationScores s;
  if (r.failed()) return s;
  s.miou = r.number(o, QStringLiteral("miou"), at + QStringLiteral(".miou"), true);
  s.pixelAccuracy =
      r.number(o, QStringLiteral("pixel_accuracy"), at + QStringLiteral(".pixel_accuracy"), false);
  s.perClassIou = r.perClass(o, QStringLiteral("per_class_iou"),
                             at + QStringLiteral(".per_class_iou"), classes);
  return s;
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
  if (!QFileInfo(out.dir).isDir()) return fail(tr("%1 is not a folder.").arg(native(out.dir)));
  QFile file(index);
  if (!file.exists())
    return fail(tr("%1 does not exist: %2 is not a segmentation results folder.")
                    .arg(native(index), native(out.dir)));
  if (!file.open(QIODevice::ReadOnly))
    return fail(tr("%1: cannot open (%2).").arg(native(index), file.errorString()));
  QJsonParseError parse;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
  if (parse.error != QJsonParseError::NoError)
    return fail(tr("%1: not valid JSON (%2 at offset %3).")
                    .arg(native(index), parse.errorString())
                    .arg(parse.offset));
  if (!doc.isObject()) return fail(tr("%1: the top level must be an object.").arg(native(index)));
  const QJsonObject root = doc.object();

  IndexReader r(index);
  out.head = root.value(QStringLiteral("head")).toString(QFileInfo(out.dir).fileName());
  out.split = root.value(QStringLiteral("split")).toString();
  if (root.contains(QStringLiteral("ignore_index"))) {
    const double ignore =
        r.number(root, QStringLiteral("ignore_index"), QStringLiteral("ignore_index"), true);
    if (!r.failed() && (ignore < 0 || ignore > 255 || ignore != double(int(ignore))))
      r.fail(tr("ignore_index must be an integer from 0 to 255."));
    if (!r.failed()) out.ignoreIndex = int(ignore);
  }

  const QJsonArray classes = r.array(root, QStringLiteral("classes"), QStringLiteral("classes"));
  if (!r.failed() && classes.isEmpty()) r.fail(tr("classes is empty."));
  if (!r.failed() && classes.size() > 255)
    r.fail(tr("classes has %1 entries; masks hold at most 255.").arg(classes.size()));
  for (qsizetype i = 0; i < classes.size() && !r.failed(); ++i) {
    const QString at = QStringLiteral("classes[%1]").arg(i);
    if (!classes[i].isObject()) {
      r.fail(tr("%1 must be an object with a name and a color.").arg(at));
      break;
    }
    const QJsonObject c = classes[i].toObject();
    SegmentationClass k;
    k.name = r.string(c, QStringLiteral("name"), at + QStringLiteral(".name"));
    const QString colour = r.string(c, QStringLiteral("color"), at + QStringLiteral(".color"));
    k.color = QColor::fromString(colour);
    if (!r.failed() && !k.color.isValid())
      r.fail(tr("%1.color \"%2\" is not a colour (#rrggbb).").arg(at, colour));
    out.classes << k;
  }
  const int classCount = int(out.classes.size());
  if (!r.failed() && out.ignoreIndex < classCount)
    r.fail(tr("ignore_index %1 is also a class index (there are %2 classes).")
               .arg(out.ignoreIndex)
               .arg(classCount));

  const QJsonObject summary = r.object(root, QStringLiteral("summary"), QStringLiteral("summary"));
  if (!r.failed()) out.teacher = readScores(r, summary, QStringLiteral("teacher"), classCount);
  if (!r.failed()) out.student = readScores(r, summary, QStringLiteral("student"), classCount);

  const QJsonArray images = r.array(root, QStringLiteral("images"), QStringLiteral("images"));
  if (!r.failed() && images.isEmpty()) r.fail(tr("images is empty."));
  const QDir base(out.dir);
  for (qsizetype i = 0; i < images.size() && !r.failed(); ++i) {
    const QString at = QStringLiteral("images[%1]").arg(i);
    if (!images[i].isObject()) {
      r.fail(tr("%1 must be an object.").arg(at));
      break;
    }
    const QJsonObject o = images[i].toObject();
    SegmentationEntry e;
    e.id = r.string(o, QStringLiteral("id"), at + QStringLiteral(".id"));
    QString* paths[4] = {&e.image, &e.truth, &e.teacher, &e.student};
    const char* keys[4] = {"image", "truth", "teacher", "student"};
    for (int k = 0; k < 4; ++k) {
      const QString key = QString::fromLatin1(keys[k]);
      const QString relative = r.string(o, key, at + QLatin1Char('.') + key);
      *paths[k] = QDir::cleanPath(base.absoluteFilePath(relative));
    }
    e.teacherMiou =
        r.number(o, QStringLiteral("teacher_miou"), at + QStringLiteral(".teacher_miou"), false);
    e.studentMiou =
        r.number(o, QStringLiteral("student_miou"), at + QStringLiteral(".student_miou"), false);
    e.disagreement =
        r.number(o, QStringLiteral("disagreement"), at + QStringLiteral(".disagreement"), false);
    e.teacherIou = r.perClass(o, QStringLiteral("teacher_iou"), at + QStringLiteral(".teacher_iou"),
                              classCount);
    e.studentIou = r.perClass(o, QStringLiteral("student_iou"), at + QStringLiteral(".student_iou"),
                              classCount);
    out.entries << e;
  }
  if (r.failed()) return fail(r.error());

  // Every file is there and every mask has its image's size (headers only: cheap).
  for (qsizetype i = 0; i < out.entries.size(); ++i) {
    const auto& e = out.entries[i];
    const QString files[4] = {e.image, e.truth, e.teacher, e.student};
    const char* keys[4] = {"image", "truth", "teacher", "student"};
    QSize imageSize;
    for (int k = 0; k < 4; ++k) {
      const QString field = QStringLiteral("images[%1].%2").arg(i).arg(QLatin1String(keys[k]));
      if (!QFileInfo(files[k]).isFile())
        return fail(
            tr("%1 does not exist (%2 in %3).").arg(native(files[k]), field, native(index)));
      QImageReader reader(files[k]);
      const QSize size = reader.size();
      if (!size.isValid())
        return fail(
            tr("%1: cannot read the image (%2).").arg(native(files[k]), reader.errorString()));
      if (k == 0)
        imageSize = size;
      else if (size != imageSize)
        return fail(tr("%1 is %2 × %3 pixels, but its image %4 is %5 × %6.")
                        .arg(native(files[k]))
                        .arg(size.width())
                        .arg(size.height())
                        .arg(native(e.image))
                        .arg(imageSize.width())
                        .arg(imageSize.height()));
    }
  }

  // Per-image metrics the index does not record come from the masks.
  for (qsizetype i = 0; i < out.entries.size(); ++i) {
    auto& e = out.entries[i];
    const bool complete = !qIsNaN(e.teacherMiou) && !qIsNaN(e.studentMiou) &&
                          !qIsNaN(e.disagreement) && !e.teacherIou.isEmpty() &&
                          !e.studentIou.isEmpty();
    if (complete) continue;
    SegmentationSample s;
    if (!out.loadSample(int(i), &s, &failure)) return fail(failure);
    if (e.teacherIou.isEmpty())
      e.teacherIou = perClassIou(s.truth, s.teacher, classCount, out.ignoreIndex);
    if (e.studentIou.isEmpty())
      e.studentIou = perClassIou(s.truth, s.student, classCount, out.ignoreIndex);
    if (qIsNaN(e.teacherMiou)) e.teacherMiou = meanIou(e.teacherIou);
    if (qIsNaN(e.studentMiou)) e.studentMiou = meanIou(e.studentIou);
    if (qIsNaN(e.disagreement))
      e.disagreement = disagreementFraction(s.truth, s.teacher, s.student, out.ignoreIndex);
  }
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
