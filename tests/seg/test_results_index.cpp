// The segmentation results index.json reader (engine/seg/results_index.h): values as written,
// and every error naming the file and the field.
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
    QCOMPARE(r.teacher.miou, 0.75);
    QCOMPARE(r.teacher.pixel_accuracy, 0.9);
    QCOMPARE(r.teacher.per_class_iou, (std::vector<double>{0.5, 1.0}));
    QVERIFY(std::isnan(r.student.pixel_accuracy));  // not recorded
    QCOMPARE(r.student.per_class_iou.size(), size_t(2));
    QVERIFY(std::isnan(r.student.per_class_iou[0]));  // class absent
    QCOMPARE(r.student.per_class_iou[1], 0.5);
    QCOMPARE(r.entries.size(), size_t(1));
    const auto& e = r.entries[0];
    QCOMPARE(QString::fromStdString(e.id), QString("7"));  // a numeric id reads as text
    QCOMPARE(QString::fromStdString(e.student), QString("student/7.png"));
    QCOMPARE(e.teacher_miou, 0.75);
    QVERIFY(std::isnan(e.student_miou));
    QCOMPARE(e.teacher_iou, (std::vector<double>{0.5, 1.0}));
    QVERIFY(e.student_iou.empty());
    QCOMPARE(e.disagreement, 0.125);

    Json no_head = valid_index();
    no_head.erase("head");
    QVERIFY(!parse_segmentation_index(no_head.dump(), kFile).head.has_value());
  }

  void errors_name_the_field() {
    QCOMPARE(QString::fromStdString(problem(valid_index())), QString(""));
    struct Case {
      const char* pointer;  // JSON pointer of the field changed
      Json value;           // null: remove it
      const char* expected;
    };
    const Case cases[] = {
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
    for (const auto& c : cases) {
      Json index = valid_index();
      const Json::json_pointer at(c.pointer);
      if (c.value.is_null())
        index[at.parent_pointer()].erase(at.back());
      else
        index[at] = c.value;
      QCOMPARE(QString::fromStdString(problem(index)), QString(c.expected));
    }
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
};

ADALA_TEST_GUILESS_MAIN(TestResultsIndex)
}  // namespace test_results_index

#include "test_results_index.moc"
