// The teacher / student segmentation viewer against results folders written here: the loader's
// values and every error (each names the file), the disagreement map pixel by pixel against
// hand-made masks, sorting, stepping by key, button and spin box, zoom and pan shared by all
// panes, hover labels, the class legend, the head selector, the story line and the resolution
// sweep table, and the workbench's Segmentation tab (File menu, command, run browser).
#include <QtTest/QtTest>

#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>

#include <functional>
#include <limits>

#include "app/gui/engine_controller.h"
#include "app/i18n/language.h"
#include "app/gui/main_window.h"
#include "engine/store/run_store.h"
#include "tests/gui/gui_test_support.h"
#include "tests/gui/segmentation_fixture.h"
#include "widgets/runs/run_browser.h"
#include "widgets/segmentation/segmentation_legend.h"
#include "widgets/segmentation/segmentation_render.h"
#include "widgets/segmentation/segmentation_viewer.h"
#include "widgets/common/zoom_image_pane.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_segmentation {

using namespace adala::widgets;
using adala::gui::EngineController;
using adala::gui::MainWindow;

namespace {

// The hand-made sample, 4 x 3 pixels (classes: 0 background, 1 T-shirt/top, 2 Trouser,
// 3 Pullover, 4 Dress, 5 Coat, 6 Sandal; 255 ignore):
//   truth    1 1 2 2 | 0 0 255 3 | 0 0 0 0
//   teacher  1 1 2 5 | 0 3 0   0 | 0 0 0 0
//   student  1 4 2 6 | 0 3 1   3 | 0 0 0 4
const QVector<int> kTruth = {1, 1, 2, 2, 0, 0, 255, 3, 0, 0, 0, 0};
const QVector<int> kTeacher = {1, 1, 2, 5, 0, 3, 0, 0, 0, 0, 0, 0};
const QVector<int> kStudent = {1, 4, 2, 6, 0, 3, 1, 3, 0, 0, 0, 4};
using A = Agreement;
// Worked out by hand, pixel by pixel.
const QVector<Agreement> kExpected = {
    A::AgreeCorrect, A::StudentWrong, A::AgreeCorrect, A::BothWrongDifferently,
    A::AgreeCorrect, A::AgreeWrong,   A::Ignore,       A::TeacherWrong,
    A::AgreeCorrect, A::AgreeCorrect, A::AgreeCorrect, A::StudentWrong};

QImage smallPhoto(int seed) {
  QImage image(4, 3, QImage::Format_RGB32);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x)
      image.setPixel(x, y, qRgb(40 * x + seed, 60 * y + 10, 200 - 10 * seed));
  return image;
}

// Four images: 000000 is the hand-made one; the index records metrics chosen so the three
// sort orders differ:
//   disagreement  0.10 0.50 0.05 0.30 -> 001 003 000 002
//   student mIoU  0.50 0.80 0.90 0.30 -> 003 000 001 002
//   student − teacher −0.40 −0.15 −0.02 −0.10 -> 000 001 003 002 (largest loss first)
seg_test::Folder basicFolder(bool withMetrics = true) {
  seg_test::Folder f;
  const double disagreement[] = {0.10, 0.50, 0.05, 0.30};
  const double student[] = {0.5, 0.8, 0.9, 0.3};
  const double teacher[] = {0.9, 0.95, 0.92, 0.4};
  for (int i = 0; i < 4; ++i) {
    seg_test::Sample s;
    s.id = QStringLiteral("00000%1").arg(i);
    s.image = smallPhoto(i);
    s.truth = seg_test::mask(4, 3, kTruth);
    s.teacher = seg_test::mask(4, 3, i == 0 ? kTeacher : kTruth);
    s.student = seg_test::mask(4, 3, i == 0 ? kStudent : kTeacher);
    if (withMetrics)
      s.metrics = QJsonObject{{"teacher_miou", teacher[i]},
                              {"student_miou", student[i]},
                              {"disagreement", disagreement[i]},
                              {"teacher_iou", seg_test::numbers(QVector<double>(11, teacher[i]))},
                              {"student_iou", seg_test::numbers(QVector<double>(11, student[i]))}};
    f.samples << s;
  }
  QVector<double> teacherIou(11, std::nan("")), studentIou(11, std::nan(""));
  for (int c = 0; c < 10; ++c) {
    teacherIou[c] = 0.5 + 0.04 * c;
    studentIou[c] = 0.45 + 0.04 * c;
  }
  f.summary =
      QJsonObject{{"teacher", QJsonObject{{"miou", 0.612},
                                          {"pixel_accuracy", 0.901},
                                          {"per_class_iou", seg_test::numbers(teacherIou)}}},
                  {"student", QJsonObject{{"miou", 0.584},
                                          {"pixel_accuracy", 0.887},
                                          {"per_class_iou", seg_test::numbers(studentIou)}}}};
  return f;
}

// basicFolder() as a newer writer leaves it: how the models were made, a sweep over two
// resolutions and the paper's numbers. Chosen so the table's cells are easy to check by hand:
//   112²: teacher 63 % 40 img/s 3.2 MB, student 62 % 80 img/s 1.6 MB -> −1.00 pt, 2.00×, 0.50×
//   448²: teacher 55.25 % 4 img/s 48 MB, student null 14 img/s 12 MB -> —, 3.50×, 0.25×
//   paper (Cityscapes 1024²): 7.07 / 15.95 img/s -> 2.26×, 3283.6 / 1376.4 MB -> 0.42×
seg_test::Folder storyFolder() {
  seg_test::Folder f = basicFolder();
  f.story =
      QJsonObject{{"image_size", 112},        {"backbone", "fine-tuned"},
                  {"backbone_lr_scale", 0.5}, {"layer_decay", 0.75},
                  {"probe_epochs", 3},        {"head", "linear"},
                  {"train_images", 600},      {"adaptation", "Stages 1+2 on the training scenes"}};
  const double null = std::nan("");
  f.sweep =
      QJsonArray{seg_test::sweepRowJson(112, 200, 2, 3, seg_test::measureJson(0.63, 0.91, 40, 3.2),
                                        seg_test::measureJson(0.62, 0.90, 80, 1.6)),
                 seg_test::sweepRowJson(448, 50, 8, 12, seg_test::measureJson(0.5525, null, 4, 48),
                                        seg_test::measureJson(null, null, 14, 12))};
  f.paperReference = QJsonObject{{"dataset", "Cityscapes"},
                                 {"image_size", 1024},
                                 {"teacher", seg_test::measureJson(0.8098, null, 7.07, 3283.6)},
                                 {"student", seg_test::measureJson(0.7873, null, 15.95, 1376.4)}};
  return f;
}

QStringList rowTexts(QTableWidget* table, int row) {
  QStringList out;
  for (int c = 0; c < table->columnCount(); ++c)
    out << (table->item(row, c) ? table->item(row, c)->text() : QStringLiteral("(none)"));
  return out;
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  f.open(QIODevice::ReadOnly);
  return QJsonDocument::fromJson(f.readAll()).object();
}

// dir's index.json rewritten with `edit` applied.
void editIndex(const QString& dir, const std::function<void(QJsonObject&)>& edit) {
  QJsonObject o = readJson(dir + "/index.json");
  edit(o);
  seg_test::writeJson(dir + "/index.json", o);
}

// dir's index.json without field `field` of images[i].
void removeImageField(const QString& dir, int i, const QString& field) {
  editIndex(dir, [&](QJsonObject& o) {
    QJsonArray images = o["images"].toArray();
    QJsonObject image = images[i].toObject();
    image.remove(field);
    images[i] = image;
    o["images"] = images;
  });
}

// How an error message spells <dir>/<file>.
QString nativePath(const QString& dir, const QString& file) {
  return QDir::toNativeSeparators(dir + "/" + file);
}

QString loadError(const QString& dir) {
  SegmentationResults r;
  QString error;
  if (SegmentationResults::load(dir, &r, &error)) return QStringLiteral("(loaded)");
  return error;
}

void sendCtrlWheel(QWidget* w, const QPoint& at, int steps) {
  QWheelEvent e(QPointF(at), QPointF(w->mapToGlobal(at)), QPoint(), QPoint(0, 120 * steps),
                Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

void compareNear(double got, double want) {
  QVERIFY2(std::abs(got - want) < 1e-9,
           qPrintable(QStringLiteral("%1 vs %2").arg(got, 0, 'g', 12).arg(want, 0, 'g', 12)));
}

}  // namespace

class TestGuiSegmentation : public QObject {
  Q_OBJECT

  QString dir_;
  std::unique_ptr<SegmentationViewer> viewer_;

  SegmentationViewer* openViewer(const QString& folder) {
    viewer_ = std::make_unique<SegmentationViewer>();
    viewer_->resize(1400, 900);
    viewer_->show();
    if (!QTest::qWaitForWindowExposed(viewer_.get())) return nullptr;
    QString error;
    if (!viewer_->openFolder(folder, &error)) {
      qWarning("%s", qPrintable(error));
      return nullptr;
    }
    viewer_->setOpacity(1.0);  // masks alone: pane pixels are palette colours
    viewer_->activateWindow();
    viewer_->setFocus();
    return viewer_.get();
  }

  QComboBox* combo(const char* name) { return viewer_->findChild<QComboBox*>(QLatin1String(name)); }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    adala::gui::registerMetaTypes();
    // English plural forms ("1 training scene"), as the workbench shows them.
    adala::i18n::install_translator(*qApp, QStringLiteral("en"));
    dir_ = gui_test::freshDir("segmentation");
  }

  void cleanup() { viewer_.reset(); }

  void loader_reads_every_field() {
    const QString dir = seg_test::writeFolder(dir_ + "/basic", basicFolder());
    SegmentationResults r;
    QString error;
    QVERIFY2(SegmentationResults::load(dir, &r, &error), qPrintable(error));
    QCOMPARE(r.head, QString("linear"));
    QCOMPARE(r.split, QString("validation"));
    QCOMPARE(r.ignoreIndex, 255);
    QCOMPARE(r.classes.size(), 11);
    QCOMPARE(r.classes[1].name, QString("T-shirt/top"));
    QCOMPARE(r.classes[1].color, QColor("#e6194b"));
    QCOMPARE(r.classes[10].name, QString("Ankle boot"));
    // The numbers basicFolder() wrote to index.json (Qt writes the shortest round-trip text),
    // read back: the same bits as the same expressions here.
    ADALA_COMPARE_EXACT(r.teacher.miou, 0.612);
    ADALA_COMPARE_EXACT(r.student.pixelAccuracy, 0.887);
    QCOMPARE(r.teacher.perClassIou.size(), 11);
    ADALA_COMPARE_EXACT(r.teacher.perClassIou[3], 0.5 + 0.04 * 3);
    QVERIFY(std::isnan(r.teacher.perClassIou[10]));  // null: class absent
    QCOMPARE(r.entries.size(), 4);
    QCOMPARE(r.entries[1].id, QString("000001"));
    QCOMPARE(r.entries[1].truth, QDir(dir).absoluteFilePath("truth/000001.png"));
    ADALA_COMPARE_EXACT(r.entries[1].disagreement, 0.5);
    ADALA_COMPARE_EXACT(r.entries[3].studentMiou, 0.3);
    ADALA_COMPARE_EXACT(r.entries[2].teacherIou[4], 0.92);

    SegmentationSample s;
    QVERIFY2(r.loadSample(0, &s, &error), qPrintable(error));
    QCOMPARE(s.image.size(), QSize(4, 3));
    QCOMPARE(s.image.pixel(2, 1), qRgb(80, 70, 200));
    for (int i = 0; i < 12; ++i) {
      QCOMPARE(int(s.truth.labels[i]), kTruth[i]);
      QCOMPARE(int(s.teacher.labels[i]), kTeacher[i]);
      QCOMPARE(int(s.student.labels[i]), kStudent[i]);
    }
  }

  void loader_computes_missing_metrics() {
    // The same folder without per-image metrics: IoU, mIoU, disagreement from the masks.
    const QString dir = seg_test::writeFolder(dir_ + "/computed", basicFolder(false));
    SegmentationResults r;
    QString error;
    QVERIFY2(SegmentationResults::load(dir, &r, &error), qPrintable(error));
    const auto& e = r.entries[0];
    // Teacher, over the 11 labelled pixels: background 5/7, T-shirt 2/2, trouser 1/2,
    // pullover 0/2 (truth at (3,1), teacher at (1,1)), coat 0/1 (predicted, absent).
    compareNear(e.teacherIou[0], 5.0 / 7.0);
    compareNear(e.teacherIou[1], 1.0);
    compareNear(e.teacherIou[2], 0.5);
    compareNear(e.teacherIou[3], 0.0);
    compareNear(e.teacherIou[5], 0.0);
    QVERIFY(std::isnan(e.teacherIou[4]) && std::isnan(e.teacherIou[6]) &&
            std::isnan(e.teacherIou[10]));
    compareNear(e.teacherMiou, (5.0 / 7.0 + 1.0 + 0.5) / 5.0);
    // Student: background 4/6, T-shirt 1/2, trouser 1/2, pullover 1/2, dress 0/2, sandal 0/1.
    compareNear(e.studentIou[0], 4.0 / 6.0);
    compareNear(e.studentIou[3], 0.5);
    compareNear(e.studentIou[4], 0.0);
    compareNear(e.studentMiou, (4.0 / 6.0 + 0.5 + 0.5 + 0.5) / 6.0);
    // They differ on (1,0), (3,0), (3,1), (3,2): 4 of the 11 labelled pixels.
    compareNear(e.disagreement, 4.0 / 11.0);
    // Images 1-3: teacher = truth, student = the hand-made teacher.
    compareNear(r.entries[2].teacherMiou, 1.0);
    compareNear(r.entries[2].disagreement, 3.0 / 11.0);

    SegmentationSample s;
    QVERIFY(r.loadSample(0, &s, &error));
    compareNear(pixelAccuracy(s.truth, s.teacher, 255), 8.0 / 11.0);
    compareNear(pixelAccuracy(s.truth, s.student, 255), 7.0 / 11.0);
  }

  // A copy of basicFolder() under dir_, named bad-<name>, to break one way.
  QString badFolder(const QString& name) {
    return seg_test::writeFolder(dir_ + "/bad-" + name, basicFolder());
  }

  void index_errors_name_the_file() {
    QString dir = badFolder("no-index");
    QFile::remove(dir + "/index.json");
    QString error = loadError(dir);
    QVERIFY2(error.contains(nativePath(dir, "index.json")) && error.contains("does not exist"),
             qPrintable(error));

    dir = badFolder("json");
    {
      QFile f(dir + "/index.json");
      f.open(QIODevice::WriteOnly | QIODevice::Truncate);
      f.write("{ \"head\": \"linear\", \"classes\": [ ");
    }
    error = loadError(dir);
    QVERIFY2(error.startsWith(nativePath(dir, "index.json") + ": not valid JSON"),
             qPrintable(error));

    dir = badFolder("field");
    removeImageField(dir, 2, "truth");
    QCOMPARE(loadError(dir), nativePath(dir, "index.json") + ": images[2].truth is missing.");
  }

  void index_value_errors_name_the_field() {
    QString dir = badFolder("summary");
    editIndex(dir, [](QJsonObject& o) {
      QJsonObject summary = o["summary"].toObject();
      QJsonObject student = summary["student"].toObject();
      student["per_class_iou"] = QJsonArray{0.5, 0.4};
      summary["student"] = student;
      o["summary"] = summary;
    });
    QCOMPARE(loadError(dir),
             nativePath(dir, "index.json") +
                 ": summary.student.per_class_iou has 2 entries, expected 11 (one per class).");

    dir = badFolder("colour");
    editIndex(dir, [](QJsonObject& o) {
      QJsonArray classes = o["classes"].toArray();
      classes[4] = QJsonObject{{"name", "Dress"}, {"color", "blueish"}};
      o["classes"] = classes;
    });
    const QString error = loadError(dir);
    QVERIFY2(error.contains("classes[4].color \"blueish\" is not a colour"), qPrintable(error));
  }

  void mask_file_errors_name_the_file() {
    QString dir = badFolder("png");
    QFile::remove(dir + "/teacher/000001.png");
    QCOMPARE(loadError(dir), nativePath(dir, "teacher/000001.png") +
                                 " does not exist (images[1].teacher in " +
                                 nativePath(dir, "index.json") + ").");

    dir = badFolder("size");
    {
      QImage wrong(5, 3, QImage::Format_Grayscale8);
      wrong.fill(0);
      wrong.save(dir + "/student/000003.png");
    }
    QCOMPARE(loadError(dir), nativePath(dir, "student/000003.png") +
                                 " is 5 × 3 pixels, but its image " +
                                 nativePath(dir, "images/000003.png") + " is 4 × 3.");

    dir = badFolder("rgb-mask");
    smallPhoto(1).save(dir + "/student/000001.png");
    SegmentationResults r;
    SegmentationSample s;
    QString error;
    QVERIFY(SegmentationResults::load(dir, &r, &error));
    QVERIFY(!r.loadSample(1, &s, &error));
    QVERIFY2(error.startsWith(nativePath(dir, "student/000001.png") +
                              " is not an 8-bit single-channel PNG of class indices"),
             qPrintable(error));
  }

  // A class index past the classes: found when the image is decoded (the index has its
  // metrics, so loading reads headers only), and shown by the viewer for that image.
  void class_past_the_classes_names_the_mask() {
    const QString dir = badFolder("class");
    {
      auto m = seg_test::mask(4, 3, kTruth);
      m.labels[6] = 11;  // (2, 1)
      classMaskToImage(m).save(dir + "/truth/000002.png");
    }
    SegmentationResults r;
    QString error;
    QVERIFY(SegmentationResults::load(dir, &r, &error));
    SegmentationSample s;
    QVERIFY(!r.loadSample(2, &s, &error));
    QCOMPARE(error, nativePath(dir, "truth/000002.png") +
                        ": pixel (2, 1) holds class 11, but there are 11 classes (0 to 10) and the "
                        "ignore index is 255.");
    QVERIFY(r.loadSample(1, &s, &error));
    auto* viewer = openViewer(dir);
    QVERIFY(viewer);
    viewer->setPosition(2);
    QVERIFY2(viewer->errorText().contains("truth/000002.png") &&
                 viewer->errorText().contains("class 11"),
             qPrintable(viewer->errorText()));
    QVERIFY(viewer->pane(SegmentationViewer::TeacherPane)->image().isNull());
    QTest::keyClick(viewer, Qt::Key_Right);  // the next image shows again
    QCOMPARE(viewer->currentId(), QString("000003"));
    QVERIFY(viewer->errorText().isEmpty());
    QVERIFY(!viewer->pane(SegmentationViewer::TeacherPane)->image().isNull());
    // The same with the metrics missing: now loading decodes the mask and fails on it.
    removeImageField(dir, 2, "disagreement");
    error = loadError(dir);
    QVERIFY2(
        error.startsWith(nativePath(dir, "truth/000002.png") + ": pixel (2, 1) holds class 11"),
        qPrintable(error));
  }

  // A folder holding no results at all: the viewer says which index.json it looked for.
  void viewer_names_the_missing_index() {
    const QString dir = badFolder("no-index");
    QFile::remove(dir + "/index.json");
    QString viewerError;
    SegmentationViewer viewer;
    QVERIFY(!viewer.openFolder(dir, &viewerError));
    QVERIFY2(viewerError.contains("index.json"), qPrintable(viewerError));
  }

  void disagreement_map_pixel_by_pixel() {
    const auto truth = seg_test::mask(4, 3, kTruth), teacher = seg_test::mask(4, 3, kTeacher),
               student = seg_test::mask(4, 3, kStudent);
    const AgreementMap map = agreementMap(truth, teacher, student, 255);
    QCOMPARE(map.width, 4);
    QCOMPARE(map.height, 3);
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        QVERIFY2(map.at(x, y) == kExpected[y * 4 + x],
                 qPrintable(QStringLiteral("pixel (%1, %2): %3 vs %4")
                                .arg(x)
                                .arg(y)
                                .arg(int(map.at(x, y)))
                                .arg(int(kExpected[y * 4 + x]))));
    QCOMPARE(map.counts[size_t(A::AgreeCorrect)], 6);
    QCOMPARE(map.counts[size_t(A::StudentWrong)], 2);
    QCOMPARE(map.counts[size_t(A::TeacherWrong)], 1);
    QCOMPARE(map.counts[size_t(A::AgreeWrong)], 1);
    QCOMPARE(map.counts[size_t(A::BothWrongDifferently)], 1);
    QCOMPARE(map.counts[size_t(A::Ignore)], 1);
    compareNear(map.fraction(A::StudentWrong), 2.0 / 11.0);

    // The viewer draws exactly that, in the legend's colours, and writes the shares.
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(viewer);
    QCOMPARE(viewer->currentId(), QString("000000"));
    const QImage shown = viewer->pane(SegmentationViewer::DisagreementPane)->image();
    const QImage photo = smallPhoto(0);
    const auto classes = seg_test::fashionClasses();
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) {
        const Agreement a = kExpected[y * 4 + x];
        const QRgb want = a == A::Ignore ? photo.pixel(x, y) : agreementColor(a).rgb();
        QCOMPARE(QColor(shown.pixel(x, y)), QColor(want));
        const QRgb teacherWant = classes[kTeacher[y * 4 + x]].color.rgb();
        QCOMPARE(QColor(viewer->pane(SegmentationViewer::TeacherPane)->image().pixel(x, y)),
                 QColor(teacherWant));
        // Ignored truth pixels show the photo through the mask.
        const QRgb truthWant =
            kTruth[y * 4 + x] == 255 ? photo.pixel(x, y) : classes[kTruth[y * 4 + x]].color.rgb();
        QCOMPARE(QColor(viewer->pane(SegmentationViewer::TruthPane)->image().pixel(x, y)),
                 QColor(truthWant));
      }
    QCOMPARE(viewer->agreementLegend()->shareText(A::StudentWrong), QString("18.2 %"));
    QCOMPARE(viewer->agreementLegend()->shareText(A::AgreeCorrect), QString("54.5 %"));
    QCOMPARE(viewer->agreementLegend()->shareText(A::Ignore), QString("8.3 %"));
    // Half opacity: half mask, half photo.
    viewer->setOpacity(0.5);
    const QColor half = viewer->pane(SegmentationViewer::TeacherPane)->image().pixelColor(0, 0);
    const QColor mask = classes[1].color, base = QColor(photo.pixel(0, 0));
    QVERIFY2(std::abs(half.red() - (mask.red() + base.red()) / 2) <= 2, qPrintable(half.name()));
    QVERIFY2(std::abs(half.blue() - (mask.blue() + base.blue()) / 2) <= 2, qPrintable(half.name()));
  }

  void summary_and_per_image_values_are_shown() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(viewer);
    const QString summary = viewer->summaryText();
    for (const char* part :
         {"linear head", "validation split", "4 images", "teacher mIoU 0.612", "student mIoU 0.584",
          "student − teacher −0.028", "teacher 90.1 %", "student 88.7 %"})
      QVERIFY2(summary.contains(QString::fromUtf8(part)), qPrintable(summary + " lacks " + part));
    // Split names are interface words (translated), whatever spelling the results use.
    QCOMPARE(SegmentationViewer::splitName("val"), QString("validation"));
    QCOMPARE(SegmentationViewer::splitName("holdout-2"), QString("holdout-2"));
    QVERIFY2(viewer->imageText().contains("teacher mIoU 0.900") &&
                 viewer->imageText().contains("student mIoU 0.500") &&
                 viewer->imageText().contains("10.0 %"),
             qPrintable(viewer->imageText()));
    QCOMPARE(viewer->pane(SegmentationViewer::TeacherPane)->title(),
             QString("Teacher · mIoU 0.900"));
    QCOMPARE(viewer->pane(SegmentationViewer::StudentPane)->title(),
             QString("Student · mIoU 0.500"));
    QCOMPARE(viewer->pane(SegmentationViewer::DisagreementPane)->title(),
             QString("Disagreement · 10.0 %"));
  }

  void stepping_by_key_button_and_spin_box() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(viewer);
    QSignalSpy changed(viewer, &SegmentationViewer::currentImageChanged);
    auto* next = viewer->findChild<QPushButton*>("nextButton");
    auto* previous = viewer->findChild<QPushButton*>("previousButton");
    auto* spin = viewer->findChild<QSpinBox*>("positionSpin");
    QVERIFY(next && previous && spin);
    QCOMPARE(viewer->currentId(), QString("000000"));
    QVERIFY(!previous->isEnabled());

    QTest::keyClick(viewer, Qt::Key_Right);
    QCOMPARE(viewer->currentId(), QString("000001"));
    QCOMPARE(viewer->pane(SegmentationViewer::ImagePane)->title(), QString("Image 000001"));
    QCOMPARE(viewer->pane(SegmentationViewer::ImagePane)->image().pixel(0, 0),
             smallPhoto(1).pixel(0, 0));
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(viewer->currentId(), QString("000002"));
    QCOMPARE(spin->value(), 3);
    QTest::keyClick(viewer, Qt::Key_Left);
    QCOMPARE(viewer->currentId(), QString("000001"));
    QTest::keyClick(viewer, Qt::Key_PageDown);
    QCOMPARE(viewer->currentId(), QString("000002"));
    QTest::keyClick(viewer, Qt::Key_PageUp);
    QCOMPARE(viewer->currentId(), QString("000001"));
    QTest::mouseClick(previous, Qt::LeftButton);
    QCOMPARE(viewer->currentId(), QString("000000"));
    QTest::keyClick(viewer, Qt::Key_Left);  // stays at the first
    QCOMPARE(viewer->currentId(), QString("000000"));
    QTest::keyClick(viewer, Qt::Key_End);
    QCOMPARE(viewer->currentId(), QString("000003"));
    QVERIFY(!next->isEnabled());
    QTest::keyClick(viewer, Qt::Key_Right);
    QCOMPARE(viewer->currentId(), QString("000003"));
    QTest::keyClick(viewer, Qt::Key_Home);
    QCOMPARE(viewer->currentId(), QString("000000"));

    // Typing a position into the spin box.
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, "3");
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(viewer->currentId(), QString("000002"));
    QTest::keyClick(spin, Qt::Key_Up);
    QCOMPARE(viewer->currentId(), QString("000003"));
    QCOMPARE(changed.last().first().toString(), QString("000003"));
  }

  void sorting_orders_the_images() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(viewer);
    auto ids = [&] {
      QStringList out;
      for (int e : viewer->order()) out << viewer->results().entries[e].id;
      return out.join(' ');
    };
    QCOMPARE(ids(), QString("000000 000001 000002 000003"));
    auto* sort = combo("sortCombo");
    QVERIFY(sort);
    // Chosen the way a person does: focus the combo, arrow down through its items.
    sort->setFocus();
    QTest::keyClick(sort, Qt::Key_Down);
    QCOMPARE(viewer->sortOrder(), SegmentationViewer::DisagreementDescending);
    QCOMPARE(ids(), QString("000001 000003 000000 000002"));
    QCOMPARE(viewer->currentId(), QString("000001"));  // the most disputed image first
    QCOMPARE(viewer->position(), 0);
    QTest::keyClick(viewer, Qt::Key_Right);
    QCOMPARE(viewer->currentId(), QString("000003"));
    QTest::keyClick(viewer, Qt::Key_Right);
    QCOMPARE(viewer->currentId(), QString("000000"));

    sort->setFocus();
    QTest::keyClick(sort, Qt::Key_Down);
    QCOMPARE(viewer->sortOrder(), SegmentationViewer::StudentMiouAscending);
    QCOMPARE(ids(), QString("000003 000000 000001 000002"));
    QCOMPARE(viewer->currentId(), QString("000003"));
    sort->setFocus();
    QTest::keyClick(sort, Qt::Key_Down);
    QCOMPARE(viewer->sortOrder(), SegmentationViewer::GapAscending);
    QCOMPARE(ids(), QString("000000 000001 000003 000002"));
    sort->setFocus();
    QTest::keyClick(sort, Qt::Key_Home);
    QCOMPARE(viewer->sortOrder(), SegmentationViewer::FileOrder);
    QCOMPARE(ids(), QString("000000 000001 000002 000003"));
  }

  void sorting_by_deficit_puts_the_largest_first() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(viewer);
    auto* sort = combo("sortCombo");
    QVERIFY(sort);
    QStringList labels;
    for (int i = 0; i < sort->count(); ++i) labels << sort->itemText(i);
    QCOMPARE(labels, (QStringList{"file order", "disagreement ↓", "student mIoU ↑",
                                  "student IoU deficit ↓ (teacher − student)"}));
    sort->setCurrentIndex(sort->findData(SegmentationViewer::GapAscending));
    QCOMPARE(viewer->sortOrder(), SegmentationViewer::GapAscending);
    // Deficits (teacher − student): 000000 0.40, 000001 0.15, 000002 0.02, 000003 0.10.
    QStringList ids;
    QVector<double> deficits;
    for (int e : viewer->order()) {
      const auto& entry = viewer->results().entries[e];
      ids << entry.id;
      deficits << entry.teacherMiou - entry.studentMiou;
    }
    QCOMPARE(ids.join(' '), QString("000000 000001 000003 000002"));
    for (int i = 1; i < deficits.size(); ++i) QVERIFY(deficits[i - 1] >= deficits[i]);
    QCOMPARE(viewer->currentId(), QString("000000"));  // the largest deficit first
    // The disagreement order is still there.
    sort->setCurrentIndex(sort->findData(SegmentationViewer::DisagreementDescending));
    QCOMPARE(viewer->currentId(), QString("000001"));
  }

  void loader_reads_story_sweep_and_paper() {
    const QString dir = seg_test::writeFolder(dir_ + "/story", storyFolder());
    SegmentationResults r;
    QString error;
    QVERIFY2(SegmentationResults::load(dir, &r, &error), qPrintable(error));
    QVERIFY(r.story.has_value());
    QCOMPARE(r.story->imageSize, 112);
    QVERIFY(r.story->fineTuned);
    // storyFolder()'s numbers, written as round-trip JSON text and read back: the same bits.
    ADALA_COMPARE_EXACT(r.story->backboneLrScale, 0.5);
    ADALA_COMPARE_EXACT(r.story->layerDecay, 0.75);
    QCOMPARE(r.story->probeEpochs, qint64(3));
    QCOMPARE(r.story->head, QString("linear"));
    QCOMPARE(r.story->trainImages, qint64(600));
    QCOMPARE(r.story->adaptation, QString("Stages 1+2 on the training scenes"));
    QCOMPARE(r.sweep.size(), 2);
    QCOMPARE(r.sweep[0].imageSize, 112);
    QCOMPARE(r.sweep[0].valImages, qint64(200));
    QCOMPARE(r.sweep[0].garmentsMin, qint64(2));
    QCOMPARE(r.sweep[0].garmentsMax, qint64(3));
    ADALA_COMPARE_EXACT(r.sweep[0].teacher.pixelAccuracy, 0.91);
    ADALA_COMPARE_EXACT(r.sweep[0].student.imgPerS, 80.0);
    ADALA_COMPARE_EXACT(r.sweep[1].teacher.peakMb, 48.0);
    QVERIFY(std::isnan(r.sweep[1].student.miou));
    QVERIFY(r.paper.has_value());
    QCOMPARE(r.paper->dataset, QString("Cityscapes"));
    QCOMPARE(r.paper->imageSize, 1024);
    ADALA_COMPARE_EXACT(r.paper->student.peakMb, 1376.4);

    // An older index has none of them.
    QVERIFY(SegmentationResults::load(seg_test::writeFolder(dir_ + "/basic", basicFolder()), &r,
                                      &error));
    QVERIFY(!r.story && r.sweep.isEmpty() && !r.paper);
  }

  void story_line_names_resolution_backbone_and_head() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/story", storyFolder()));
    QVERIFY(viewer);
    const QString fineTuned = QString::fromUtf8(
        "112×112 · backbone fine-tuned (lr ×0.5, layer decay 0.75, head probed 3 epochs first) · "
        "linear head · 600 training "
        "scenes · student: Stages 1+2 on the training scenes");
    QCOMPARE(viewer->storyText(), fineTuned);
    auto* label = viewer->findChild<QLabel*>("storyLabel");
    QVERIFY(label);
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), fineTuned);
    // The line is the first thing in the viewer, above the head and order controls.
    QVERIFY(label->mapTo(viewer, QPoint(0, 0)).y() <
            combo("sortCombo")->mapTo(viewer, QPoint(0, 0)).y());

    // A frozen backbone, another head, one training scene, no adaptation text.
    seg_test::Folder frozen = storyFolder();
    frozen.head = "mask2former";
    frozen.story = QJsonObject{
        {"image_size", 224}, {"backbone", "frozen"}, {"head", "mask2former"}, {"train_images", 1}};
    viewer->openFolder(seg_test::writeFolder(dir_ + "/story-frozen", frozen));
    QCOMPARE(viewer->storyText(),
             QString::fromUtf8("224×224 · backbone frozen · mask2former head · 1 training scene"));
    // Fine-tuned with neither factor recorded.
    seg_test::Folder bare = storyFolder();
    bare.story = QJsonObject{{"image_size", 448}, {"backbone", "fine-tuned"}, {"head", "linear"}};
    viewer->openFolder(seg_test::writeFolder(dir_ + "/story-bare", bare));
    QCOMPARE(viewer->storyText(), QString::fromUtf8("448×448 · backbone fine-tuned · linear head"));
    QCOMPARE(label->text(), viewer->storyText());

    // An older index: the head's name only.
    viewer->openFolder(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QCOMPARE(viewer->storyText(), QString("linear head"));
    QCOMPARE(label->text(), QString("linear head"));
  }

  void sweep_table_compares_resolutions_and_the_paper() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/story", storyFolder()));
    QVERIFY(viewer);
    auto* table = viewer->sweepTable();
    QVERIFY(table);
    QCOMPARE(table, viewer->findChild<QTableWidget*>("sweepTable"));
    QVERIFY(table->isVisible());
    QCOMPARE(table->columnCount(), int(SegmentationViewer::SweepColumnCount));
    QStringList headers;
    for (int c = 0; c < table->columnCount(); ++c)
      headers << table->horizontalHeaderItem(c)->text();
    QCOMPARE(headers, (QStringList{"Resolution", "Teacher mIoU (%)", "Student mIoU (%)", "Gap (pt)",
                                   "Teacher img/s", "Student img/s", "× img/s", "Teacher peak MB",
                                   "Student peak MB", "× memory"}));
    QCOMPARE(table->rowCount(), 3);
    // mIoU in percent, the gap in points (student − teacher), img/s and MB with 4 significant
    // digits (as the report writes them), ratios student / teacher.
    QCOMPARE(rowTexts(table, 0), (QStringList{"112²", "63.00", "62.00", "−1.00", "40.00", "80.00",
                                              "2.00×", "3.200", "1.600", "0.50×"}));
    QCOMPARE(rowTexts(table, 1), (QStringList{"448²", "55.25", "—", "—", "4.000", "14.00", "3.50×",
                                              "48.00", "12.00", "0.25×"}));
    QCOMPARE(rowTexts(table, 2), (QStringList{"paper: Cityscapes 1024²", "80.98", "78.73", "−2.25",
                                              "7.070", "15.95", "2.26×", "3284", "1376", "0.42×"}));
    QCOMPARE(table->item(0, SegmentationViewer::SweepResolution)->toolTip(),
             QString("200 validation scenes of 2 to 3 garments"));
    QCOMPARE(table->item(2, SegmentationViewer::SweepResolution)->toolTip(),
             QString("The paper's numbers (Cityscapes at 1024 × 1024 pixels), for comparison: "
                     "not measured here."));
    QVERIFY(table->item(2, SegmentationViewer::SweepMiouGap)->font().italic());
    QVERIFY(!table->item(0, SegmentationViewer::SweepMiouGap)->font().italic());
    // Read-only, and every row shows in full without scrolling.
    for (int r = 0; r < table->rowCount(); ++r)
      for (int c = 0; c < table->columnCount(); ++c)
        QVERIFY(!(table->item(r, c)->flags() & Qt::ItemIsEditable));
    for (int r = 0; r < table->rowCount(); ++r) {
      const QRect cell = table->visualItemRect(table->item(r, SegmentationViewer::SweepResolution));
      QVERIFY2(table->viewport()->rect().contains(cell),
               qPrintable(QString("row %1 at %2, viewport %3 high")
                              .arg(r)
                              .arg(cell.bottom())
                              .arg(table->viewport()->height())));
    }
    // As tall as its header and rows, no more (no blank space left for a scroll bar it lacks).
    QVERIFY(!table->horizontalScrollBar()->isVisible());
    int rowsHeight = 0;
    for (int r = 0; r < table->rowCount(); ++r) rowsHeight += table->rowHeight(r);
    QCOMPARE(table->height(),
             table->horizontalHeader()->height() + rowsHeight + 2 * table->frameWidth());
    // Narrower than its columns: a scroll bar, and still every row in full.
    viewer->resize(700, 900);
    QTRY_VERIFY(table->horizontalScrollBar()->isVisible());
    QTRY_COMPARE(table->viewport()->height(), rowsHeight);  // the rows, above the bar
    viewer->resize(1400, 900);
    QTRY_VERIFY(!table->horizontalScrollBar()->isVisible());
    QTRY_COMPARE(table->viewport()->height(), rowsHeight);
    // The keys still step the images.
    QTest::keyClick(viewer, Qt::Key_Right);
    QCOMPARE(viewer->currentId(), QString("000001"));

    // Without the paper's numbers: the sweep's rows only.
    seg_test::Folder noPaper = storyFolder();
    noPaper.paperReference = {};
    viewer->openFolder(seg_test::writeFolder(dir_ + "/story-no-paper", noPaper));
    QCOMPARE(table->rowCount(), 2);
    QVERIFY(table->isVisible());
    // Without a sweep (an older index, or paper numbers alone): no table.
    viewer->openFolder(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(!table->isVisible());
    QCOMPARE(table->rowCount(), 0);
    seg_test::Folder paperOnly = storyFolder();
    paperOnly.sweep = {};
    viewer->openFolder(seg_test::writeFolder(dir_ + "/story-paper-only", paperOnly));
    QVERIFY(!table->isVisible());
  }

  void sweep_table_follows_the_head() {
    // Two heads: linear with a sweep, mask2former from an older writer.
    const QString run = dir_ + "/run-sweep-heads";
    seg_test::writeFolder(run + "/segmentation/linear", storyFolder());
    seg_test::Folder older = basicFolder();
    older.head = "mask2former";
    seg_test::writeFolder(run + "/segmentation/mask2former", older);
    auto* viewer = openViewer(run);
    QVERIFY(viewer);
    QVERIFY(viewer->sweepTable()->isVisible());
    QVERIFY(viewer->storyText().startsWith(QString::fromUtf8("112×112 · ")));
    QVERIFY(viewer->setHead(1));
    QVERIFY(!viewer->sweepTable()->isVisible());
    QCOMPARE(viewer->storyText(), QString("mask2former head"));
    QVERIFY(viewer->setHead(0));
    QVERIFY(viewer->sweepTable()->isVisible());
    QCOMPARE(viewer->sweepTable()->rowCount(), 3);
  }

  void malformed_story_or_sweep_names_the_field() {
    struct Case {
      const char* name;
      std::function<void(QJsonObject&)> change;
      const char* problem;
    };
    auto sweepRow = [](QJsonObject& o, int row, const std::function<void(QJsonObject&)>& edit) {
      QJsonArray sweep = o["sweep"].toArray();
      QJsonObject r = sweep[row].toObject();
      edit(r);
      sweep[row] = r;
      o["sweep"] = sweep;
    };
    const Case cases[] = {
        {"speed",
         [&](QJsonObject& o) {
           sweepRow(o, 1, [](QJsonObject& r) {
             QJsonObject student = r["student"].toObject();
             student["img_per_s"] = 0;
             r["student"] = student;
           });
         },
         "sweep[1].student.img_per_s is 0.0, must be above 0."},
        {"garments",
         [&](QJsonObject& o) {
           sweepRow(o, 0, [](QJsonObject& r) { r["garments"] = QJsonArray{3, 2}; });
         },
         "sweep[0].garments is [3,2]: the first (fewest) must not exceed the second (most)."},
        {"size",
         [&](QJsonObject& o) { sweepRow(o, 0, [](QJsonObject& r) { r["image_size"] = "112"; }); },
         "sweep[0].image_size must be an integer from 1 to 65536."},
        {"backbone",
         [](QJsonObject& o) {
           QJsonObject story = o["story"].toObject();
           story["backbone"] = "half";
           o["story"] = story;
         },
         "story.backbone is \"half\", expected \"frozen\" or \"fine-tuned\"."},
        {"paper",
         [](QJsonObject& o) {
           QJsonObject paper = o["paper_reference"].toObject();
           QJsonObject teacher = paper["teacher"].toObject();
           teacher["miou"] = 80.98;
           paper["teacher"] = teacher;
           o["paper_reference"] = paper;
         },
         "paper_reference.teacher.miou is 80.98, outside 0..1."},
    };
    for (const auto& c : cases) {
      const QString dir = seg_test::writeFolder(dir_ + "/bad-story-" + c.name, storyFolder());
      editIndex(dir, c.change);
      const QString want = QDir::toNativeSeparators(dir + "/index.json") + ": " + c.problem;
      QCOMPARE(loadError(dir), want);
      SegmentationViewer viewer;
      QString error;
      QVERIFY(!viewer.openFolder(dir, &error));
      QCOMPARE(error, want);
      QCOMPARE(viewer.errorText(), want);
      QVERIFY(!viewer.sweepTable()->isVisibleTo(&viewer));
    }
  }

  void zoom_and_pan_are_shared_by_all_panes() {
    const QString demo =
        seg_test::writeFolder(dir_ + "/zoom", seg_test::demoFolder("linear", 3, 96, 7));
    auto* viewer = openViewer(demo);
    QVERIFY(viewer);
    auto scales = [&] {
      QVector<double> s;
      for (int p = 0; p < SegmentationViewer::PaneCount; ++p)
        s << viewer->pane(SegmentationViewer::Pane(p))->scale();
      return s;
    };
    const double fit = viewer->pane(SegmentationViewer::ImagePane)->fitScale();
    QVERIFY(fit > 1.0);
    // Equal panes fit alike: the same function of the same pane geometry and image size.
    for (double s : scales()) ADALA_COMPARE_EXACT(s, fit);

    // Ctrl + wheel over the student pane, at image pixel (20, 30).
    auto* student = viewer->pane(SegmentationViewer::StudentPane);
    const QPoint at = student->toWidget(QPointF(20.5, 30.5)).toPoint();
    const QPointF anchor = student->toImage(QPointF(at));
    sendCtrlWheel(student, at, 2);
    const double zoomed = fit * 1.25 * 1.25;
    // The viewer multiplies by pow(1.25, steps) (1.5625, exact) where the test multiplies by
    // 1.25 twice, and a + key by 1.25 once more: a few double roundings apart.
    const double zoomTolerance = 4 * std::numeric_limits<double>::epsilon() * zoomed * 1.25;
    QVERIFY2(std::abs(viewer->zoom() - zoomed) < 1e-9, qPrintable(QString::number(viewer->zoom())));
    for (int p = 0; p < SegmentationViewer::PaneCount; ++p) {
      auto* pane = viewer->pane(SegmentationViewer::Pane(p));
      ADALA_COMPARE_NEAR(pane->scale(), zoomed, zoomTolerance);
      QCOMPARE(pane->centre(), student->centre());
      // Every pane shows the image point under the cursor at the same place in its view.
      const QPointF w = pane->toWidget(anchor) - pane->viewArea().center();
      const QPointF want = QPointF(at) - student->viewArea().center();
      QVERIFY2((w - want).manhattanLength() < 0.01,
               qPrintable(QString("pane %1: %2,%3").arg(p).arg(w.x()).arg(w.y())));
    }
    // + key: one more step, in all panes.
    QTest::keyClick(viewer, Qt::Key_Plus);
    for (double s : scales()) ADALA_COMPARE_NEAR(s, zoomed * 1.25, zoomTolerance);

    // Dragging the truth pane 40 px to the right moves every view 40 / scale image pixels left.
    auto* truth = viewer->pane(SegmentationViewer::TruthPane);
    const QPointF before = viewer->pane(SegmentationViewer::DisagreementPane)->centre();
    const QPoint start = truth->viewArea().center().toPoint();
    QTest::mousePress(truth, Qt::LeftButton, {}, start);
    QTest::mouseMove(truth, start + QPoint(20, 0));
    QTest::mouseMove(truth, start + QPoint(40, 0));
    QTest::mouseRelease(truth, Qt::LeftButton, {}, start + QPoint(40, 0));
    const QPointF after = viewer->pane(SegmentationViewer::DisagreementPane)->centre();
    QVERIFY2(std::abs((before.x() - after.x()) - 40.0 / (zoomed * 1.25)) < 1e-6,
             qPrintable(QString("%1 -> %2").arg(before.x()).arg(after.x())));
    ADALA_COMPARE_EXACT(after.y(), before.y());  // a horizontal drag: y moves by 0 / scale
    for (int p = 0; p < SegmentationViewer::PaneCount; ++p)
      QCOMPARE(viewer->pane(SegmentationViewer::Pane(p))->centre(), after);

    // Zoom persists while stepping (same image size); 0 fits again; Ctrl + wheel out stops at fit.
    QTest::keyClick(viewer, Qt::Key_Right);
    for (double s : scales()) ADALA_COMPARE_NEAR(s, zoomed * 1.25, zoomTolerance);
    QTest::keyClick(viewer, Qt::Key_0);
    for (double s : scales()) ADALA_COMPARE_EXACT(s, fit);  // fitting: fitScale() again
    sendCtrlWheel(student, at, 1);
    sendCtrlWheel(student, at, -3);
    ADALA_COMPARE_EXACT(viewer->zoom(), 0.0);  // resetZoom() sets 0: fit
    for (double s : scales()) ADALA_COMPARE_EXACT(s, fit);
  }

  void hover_names_the_classes_in_every_pane() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(viewer);
    // Pixel (3, 1): truth Pullover, teacher background, student Pullover: teacher wrong.
    auto* truth = viewer->pane(SegmentationViewer::TruthPane);
    QTest::mouseMove(truth, truth->toWidget(QPointF(3.5, 1.5)).toPoint());
    QCOMPARE(truth->hoverPixel(), QPoint(3, 1));
    QCOMPARE(truth->hoverLabel(), QString("Pullover"));
    QCOMPARE(viewer->pane(SegmentationViewer::TeacherPane)->hoverLabel(), QString("background"));
    QCOMPARE(viewer->pane(SegmentationViewer::StudentPane)->hoverLabel(), QString("Pullover"));
    QCOMPARE(viewer->pane(SegmentationViewer::DisagreementPane)->hoverLabel(),
             agreementName(A::TeacherWrong));
    QCOMPARE(viewer->pane(SegmentationViewer::ImagePane)->hoverLabel(), QString("x 3, y 1"));
    QCOMPARE(viewer->pane(SegmentationViewer::StudentPane)->hoverPixel(), QPoint(3, 1));
    QCOMPARE(viewer->hoverText(), QString("Pixel (3, 1): truth Pullover · teacher background · "
                                          "student Pullover — teacher wrong (student right)"));
    // What is drawn: the marker and label near (3, 1), the mask untouched elsewhere.
    const auto classes = seg_test::fashionClasses();
    const QImage drawn = truth->grab().toImage();
    QCOMPARE(QColor(drawn.pixel(truth->toWidget(QPointF(0.5, 0.5)).toPoint())), classes[1].color);
    QCOMPARE(QColor(drawn.pixel(truth->toWidget(QPointF(0.5, 2.5)).toPoint())), classes[0].color);
    const QPoint centre = truth->toWidget(QPointF(3.5, 1.5)).toPoint();
    QCOMPARE(QColor(drawn.pixel(centre)), classes[3].color);  // the marker rings the pixel
    truth->setHover(QPoint(-1, -1), QString());
    const QImage plain = truth->grab().toImage();
    int changed = 0;
    for (int y = 0; y < drawn.height(); ++y)
      for (int x = 0; x < drawn.width(); ++x) changed += drawn.pixel(x, y) != plain.pixel(x, y);
    QVERIFY2(changed > 300 && changed < drawn.width() * drawn.height() / 8,
             qPrintable(QString::number(changed)));
    // From another pane, over an ignored pixel (2, 1).
    auto* student = viewer->pane(SegmentationViewer::StudentPane);
    QTest::mouseMove(student, student->toWidget(QPointF(2.5, 1.5)).toPoint());
    QCOMPARE(truth->hoverLabel(), QString("ignore (255)"));
    QCOMPARE(viewer->pane(SegmentationViewer::StudentPane)->hoverLabel(), QString("T-shirt/top"));
    QCOMPARE(viewer->pane(SegmentationViewer::DisagreementPane)->hoverLabel(),
             agreementName(A::Ignore));
  }

  void legend_lists_the_classes_in_their_colours() {
    auto* viewer = openViewer(seg_test::writeFolder(dir_ + "/basic", basicFolder()));
    QVERIFY(viewer);
    auto* table = viewer->classLegend()->table();
    const auto classes = seg_test::fashionClasses();
    QCOMPARE(table->rowCount(), 11);
    const QImage grabbed = table->viewport()->grab().toImage();
    const qreal dpr = grabbed.devicePixelRatio();
    for (int i = 0; i < 11; ++i) {
      auto* item = table->item(i, ClassLegend::ClassColumn);
      QCOMPARE(item->text(), classes[i].name);
      QCOMPARE(item->data(ClassLegend::kColorRole).value<QColor>(), classes[i].color);
      // What is drawn: the swatch's middle is the class colour.
      const QRect cell = table->visualItemRect(item);
      QVERIFY2(table->viewport()->rect().contains(cell),
               qPrintable(QString("row %1 not visible").arg(i)));
      const QPoint mid = ClassLegend::swatchRect(cell).center();
      QCOMPARE(QColor(grabbed.pixel(int(mid.x() * dpr), int(mid.y() * dpr))), classes[i].color);
    }
    // Split IoU, then this image's (the index's per-image lists).
    QCOMPARE(table->item(3, ClassLegend::TeacherColumn)->text(), QString("0.620"));
    QCOMPARE(table->item(3, ClassLegend::StudentColumn)->text(), QString("0.570"));
    QCOMPARE(table->item(3, ClassLegend::DeltaColumn)->text(), QString("−0.050"));
    QCOMPARE(table->item(10, ClassLegend::TeacherColumn)->text(), QString("—"));
    auto* scope = combo("scopeCombo");
    scope->setFocus();
    QTest::keyClick(scope, Qt::Key_Down);
    QCOMPARE(table->item(3, ClassLegend::TeacherColumn)->text(), QString("0.900"));
    QCOMPARE(table->item(3, ClassLegend::StudentColumn)->text(), QString("0.500"));
    QTest::keyClick(viewer, Qt::Key_Right);
    QCOMPARE(table->item(3, ClassLegend::StudentColumn)->text(), QString("0.800"));
  }

  void head_selector_switches_results() {
    // A run folder with two heads; the second one's student is worse.
    const QString run = dir_ + "/run-heads";
    seg_test::writeFolder(run + "/segmentation/linear", seg_test::demoFolder("linear", 4, 64, 3));
    seg_test::writeFolder(run + "/segmentation/mask2former",
                          seg_test::demoFolder("mask2former", 4, 64, 3, 0.6));
    auto* viewer = openViewer(run);
    QVERIFY(viewer);
    QCOMPARE(viewer->headDirs().size(), 2);
    QCOMPARE(viewer->results().head, QString("linear"));
    auto* head = combo("headCombo");
    QVERIFY(head->isEnabled());
    QCOMPARE(head->count(), 2);
    QTest::keyClick(viewer, Qt::Key_Right);
    QCOMPARE(viewer->currentId(), QString("000001"));
    head->setFocus();
    QTest::keyClick(head, Qt::Key_Down);
    QCOMPARE(viewer->results().head, QString("mask2former"));
    QCOMPARE(viewer->results().dir, QDir(run + "/segmentation/mask2former").absolutePath());
    QCOMPARE(viewer->currentId(), QString("000001"));  // the same image, the other head
    QVERIFY(viewer->summaryText().startsWith("mask2former head"));
    QCOMPARE(viewer->window()->focusWidget(), viewer);  // arrows step images again
  }

  void demo_folder_loads() {
    // The realistic demo (also the screenshot's): 24 images of 160 x 160 pixels, two heads.
    const QString run = dir_ + "/demo-run";
    seg_test::writeFolder(run + "/segmentation/linear",
                          seg_test::demoFolder("linear", 24, 160, 2024, 0.12));
    seg_test::writeFolder(run + "/segmentation/mask2former",
                          seg_test::demoFolder("mask2former", 24, 160, 2024, 0.06));
    auto* viewer = openViewer(run);
    QVERIFY(viewer);
    QCOMPARE(viewer->imageCount(), 24);
    const auto& r = viewer->results();
    QVERIFY(r.teacher.miou > r.student.miou);
    // Each image's recorded metrics are what its masks give.
    for (int i = 0; i < 3; ++i) {
      SegmentationSample s;
      QString error;
      QVERIFY(r.loadSample(i, &s, &error));
      compareNear(r.entries[i].teacherMiou, meanIou(perClassIou(s.truth, s.teacher, 11, 255)));
      compareNear(r.entries[i].disagreement,
                  disagreementFraction(s.truth, s.teacher, s.student, 255));
    }
    viewer->setSortOrder(SegmentationViewer::DisagreementDescending);
    double last = 1.0;
    for (int e : viewer->order()) {
      QVERIFY(r.entries[e].disagreement <= last);
      last = r.entries[e].disagreement;
    }
  }

  void workbench_tab_menu_and_run_browser() {
    const QString db = dir_ + "/runs.sqlite";
    QFile::remove(db);
    const QString runDir = dir_ + "/workbench-run";
    seg_test::writeFolder(runDir + "/segmentation/linear",
                          seg_test::demoFolder("linear", 3, 64, 5));
    seg_test::writeJson(runDir + "/config.json", QJsonObject{{"name", "seg"}});
    const QString plainDir = dir_ + "/plain-run";
    QDir().mkpath(plainDir);
    seg_test::writeJson(plainDir + "/config.json", QJsonObject{{"name", "plain"}});
    qint64 withSeg = 0, plain = 0;
    {
      adala::store::RunStore store(db.toStdString());
      withSeg = store.create_run("seg", "{}", "cpu", "", "");
      store.add_artifact(withSeg, "config", (runDir + "/config.json").toStdString());
      store.set_run_folder(withSeg, runDir.toStdString());
      plain = store.create_run("plain", "{}", "cpu", "", "");
      store.add_artifact(plain, "config", (plainDir + "/config.json").toStdString());
      store.set_run_folder(plain, plainDir.toStdString());
    }
    EngineController controller(db);
    MainWindow window(&controller);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* tabs = window.findChild<QTabWidget*>();
    auto* viewer = window.segmentationViewer();
    QVERIFY(tabs && viewer);
    QVERIFY(tabs->indexOf(viewer) >= 0);
    QCOMPARE(tabs->tabText(tabs->indexOf(viewer)), QString("Segmentation"));

    // File > Open segmentation results… is there, with its shortcut.
    QAction* open = nullptr;
    for (auto* menu : window.menuBar()->findChildren<QMenu*>())
      for (auto* a : menu->actions())
        if (a->text().startsWith("Open &segmentation results")) open = a;
    QVERIFY(open);
    QCOMPARE(open->shortcut(), QKeySequence("Ctrl+Shift+G"));

    // Opening a folder shows the tab.
    QVERIFY(window.openSegmentation(runDir));
    QCOMPARE(tabs->currentWidget(), viewer);
    QCOMPARE(viewer->imageCount(), 3);

    // The run browser: with the Segmentation tab showing, selecting a run with results loads them.
    viewer->openFolder(dir_ + "/basic");
    QCOMPARE(viewer->imageCount(), 4);
    auto* browser = window.runBrowser();
    browser->refresh();
    browser->selectRun(plain);
    QCOMPARE(viewer->imageCount(), 4);  // nothing to load
    browser->view()->clearSelection();
    browser->selectRun(withSeg);
    QCOMPARE(viewer->results().dir, QDir(runDir + "/segmentation/linear").absolutePath());
    // Elsewhere, selecting only offers it (status bar); opening the run loads it.
    viewer->openFolder(dir_ + "/basic");
    window.showTab(MainWindow::PlotTab);
    browser->view()->clearSelection();
    browser->selectRun(withSeg);
    QCOMPARE(viewer->imageCount(), 4);
    QVERIFY2(window.statusMessage().contains("segmentation results"),
             qPrintable(window.statusMessage()));
    QPushButton* openRun = nullptr;
    for (auto* b : browser->findChildren<QPushButton*>())
      if (b->text() == "Open") openRun = b;
    QVERIFY(openRun && openRun->isEnabled());
    QTest::mouseClick(openRun, Qt::LeftButton);
    QVERIFY2(window.statusMessage().contains("Segmentation tab"),
             qPrintable(window.statusMessage()));
    QCOMPARE(viewer->results().dir, QDir(runDir + "/segmentation/linear").absolutePath());
  }
};

ADALA_TEST_MAIN(TestGuiSegmentation)
}  // namespace test_gui_segmentation

#include "test_gui_segmentation.moc"
