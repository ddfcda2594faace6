#pragma once
// Segmentation results folders for the viewer's tests, written the way the engine writes them
// (index.json + PNGs): hand-made samples whose every pixel the test knows, and a realistic demo
// (garment-like shapes on a textured background, teacher and student predictions with
// different errors) whose metrics come from the masks. The demo is also what the screenshot
// shows: `test_gui_segmentation demo_folder_loads` leaves it in
// ADALA_TEST_TMP/gui/segmentation-<pid>.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QPainterPath>
#include <QRandomGenerator>
#include <QHash>
#include <QString>
#include <QVector>

#include <cmath>

#include "widgets/segmentation/segmentation_metrics.h"
#include "widgets/segmentation/segmentation_results.h"

namespace seg_test {

using adala::widgets::ClassMask;
using adala::widgets::SegmentationClass;

// Fashion-MNIST's classes after a background class, in a palette of distinct colours.
inline QVector<SegmentationClass> fashionClasses() {
  const char* names[] = {"background", "T-shirt/top", "Trouser", "Pullover", "Dress",     "Coat",
                         "Sandal",     "Shirt",       "Sneaker", "Bag",      "Ankle boot"};
  const char* colors[] = {"#202020", "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231",
                          "#911eb4", "#46f0f0", "#f032e6", "#bcf60c", "#fabebe"};
  QVector<SegmentationClass> out;
  for (int i = 0; i < 11; ++i)
    out.push_back({QString::fromLatin1(names[i]), QColor(QString::fromLatin1(colors[i]))});
  return out;
}

inline ClassMask mask(int width, int height, const QVector<int>& values) {
  ClassMask m;
  m.width = width;
  m.height = height;
  for (int v : values) m.labels << quint8(v);
  return m;
}

struct Sample {
  QString id;
  QImage image;
  ClassMask truth, teacher, student;
  QJsonObject metrics;  // teacher_miou, ... as index.json records them (may be empty)
};

struct Folder {
  QString head = QStringLiteral("linear"), split = QStringLiteral("validation");
  int ignoreIndex = 255;
  QVector<SegmentationClass> classes = fashionClasses();
  QJsonObject summary;
  QVector<Sample> samples;
  // Fields of newer writers, left out while empty (as older index.json files lack them).
  QJsonObject story;
  QJsonArray sweep;
  QJsonObject paperReference;
};

inline QJsonArray numbers(const QVector<double>& values) {
  QJsonArray a;
  for (double v : values) a.append(std::isnan(v) ? QJsonValue(QJsonValue::Null) : QJsonValue(v));
  return a;
}

// One model at one resolution, as "sweep" rows and "paper_reference" hold it (NaN: null).
inline QJsonObject measureJson(double miou, double pixelAccuracy, double imgPerS, double peakMb) {
  auto value = [](double v) {
    return std::isnan(v) ? QJsonValue(QJsonValue::Null) : QJsonValue(v);
  };
  return QJsonObject{{"miou", value(miou)},
                     {"pixel_accuracy", value(pixelAccuracy)},
                     {"img_per_s", value(imgPerS)},
                     {"peak_mb", value(peakMb)}};
}

inline QJsonObject sweepRowJson(int imageSize, int valImages, int fewest, int most,
                                const QJsonObject& teacher, const QJsonObject& student) {
  return QJsonObject{{"image_size", imageSize},
                     {"val_images", valImages},
                     {"garments", QJsonArray{fewest, most}},
                     {"teacher", teacher},
                     {"student", student}};
}

inline QJsonObject indexJson(const Folder& f) {
  QJsonArray classes, images;
  for (const auto& c : f.classes)
    classes.append(QJsonObject{{"name", c.name}, {"color", c.color.name()}});
  for (const auto& s : f.samples) {
    QJsonObject o{{"id", s.id},
                  {"image", "images/" + s.id + ".png"},
                  {"truth", "truth/" + s.id + ".png"},
                  {"teacher", "teacher/" + s.id + ".png"},
                  {"student", "student/" + s.id + ".png"}};
    for (auto it = s.metrics.begin(); it != s.metrics.end(); ++it) o.insert(it.key(), it.value());
    images.append(o);
  }
  QJsonObject index{{"head", f.head},     {"split", f.split},     {"ignore_index", f.ignoreIndex},
                    {"classes", classes}, {"summary", f.summary}, {"images", images}};
  if (!f.story.isEmpty()) index.insert("story", f.story);
  if (!f.sweep.isEmpty()) index.insert("sweep", f.sweep);
  if (!f.paperReference.isEmpty()) index.insert("paper_reference", f.paperReference);
  return index;
}

inline void writeJson(const QString& path, const QJsonObject& o) {
  QFile file(path);
  if (file.open(QIODevice::WriteOnly | QIODevice::Truncate)) file.write(QJsonDocument(o).toJson());
}

// Writes <dir>/index.json and the PNGs; returns dir.
inline QString writeFolder(const QString& dir, const Folder& f) {
  QDir(dir).removeRecursively();
  for (const char* sub : {"images", "truth", "teacher", "student"}) QDir().mkpath(dir + "/" + sub);
  for (const auto& s : f.samples) {
    s.image.save(dir + "/images/" + s.id + ".png");
    adala::widgets::classMaskToImage(s.truth).save(dir + "/truth/" + s.id + ".png");
    adala::widgets::classMaskToImage(s.teacher).save(dir + "/teacher/" + s.id + ".png");
    adala::widgets::classMaskToImage(s.student).save(dir + "/student/" + s.id + ".png");
  }
  writeJson(dir + "/index.json", indexJson(f));
  return dir;
}

// --- the realistic demo ----------------------------------------------------------------------

// A garment-like outline of class `c` in the unit square.
inline QPainterPath garmentPath(int c) {
  QPainterPath p;
  auto poly = [&](std::initializer_list<QPointF> pts) {
    QPolygonF g;
    for (const auto& q : pts) g << q;
    p.addPolygon(g);
    p.closeSubpath();
  };
  switch (c) {
    case 1:  // T-shirt: body and short sleeves
    case 7:  // shirt: the same with long sleeves and a collar
      poly({{0.28, 0.12},
            {0.42, 0.08},
            {0.5, 0.14},
            {0.58, 0.08},
            {0.72, 0.12},
            {0.72, 0.92},
            {0.28, 0.92}});
      if (c == 1) {
        poly({{0.28, 0.12}, {0.08, 0.3}, {0.16, 0.42}, {0.3, 0.32}});
        poly({{0.72, 0.12}, {0.92, 0.3}, {0.84, 0.42}, {0.7, 0.32}});
      } else {
        poly({{0.28, 0.12}, {0.12, 0.3}, {0.06, 0.82}, {0.16, 0.84}, {0.3, 0.4}});
        poly({{0.72, 0.12}, {0.88, 0.3}, {0.94, 0.82}, {0.84, 0.84}, {0.7, 0.4}});
      }
      break;
    case 2:  // trouser: waistband and two legs
      poly({{0.3, 0.06},
            {0.7, 0.06},
            {0.74, 0.96},
            {0.56, 0.96},
            {0.5, 0.36},
            {0.44, 0.96},
            {0.26, 0.96}});
      break;
    case 3:  // pullover: body and long sleeves
    case 5:  // coat: longer, wider
      poly({{0.3, 0.1}, {0.7, 0.1}, {0.72, c == 5 ? 0.96 : 0.84}, {0.28, c == 5 ? 0.96 : 0.84}});
      poly({{0.3, 0.1}, {0.1, 0.26}, {0.04, 0.78}, {0.15, 0.8}, {0.3, 0.36}});
      poly({{0.7, 0.1}, {0.9, 0.26}, {0.96, 0.78}, {0.85, 0.8}, {0.7, 0.36}});
      break;
    case 4:  // dress: fitted top, flared skirt
      poly({{0.38, 0.06}, {0.62, 0.06}, {0.6, 0.4}, {0.86, 0.95}, {0.14, 0.95}, {0.4, 0.4}});
      break;
    case 6:  // sandal: sole and straps
      p.addRoundedRect(QRectF(0.05, 0.62, 0.9, 0.16), 0.08, 0.08);
      poly({{0.2, 0.62}, {0.3, 0.4}, {0.36, 0.4}, {0.3, 0.62}});
      poly({{0.55, 0.62}, {0.62, 0.36}, {0.7, 0.36}, {0.66, 0.62}});
      break;
    case 8:  // sneaker: shoe profile
      poly({{0.05, 0.55},
            {0.35, 0.45},
            {0.5, 0.3},
            {0.7, 0.32},
            {0.95, 0.6},
            {0.95, 0.76},
            {0.05, 0.76}});
      break;
    case 9:  // bag: body and handle
      p.addRoundedRect(QRectF(0.12, 0.38, 0.76, 0.54), 0.06, 0.06);
      p.addRect(QRectF(0.3, 0.12, 0.08, 0.28));
      p.addRect(QRectF(0.62, 0.12, 0.08, 0.28));
      p.addRect(QRectF(0.3, 0.1, 0.4, 0.08));
      break;
    default:  // ankle boot
      poly({{0.25, 0.08}, {0.6, 0.08}, {0.6, 0.55}, {0.92, 0.66}, {0.95, 0.9}, {0.2, 0.9}});
      break;
  }
  p.setFillRule(Qt::WindingFill);
  return p;
}

// A fabric colour for a class (not its palette colour).
inline QColor fabric(int c, QRandomGenerator& rng) {
  const int hues[] = {0, 210, 30, 0, 330, 25, 40, 200, 0, 15, 20};
  const int sats[] = {0, 120, 140, 60, 150, 110, 80, 70, 20, 130, 90};
  return QColor::fromHsv((hues[c] + int(rng.bounded(30))) % 360, sats[c],
                         90 + int(rng.bounded(120)));
}

struct Garment {
  int cls;
  QRectF box;
};

// Paints the class indices of `garments` (later ones in front) as grey levels; returns a mask.
inline ClassMask paintMask(const QSize& size, const QVector<Garment>& garments,
                           int outlineIgnore = -1) {
  QImage canvas(size, QImage::Format_RGB32);
  canvas.fill(qRgb(0, 0, 0));
  QPainter p(&canvas);
  p.setRenderHint(QPainter::Antialiasing, false);
  for (const auto& g : garments) {
    QTransform t;
    t.translate(g.box.left(), g.box.top());
    t.scale(g.box.width(), g.box.height());
    const QPainterPath path = t.map(garmentPath(g.cls));
    p.fillPath(path, QColor(g.cls, g.cls, g.cls));
    if (outlineIgnore >= 0)
      p.strokePath(path, QPen(QColor(outlineIgnore, outlineIgnore, outlineIgnore), 2));
  }
  p.end();
  ClassMask m;
  m.width = size.width();
  m.height = size.height();
  for (int y = 0; y < size.height(); ++y)
    for (int x = 0; x < size.width(); ++x) m.labels << quint8(qRed(canvas.pixel(x, y)));
  return m;
}

// The classes a model plausibly confuses a class with.
inline int confusedWith(int c, QRandomGenerator& rng) {
  switch (c) {
    case 1:
      return 7;
    case 7:
      return rng.bounded(2) ? 1 : 3;
    case 3:
      return 5;
    case 5:
      return 3;
    case 4:
      return 5;
    case 6:
      return 8;
    case 8:
      return rng.bounded(2) ? 6 : 10;
    case 10:
      return 8;
    case 2:
      return 4;
    default:
      return 1 + int(rng.bounded(10));
  }
}

// The same garments, a little off: moved / resized by up to `jitter` pixels, each mistaken for
// a similar class with probability `confusion`, plus `spurious` small blobs of a wrong class.
inline QVector<Garment> predict(const QVector<Garment>& truth, QRandomGenerator& rng, double jitter,
                                double confusion, int spurious, const QSize& size) {
  QVector<Garment> out;
  auto j = [&] { return (rng.generateDouble() * 2 - 1) * jitter; };
  for (const auto& g : truth) {
    Garment p = g;
    p.box =
        QRectF(g.box.left() + j(), g.box.top() + j(), g.box.width() + j(), g.box.height() + j());
    if (rng.generateDouble() < confusion) p.cls = confusedWith(g.cls, rng);
    out << p;
  }
  for (int k = 0; k < spurious; ++k) {
    const double s = 0.12 * size.width() + rng.bounded(int(0.1 * size.width()));
    out << Garment{1 + int(rng.bounded(10)), QRectF(rng.bounded(size.width() - int(s)),
                                                    rng.bounded(size.height() - int(s)), s, s)};
  }
  return out;
}

// Adds one model's counts to the split totals (intersection and union per class, pixels).
struct SplitTotals {
  QVector<qint64> inter, uni;
  qint64 correct = 0, labelled = 0;
  void add(const ClassMask& truth, const ClassMask& pred, int classes, int ignore) {
    if (inter.isEmpty()) inter = uni = QVector<qint64>(classes, 0);
    for (qsizetype i = 0; i < truth.labels.size(); ++i) {
      const int t = truth.labels[i], p = pred.labels[i];
      if (t == ignore) continue;
      ++labelled;
      if (t == p) {
        ++correct;
        ++inter[t];
        ++uni[t];
      } else {
        ++uni[t];
        if (p < classes) ++uni[p];
      }
    }
  }
  QJsonObject json() const {
    QVector<double> iou;
    for (int c = 0; c < inter.size(); ++c)
      iou << (uni[c] > 0 ? double(inter[c]) / double(uni[c]) : std::nan(""));
    return QJsonObject{{"miou", adala::widgets::meanIou(iou)},
                       {"pixel_accuracy", double(correct) / double(std::max<qint64>(1, labelled))},
                       {"per_class_iou", numbers(iou)}};
  }
};

// `count` images of `side` x `side` pixels; the student makes more mistakes than the teacher
// (it mistakes a garment for a similar one with probability `studentConfusion`).
inline Folder demoFolder(const QString& head, int count, int side, quint32 seed,
                         double studentConfusion = 0.3) {
  // One generator for the scenes (the same images for every head), one for the predictions.
  QRandomGenerator rng(seed), model(seed * 7919u + qHash(head));
  Folder f;
  f.head = head;
  const QSize size(side, side);
  SplitTotals teacherTotals, studentTotals;
  for (int n = 0; n < count; ++n) {
    Sample s;
    s.id = QStringLiteral("%1").arg(n, 6, 10, QLatin1Char('0'));
    // One to three garments, kept inside the frame.
    QVector<Garment> garments;
    const int k = 1 + int(rng.bounded(3));
    for (int g = 0; g < k; ++g) {
      const double w = side * (0.35 + 0.3 * rng.generateDouble()),
                   h = side * (0.4 + 0.35 * rng.generateDouble());
      garments << Garment{
          1 + int(rng.bounded(10)),
          QRectF(rng.generateDouble() * (side - w), rng.generateDouble() * (side - h), w, h)};
    }
    // The photo: a soft backdrop with a little grain, the garments in fabric colours with shading.
    QImage image(size, QImage::Format_RGB32);
    {
      QPainter p(&image);
      QLinearGradient bg(0, 0, side, side);
      const int tone = 170 + int(rng.bounded(50));
      bg.setColorAt(0, QColor(tone, tone - 8, tone - 20));
      bg.setColorAt(1, QColor(tone - 50, tone - 55, tone - 60));
      p.fillRect(image.rect(), bg);
      p.setRenderHint(QPainter::Antialiasing);
      for (const auto& g : garments) {
        QTransform t;
        t.translate(g.box.left(), g.box.top());
        t.scale(g.box.width(), g.box.height());
        const QPainterPath path = t.map(garmentPath(g.cls));
        const QColor c = fabric(g.cls, rng);
        QLinearGradient shade(g.box.topLeft(), g.box.bottomRight());
        shade.setColorAt(0, c.lighter(125));
        shade.setColorAt(1, c.darker(140));
        p.fillPath(path, shade);
        p.strokePath(path, QPen(c.darker(200), 1));
      }
    }
    for (int y = 0; y < side; ++y) {
      auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
      for (int x = 0; x < side; ++x) {
        const int d = int(rng.bounded(13)) - 6;
        const QRgb v = line[x];
        line[x] = qRgb(std::clamp(qRed(v) + d, 0, 255), std::clamp(qGreen(v) + d, 0, 255),
                       std::clamp(qBlue(v) + d, 0, 255));
      }
    }
    s.image = image;
    s.truth = paintMask(size, garments, f.ignoreIndex);
    s.teacher = paintMask(size, predict(garments, model, side * 0.02, 0.08, 0, size));
    s.student = paintMask(size, predict(garments, model, side * 0.03, studentConfusion,
                                        int(model.bounded(3)) / 2, size));

    using namespace adala::widgets;
    const int classes = int(f.classes.size());
    const auto ti = perClassIou(s.truth, s.teacher, classes, f.ignoreIndex);
    const auto si = perClassIou(s.truth, s.student, classes, f.ignoreIndex);
    s.metrics = QJsonObject{
        {"teacher_miou", meanIou(ti)},
        {"student_miou", meanIou(si)},
        {"teacher_iou", numbers(ti)},
        {"student_iou", numbers(si)},
        {"disagreement", disagreementFraction(s.truth, s.teacher, s.student, f.ignoreIndex)}};
    teacherTotals.add(s.truth, s.teacher, classes, f.ignoreIndex);
    studentTotals.add(s.truth, s.student, classes, f.ignoreIndex);
    f.samples << s;
  }
  f.summary = QJsonObject{{"teacher", teacherTotals.json()}, {"student", studentTotals.json()}};
  return f;
}

}  // namespace seg_test
