// The segmentation results index.json reader (engine/seg/results_index.h): values as written,
// the optional parts (how the models were made: "story"; the resolution sweep: "sweep"; the
// paper's numbers: "paper_reference"), absent in older files, and every error naming the file
// and the field.
#include <QtTest/QtTest>

#include <cmath>
#include <string>

#include "engine/json/json.h"
#include "engine/seg/results_index.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_results_index {

using namespace adala;

namespace {

const char* kFile = "/results/linear/index.json";

Json valid_index() {
  return parse_json_strict(R"({
    "head": "linear", "split": "validation", "ignore_index": 255,
    "classes": [{"name": "background", "color": "#202020"}, {"name": "shirt", "color": "#ff0000"}],
    "summary": {
      "teacher": {"miou": 0.75, "pixel_accuracy": 0.9, "per_class_iou": [0.5, 1]},
      "student": {"miou": 0.5, "per_class_iou": [null, 0.5]}},
    "images": [{"id": 7, "image": "images/7.png", "truth": "truth/7.png",
                "teacher": "teacher/7.png", "student": "student/7.png",
                "teacher_miou": 0.75, "student_miou": null,
                "teacher_iou": [0.5, 1.0], "disagreement": 0.125}]
  })");
}

// An older index (no story, sweep or paper reference).
Json older_index() {
  return parse_json_strict(R"({
    "head": "linear", "split": "validation",
    "classes": [{"name": "background", "color": "#202020"}, {"name": "shirt", "color": "#ff0000"}],
    "summary": {"teacher": {"miou": 0.75}, "student": {"miou": 0.5}},
    "images": [{"id": "a", "image": "images/a.png", "truth": "truth/a.png",
                "teacher": "teacher/a.png", "student": "student/a.png"}]
  })");
}

Json full_index() {
  Json index = older_index();
  index["story"] = parse_json_strict(R"({
    "image_size": 112, "backbone": "fine-tuned", "backbone_lr_scale": 0.5, "layer_decay": 0.75,
    "probe_epochs": 3, "head": "linear", "train_images": 600,
    "adaptation": "Stages 1+2 on the training scenes"})");
  index["sweep"] = parse_json_strict(R"([
    {"image_size": 112, "val_images": 200, "garments": [2, 3],
     "teacher": {"miou": 0.63, "pixel_accuracy": 0.91, "img_per_s": 41.2, "peak_mb": 3.1},
     "student": {"miou": 0.62, "pixel_accuracy": 0.90, "img_per_s": 80.5, "peak_mb": 1.2}},
    {"image_size": 448, "val_images": 50, "garments": [8, 12],
     "teacher": {"miou": 0.55, "pixel_accuracy": null, "img_per_s": 4, "peak_mb": 48},
     "student": {"miou": null, "img_per_s": 16, "peak_mb": 0}}])");
  index["paper_reference"] = parse_json_strict(R"({
    "dataset": "Cityscapes", "image_size": 1024,
    "teacher": {"miou": 0.8098, "img_per_s": 7.07, "peak_mb": 3283.6},
    "student": {"miou": 0.7873, "img_per_s": 15.95, "peak_mb": 1376.4}})");
  return index;
}

// The problem reading `index` reports ("" when it reads).
std::string problem(const Json& index) {
  try {
    parse_segmentation_index(index.dump(), kFile);
  } catch (const SegmentationIndexError& e) {
    if (e.file() != kFile || std::string(e.what()) != e.file() + ": " + e.problem())
      return "wrong file in: " + std::string(e.what());
    return e.problem();
  }
  return "";
}

QString q(const std::string& s) { return QString::fromStdString(s); }

// A measure's miou, pixel_accuracy, img_per_s and peak_mb; -1 for NaN (not recorded).
std::vector<double> values(const SegmentationIndexMeasure& m) {
  std::vector<double> v{m.miou, m.pixel_accuracy, m.img_per_s, m.peak_mb};
  for (double& x : v)
    if (std::isnan(x)) x = -1;
  return v;
}

// One malformed case: a field set to a bad value, or removed, and the problem it must give.
struct FieldCase {
  const char* pointer;  // JSON pointer of the field changed
  Json value;           // null: remove it
  const char* expected;
};

Json changed(Json index, const FieldCase& c) {
  const Json::json_pointer at(c.pointer);
  if (c.value.is_null())
    index[at.parent_pointer()].erase(at.back());
  else
    index[at] = c.value;
  return index;
}

}  // namespace

class TestResultsIndex : public QObject {
  Q_OBJECT
 private slots:
  void reads_what_was_written() {
    const SegmentationIndex r = parse_segmentation_index(valid_index().dump(2), kFile);
    QVERIFY(r.head.has_value());
    QCOMPARE(QString::fromStdString(*r.head), QString("linear"));
    QCOMPARE(QString::fromStdString(r.split), QString("validation"));
    QCOMPARE(r.ignore_index, 255);
    QCOMPARE(r.classes.size(), size_t(2));
    QCOMPARE(QString::fromStdString(r.classes[1].name), QString("shirt"));
    QCOMPARE(QString::fromStdString(r.classes[1].color), QString("#ff0000"));
    // The numbers are the JSON literals above, parsed, dumped (round-trip precision) and parsed
    // again: the same bits as the same literals here.
    ADALA_COMPARE_EXACT(r.teacher.miou, 0.75);
    ADALA_COMPARE_EXACT(r.teacher.pixel_accuracy, 0.9);
    ADALA_COMPARE_EXACT(r.teacher.per_class_iou, (std::vector<double>{0.5, 1.0}));
    QVERIFY(std::isnan(r.student.pixel_accuracy));  // not recorded
    QCOMPARE(r.student.per_class_iou.size(), size_t(2));
    QVERIFY(std::isnan(r.student.per_class_iou[0]));  // class absent
    ADALA_COMPARE_EXACT(r.student.per_class_iou[1], 0.5);
    QCOMPARE(r.entries.size(), size_t(1));
    const auto& e = r.entries[0];
    QCOMPARE(QString::fromStdString(e.id), QString("7"));  // a numeric id reads as text
    QCOMPARE(QString::fromStdString(e.student), QString("student/7.png"));
    ADALA_COMPARE_EXACT(e.teacher_miou, 0.75);
    QVERIFY(std::isnan(e.student_miou));
    ADALA_COMPARE_EXACT(e.teacher_iou, (std::vector<double>{0.5, 1.0}));
    QVERIFY(e.student_iou.empty());
    ADALA_COMPARE_EXACT(e.disagreement, 0.125);

    Json no_head = valid_index();
    no_head.erase("head");
    QVERIFY(!parse_segmentation_index(no_head.dump(), kFile).head.has_value());
  }

  void errors_name_the_field() {
    QCOMPARE(QString::fromStdString(problem(valid_index())), QString(""));
    const FieldCase cases[] = {
        {"/images/0/truth", Json(), "images[0].truth is missing."},
        {"/images/0/truth", "", "images[0].truth must be a non-empty string."},
        {"/images/0/teacher_miou", "high", "images[0].teacher_miou must be a number."},
        {"/images/0/disagreement", 1.5, "images[0].disagreement is 1.5, outside 0..1."},
        {"/images/0/teacher_iou", Json::array({0.5}),
         "images[0].teacher_iou has 1 entries, expected 2 (one per class)."},
        {"/images/0/teacher_iou", Json::array({0.5, "x"}),
         "images[0].teacher_iou[1] must be a number or null."},
        {"/images/0/teacher_iou", Json::array({0.5, -0.25}),
         "images[0].teacher_iou[1] is -0.25, outside 0..1."},
        {"/images/0/student_iou", Json::object(),
         "images[0].student_iou must be an array with one number (or null) per class."},
        {"/images/0", 3, "images[0] must be an object."},
        {"/images", Json::array(), "images is empty."},
        {"/images", Json::object(), "images must be an array."},
        {"/summary/student/per_class_iou", Json::array({0.5, 0.4, 0.3}),
         "summary.student.per_class_iou has 3 entries, expected 2 (one per class)."},
        {"/summary/teacher/miou", Json(), "summary.teacher.miou is missing."},
        {"/summary/student", "x", "summary.student must be an object."},
        {"/summary", Json(), "summary is missing."},
        {"/classes/1", Json::array(), "classes[1] must be an object with a name and a color."},
        {"/classes/1/name", Json(), "classes[1].name is missing."},
        {"/classes", Json::array(), "classes is empty."},
        {"/ignore_index", 1, "ignore_index 1 is also a class index (there are 2 classes)."},
        {"/ignore_index", 256, "ignore_index must be an integer from 0 to 255."},
        {"/ignore_index", 2.5, "ignore_index must be an integer from 0 to 255."},
    };
    for (const auto& c : cases)
      QCOMPARE(q(problem(changed(valid_index(), c))), QString(c.expected));
    Json many = valid_index();
    for (int i = 0; i < 254; ++i) many["classes"].push_back(many["classes"][0]);
    QCOMPARE(QString::fromStdString(problem(many)),
             QString("classes has 256 entries; masks hold at most 255."));
  }

  void bad_documents() {
    try {
      parse_segmentation_index("{\"head\": \"linear\", \"head\": \"x\"}", kFile);
      QFAIL("a duplicate key was accepted");
    } catch (const SegmentationIndexError& e) {
      QCOMPARE(QString(e.what()), QString("%1: not valid JSON (JSON parse error at byte 25: "
                                          "duplicate key \"head\").")
                                      .arg(kFile));
    }
    try {
      parse_segmentation_index("[]", kFile);
      QFAIL("an array was accepted");
    } catch (const SegmentationIndexError& e) {
      QCOMPARE(QString::fromStdString(e.problem()), QString("the top level must be an object."));
    }
    const std::string missing = std::string(ADALA_TEST_TMP) + "/no-such-folder/index.json";
    try {
      read_segmentation_index(missing);
      QFAIL("a missing file was read");
    } catch (const SegmentationIndexError& e) {
      QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(missing));
      QCOMPARE(QString::fromStdString(e.problem()),
               QString("cannot open (No such file or directory)."));
    }
  }

  void reads_story_sweep_and_paper() {
    const SegmentationIndex r = parse_segmentation_index(full_index().dump(2), kFile);
    QVERIFY(r.story.has_value());
    const auto& s = *r.story;
    QCOMPARE(s.image_size, 112);
    QCOMPARE(q(s.backbone), QString("fine-tuned"));
    QVERIFY(s.fine_tuned());
    // Numbers here and below: the JSON literals of full_index(), dumped with round-trip
    // precision and parsed back, so the same bits as the same literals here.
    ADALA_COMPARE_EXACT(s.backbone_lr_scale, 0.5);
    ADALA_COMPARE_EXACT(s.layer_decay, 0.75);
    QCOMPARE(q(s.head), QString("linear"));
    QCOMPARE(s.train_images, int64_t(600));
    QCOMPARE(s.probe_epochs, int64_t(3));
    QCOMPARE(q(s.adaptation), QString("Stages 1+2 on the training scenes"));

    QCOMPARE(r.sweep.size(), size_t(2));
    const auto& a = r.sweep[0];
    QCOMPARE(a.image_size, 112);
    QCOMPARE(a.val_images, int64_t(200));
    QCOMPARE(a.garments_min, int64_t(2));
    QCOMPARE(a.garments_max, int64_t(3));
    ADALA_COMPARE_EXACT(values(a.teacher), (std::vector<double>{0.63, 0.91, 41.2, 3.1}));
    ADALA_COMPARE_EXACT(values(a.student), (std::vector<double>{0.62, 0.90, 80.5, 1.2}));
    const auto& b = r.sweep[1];
    QCOMPARE(b.image_size, 448);
    QCOMPARE(b.garments_min, int64_t(8));
    QCOMPARE(b.garments_max, int64_t(12));
    ADALA_COMPARE_EXACT(b.teacher.img_per_s, 4.0);  // integers read as numbers
    QVERIFY(std::isnan(b.teacher.pixel_accuracy));  // null
    QVERIFY(std::isnan(b.student.miou));            // null
    QVERIFY(std::isnan(b.student.pixel_accuracy));  // absent
    ADALA_COMPARE_EXACT(b.student.peak_mb, 0.0);    // 0 MB is a value

    QVERIFY(r.paper_reference.has_value());
    const auto& p = *r.paper_reference;
    QCOMPARE(q(p.dataset), QString("Cityscapes"));
    QCOMPARE(p.image_size, 1024);
    ADALA_COMPARE_EXACT(values(p.teacher), (std::vector<double>{0.8098, -1, 7.07, 3283.6}));
    ADALA_COMPARE_EXACT(values(p.student), (std::vector<double>{0.7873, -1, 15.95, 1376.4}));
  }

  void older_files_still_load() {
    const SegmentationIndex r = parse_segmentation_index(older_index().dump(), kFile);
    QVERIFY(!r.story.has_value());
    QVERIFY(r.sweep.empty());
    QVERIFY(!r.paper_reference.has_value());
    ADALA_COMPARE_EXACT(r.teacher.miou, 0.75);  // the rest reads as before (the literal, read back)

    // null reads as absent; an empty sweep is no sweep.
    Json nulls = older_index();
    nulls["story"] = nullptr;
    nulls["sweep"] = nullptr;
    nulls["paper_reference"] = nullptr;
    QCOMPARE(q(problem(nulls)), QString(""));
    const SegmentationIndex n = parse_segmentation_index(nulls.dump(), kFile);
    QVERIFY(!n.story && n.sweep.empty() && !n.paper_reference);
    Json empty = older_index();
    empty["sweep"] = Json::array();
    QVERIFY(parse_segmentation_index(empty.dump(), kFile).sweep.empty());
  }

  void frozen_story_without_optional_parts() {
    Json index = older_index();
    index["story"] = parse_json_strict(R"({"image_size": 224, "backbone": "frozen",
                                            "head": "mask2former"})");
    const SegmentationIndex r = parse_segmentation_index(index.dump(), kFile);
    QVERIFY(r.story.has_value());
    QCOMPARE(r.story->image_size, 224);
    QVERIFY(!r.story->fine_tuned());
    QVERIFY(std::isnan(r.story->backbone_lr_scale));
    QVERIFY(std::isnan(r.story->layer_decay));
    QCOMPARE(q(r.story->head), QString("mask2former"));
    QCOMPARE(r.story->train_images, int64_t(-1));
    QCOMPARE(r.story->probe_epochs, int64_t(-1));
    QVERIFY(r.story->adaptation.empty());

    // A learning-rate factor of 0 is a valid setting (segmentation.backbone_lr_scale: 0..10).
    Json still = full_index();
    still["story"]["backbone_lr_scale"] = 0;
    ADALA_COMPARE_EXACT(parse_segmentation_index(still.dump(), kFile).story->backbone_lr_scale,
                        0.0);  // the 0 written above, read back
  }

  void errors_in_optional_parts_name_the_field() {
    QCOMPARE(q(problem(full_index())), QString(""));
    const FieldCase cases[] = {
        // story
        {"/story", "fine-tuned", "story must be an object."},
        {"/story/image_size", Json(), "story.image_size is missing."},
        {"/story/image_size", 0, "story.image_size must be an integer from 1 to 65536."},
        {"/story/image_size", 65537, "story.image_size must be an integer from 1 to 65536."},
        {"/story/image_size", 112.5, "story.image_size must be an integer from 1 to 65536."},
        {"/story/image_size", "112", "story.image_size must be an integer from 1 to 65536."},
        {"/story/backbone", Json(), "story.backbone is missing."},
        {"/story/backbone", true, "story.backbone must be a non-empty string."},
        {"/story/backbone", "partly",
         "story.backbone is \"partly\", expected \"frozen\" or \"fine-tuned\"."},
        {"/story/backbone_lr_scale", -1, "story.backbone_lr_scale is -1.0, below 0."},
        {"/story/backbone_lr_scale", "half", "story.backbone_lr_scale must be a number."},
        {"/story/layer_decay", 1.5, "story.layer_decay is 1.5, outside (0, 1]."},
        {"/story/layer_decay", 0, "story.layer_decay is 0.0, outside (0, 1]."},
        {"/story/head", Json(), "story.head is missing."},
        {"/story/head", 2, "story.head must be a non-empty string."},
        {"/story/train_images", -1, "story.train_images must be a non-negative integer."},
        {"/story/probe_epochs", -1, "story.probe_epochs must be an integer from 0 to 1000."},
        {"/story/probe_epochs", 1001, "story.probe_epochs must be an integer from 0 to 1000."},
        {"/story/probe_epochs", 2.5, "story.probe_epochs must be an integer from 0 to 1000."},
        {"/story/train_images", "600", "story.train_images must be a non-negative integer."},
        {"/story/adaptation", 12, "story.adaptation must be a string."},
        // sweep
        {"/sweep", Json::object(), "sweep must be an array."},
        {"/sweep/1", 3, "sweep[1] must be an object."},
        {"/sweep/1/image_size", Json(), "sweep[1].image_size is missing."},
        {"/sweep/1/image_size", 70000, "sweep[1].image_size must be an integer from 1 to 65536."},
        {"/sweep/0/val_images", -5, "sweep[0].val_images must be a non-negative integer."},
        {"/sweep/0/val_images", 2.5, "sweep[0].val_images must be a non-negative integer."},
        {"/sweep/0/garments", "2-3", "sweep[0].garments must be an array."},
        {"/sweep/0/garments", Json::array({2}),
         "sweep[0].garments must hold two integers, the fewest and the most per scene (it has "
         "1)."},
        {"/sweep/0/garments", Json::array({2, -1}),
         "sweep[0].garments[1] must be a non-negative integer."},
        {"/sweep/0/garments", Json::array({"2", 3}),
         "sweep[0].garments[0] must be a non-negative integer."},
        {"/sweep/1/garments", Json::array({12, 8}),
         "sweep[1].garments is [12,8]: the first (fewest) must not exceed the second (most)."},
        {"/sweep/0/student", Json(), "sweep[0].student is missing."},
        {"/sweep/0/teacher", Json::array(), "sweep[0].teacher must be an object."},
        {"/sweep/1/student/img_per_s", 0, "sweep[1].student.img_per_s is 0.0, must be above 0."},
        {"/sweep/1/student/img_per_s", "fast", "sweep[1].student.img_per_s must be a number."},
        {"/sweep/1/teacher/peak_mb", -1, "sweep[1].teacher.peak_mb is -1.0, below 0."},
        {"/sweep/1/teacher/peak_mb", "48 MB", "sweep[1].teacher.peak_mb must be a number."},
        {"/sweep/0/teacher/miou", 63, "sweep[0].teacher.miou is 63.0, outside 0..1."},
        {"/sweep/0/student/pixel_accuracy", true,
         "sweep[0].student.pixel_accuracy must be a number."},
        // paper_reference
        {"/paper_reference", Json::array(), "paper_reference must be an object."},
        {"/paper_reference/dataset", Json(), "paper_reference.dataset is missing."},
        {"/paper_reference/dataset", "", "paper_reference.dataset must be a non-empty string."},
        {"/paper_reference/image_size", 0,
         "paper_reference.image_size must be an integer from 1 to 65536."},
        {"/paper_reference/teacher", Json(), "paper_reference.teacher is missing."},
        {"/paper_reference/teacher/img_per_s", -7.07,
         "paper_reference.teacher.img_per_s is -7.07, must be above 0."},
        {"/paper_reference/student/miou", 78.73,
         "paper_reference.student.miou is 78.73, outside 0..1."},
        {"/paper_reference/student/peak_mb", "1.3 GB",
         "paper_reference.student.peak_mb must be a number."},
    };
    for (const auto& c : cases) QCOMPARE(q(problem(changed(full_index(), c))), QString(c.expected));
  }
};

ADALA_TEST_GUILESS_MAIN(TestResultsIndex)
}  // namespace test_results_index

#include "test_results_index.moc"
