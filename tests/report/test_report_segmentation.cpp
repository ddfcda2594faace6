// The report's "Segmentation" section from `adala segment`'s summary.json (a run's
// "segmentation_summary" artifact): the story line, the heads' table, the resolution sweep with
// the paper's row, an older summary without a sweep, and a malformed, a missing and an
// unparsable file each shown as a note naming the file and the problem (never a crash).
#include <QtTest/QtTest>

#include <QImage>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "engine/report/report_document.h"
#include "engine/report/report_model.h"
#include "engine/report/report_writers.h"
#include "engine/report/segmentation_summary_reader.h"
#include "engine/report/sweep_columns.h"
#include "engine/store/run_store.h"
#include "tests/support/test_dirs.h"
#include "tests/support/report_column.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_report_segmentation {

using namespace adala;
using namespace adala::report;

namespace {

// The format the segmentation job writes (engine/seg/segmentation_job.cpp), with a sweep and
// the paper's row.
const char* kFullSummary = R"({
  "experiment": "fashion-mnist-seg", "dataset": "fashion-mnist-scenes", "image_size": 112,
  "train_images": 600, "val_images": 200, "train_backbone": true, "backbone_lr_scale": 0.5,
  "layer_decay": 0.75, "teacher_weights": "/w/t.safetensors", "student_weights": "/w/s.safetensors",
  "adaptation": "Stages 1+2 on the training scenes",
  "heads": {
    "linear": {"teacher": {"miou": 0.63, "pixel_accuracy": 0.91, "per_class_iou": [0.9, null, 0.5]},
               "student": {"miou": 0.62, "pixel_accuracy": 0.90, "per_class_iou": [0.8, null, 0.4]},
               "miou_gap": -0.01, "teacher_train_seconds": 120.5, "student_train_seconds": 60.1,
               "results": "linear/index.json"},
    "mask2former": {"teacher": {"miou": 0.70, "pixel_accuracy": 0.93},
                    "student": {"miou": 0.68, "pixel_accuracy": 0.92}, "miou_gap": -0.02,
                    "teacher_train_seconds": 300, "student_train_seconds": 200,
                    "results": "mask2former/index.json"}},
  "sweep": [
    {"image_size": 112, "val_images": 200, "garments": [2, 3],
     "heads": {"linear": {"teacher": {"miou": 0.63, "pixel_accuracy": 0.91, "img_per_s": 41.2, "peak_mb": 3.1},
                          "student": {"miou": 0.62, "pixel_accuracy": 0.90, "img_per_s": 80.5, "peak_mb": 1.2}},
               "mask2former": {"teacher": {"miou": 0.70, "pixel_accuracy": 0.93, "img_per_s": 20, "peak_mb": 10},
                               "student": {"miou": 0.68, "pixel_accuracy": 0.92, "img_per_s": 30, "peak_mb": 5}}}},
    {"image_size": 448, "val_images": 50, "garments": [32, 48],
     "heads": {"linear": {"teacher": {"miou": 0.55, "pixel_accuracy": 0.88, "img_per_s": 4, "peak_mb": 40},
                          "student": {"miou": 0.50, "pixel_accuracy": 0.86, "img_per_s": 12, "peak_mb": 10}},
               "mask2former": {"teacher": {"miou": 0.60, "pixel_accuracy": null, "img_per_s": null, "peak_mb": null},
                               "student": {"miou": 0.58, "pixel_accuracy": null, "img_per_s": null, "peak_mb": null}}}}],
  "paper_reference": {"dataset": "Cityscapes", "image_size": 1024,
                      "teacher": {"miou": 0.8098, "img_per_s": 7.07, "peak_mb": 3283.6},
                      "student": {"miou": 0.7873, "img_per_s": 15.95, "peak_mb": 1376.4}}
})";

// What the job wrote before the sweep: no "sweep", "paper_reference" or "layer_decay".
const char* kOldSummary = R"({
  "experiment": "fm-seg-old", "dataset": "fashion-mnist-scenes", "image_size": 64,
  "train_images": 100, "val_images": 50, "train_backbone": false,
  "teacher_weights": "/w/t.safetensors", "student_weights": "/w/s.safetensors",
  "heads": {"linear": {"teacher": {"miou": 0.4, "pixel_accuracy": 0.8},
                       "student": {"miou": 0.425, "pixel_accuracy": 0.81},
                       "miou_gap": 0.025, "teacher_train_seconds": 5, "student_train_seconds": 4,
                       "results": "linear/index.json"}}
})";

const char* kMalformedSummary = R"({
  "image_size": 112,
  "heads": {"linear": {"teacher": {"miou": 0.63}, "student": {"miou": 1.5}}}
})";

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<const ReportBlock*> blocks(const ReportSection& s, ReportBlock::Kind kind) {
  std::vector<const ReportBlock*> out;
  for (const auto& b : s.blocks)
    if (b.kind == kind) out.push_back(&b);
  return out;
}

bool has_block(const ReportSection& s, ReportBlock::Kind kind, const std::string& text) {
  for (const auto* b : blocks(s, kind))
    if (b->text == text) return true;
  return false;
}

using adala_test::column;

// The problem parse_segmentation_summary reports ("" when it reads the text).
std::string problem_of(const std::string& text) {
  try {
    parse_segmentation_summary(text);
  } catch (const SegmentationSummaryError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestReportSegmentation : public QObject {
  Q_OBJECT
  std::string dir_, db_, full_path_, malformed_path_, broken_path_, missing_path_;
  int64_t full_ = 0, old_ = 0, malformed_ = 0, missing_ = 0, broken_ = 0, plain_ = 0;

  ReportDocument document(const std::vector<int64_t>& runs) {
    store::RunStore store(db_, store::OpenMode::ReadOnly);
    return build_report_document(load_report_model(store, runs));
  }

 private slots:
  void initTestCase() {
    dir_ = adala_test::fresh_test_dir("report", "segmentation");
    db_ = dir_ + "/runs.sqlite";
    full_path_ = dir_ + "/full/summary.json";
    const std::string old_path = dir_ + "/old/summary.json";
    malformed_path_ = dir_ + "/malformed/summary.json";
    broken_path_ = dir_ + "/broken/summary.json";
    missing_path_ = dir_ + "/gone/summary.json";
    for (const char* sub : {"full", "old", "malformed", "broken"})
      std::filesystem::create_directories(dir_ + "/" + sub);
    write_text(full_path_, kFullSummary);
    write_text(old_path, kOldSummary);
    write_text(malformed_path_, kMalformedSummary);
    write_text(broken_path_, R"({"heads": {"linear": )");
    const std::string figure = dir_ + "/full/scene_0.png";
    QImage image(64, 48, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QVERIFY(image.save(QString::fromStdString(figure)));

    store::RunStore store(db_);
    auto run = [&](const std::string& name, const std::string& summary) {
      const int64_t id = store.create_run(name, "{}", "cpu", "1.13", "0.1");
      store.add_artifact(id, "segmentation_summary", summary);
      store.set_run_status(id, store::RunStatus::Done);
      return id;
    };
    full_ = run("fm-seg", full_path_);
    store.add_artifact(full_, "segmentation_figure", figure);
    old_ = run("fm-seg-old", old_path);
    malformed_ = run("fm-seg-bad", malformed_path_);
    // Recorded, then deleted (the store refuses an artifact that is not there).
    std::filesystem::create_directories(dir_ + "/gone");
    write_text(missing_path_, kOldSummary);
    missing_ = run("fm-seg-gone", missing_path_);
    std::filesystem::remove(missing_path_);
    broken_ = run("fm-seg-broken", broken_path_);
    plain_ = store.create_run("plain", "{}", "cpu", "1.13", "0.1");
  }

  void story_line_says_resolution_backbone_heads_and_scenes() {
    const ReportDocument doc = document({full_});
    const ReportSection* s = doc.section("segmentation");
    QVERIFY(s);
    QCOMPARE(s->title, std::string("Segmentation"));
    QVERIFY(has_block(*s, ReportBlock::Kind::Paragraph,
                      "fashion-mnist-scenes at 112²: backbone fine-tuned (lr × 0.5 of the head's, "
                      "layer decay 0.75); heads: linear, Mask2Former; 600 training scenes, 200 "
                      "validation scenes; student: Stages 1+2 on the training scenes."));
    QVERIFY(doc.warnings.empty());
  }

  void head_table_has_the_scores_and_gaps() {
    const ReportDocument doc = document({full_});
    const ReportSection* s = doc.section("segmentation");
    QVERIFY(s);
    const auto tables = blocks(*s, ReportBlock::Kind::Table);
    QCOMPARE(tables.size(), size_t(2));  // heads, sweep
    const ReportTable& t = tables[0]->table;
    QCOMPARE(column(t, "Head"), (std::vector<std::string>{"linear", "Mask2Former"}));
    QCOMPARE(column(t, "Teacher mIoU (%)"), (std::vector<std::string>{"63.00", "70.00"}));
    QCOMPARE(column(t, "Student mIoU (%)"), (std::vector<std::string>{"62.00", "68.00"}));
    QCOMPARE(column(t, "Gap (pt)"), (std::vector<std::string>{"−1.00", "−2.00"}));
    QCOMPARE(column(t, "Teacher pixel accuracy (%)"), (std::vector<std::string>{"91.00", "93.00"}));
    QCOMPARE(column(t, "Student pixel accuracy (%)"), (std::vector<std::string>{"90.00", "92.00"}));
    QCOMPARE(column(t, "Teacher training"), (std::vector<std::string>{"2 min 01 s", "5 min 00 s"}));
  }

  void sweep_table_has_each_resolution_and_head_then_the_paper() {
    const ReportDocument doc = document({full_});
    const ReportSection* s = doc.section("segmentation");
    QVERIFY(s);
    QVERIFY(has_block(*s, ReportBlock::Kind::Subheading, "Resolution sweep"));
    const ReportTable& t = blocks(*s, ReportBlock::Kind::Table).at(1)->table;
    QCOMPARE(t.header,
             (std::vector<std::string>{"Resolution", "Head", "Teacher mIoU (%)", "Student mIoU (%)",
                                       "Gap (pt)", "Teacher img/s", "Student img/s", "× img/s",
                                       "Teacher peak MB", "Student peak MB", "× memory"}));
    QCOMPARE(t.rows.size(), size_t(5));
    QCOMPARE(t.rows[0],
             (std::vector<std::string>{"112²", "linear", "63.00", "62.00", "−1.00", "41.20",
                                       "80.50", "1.95×", "3.100", "1.200", "0.39×"}));
    QCOMPARE(t.rows[1].at(7), std::string("1.50×"));  // Mask2Former 30 / 20 img/s
    QCOMPARE(t.rows[2],
             (std::vector<std::string>{"448²", "linear", "55.00", "50.00", "−5.00", "4.000",
                                       "12.00", "3.00×", "40.00", "10.00", "0.25×"}));
    // Costs not measured (null): empty cells, no ratio.
    QCOMPARE(t.rows[3], (std::vector<std::string>{"448²", "Mask2Former", "60.00", "58.00", "−2.00",
                                                  "", "", "", "", "", ""}));
    QCOMPARE(t.rows[4],
             (std::vector<std::string>{"paper: Cityscapes 1024²", "", "80.98", "78.73", "−2.25",
                                       "7.070", "15.95", "2.26×", "3,284", "1,376", "0.42×"}));
    QVERIFY(has_block(*s, ReportBlock::Kind::Paragraph,
                      "Validation scenes per resolution: 112²: 200 scenes (2–3 garments each); "
                      "448²: 50 scenes (32–48 garments each)."));
    // The figures the GUI saved are kept, after the results.
    QVERIFY(has_block(*s, ReportBlock::Kind::Subheading, "Figures"));
    const auto figures = blocks(*s, ReportBlock::Kind::Figure);
    QCOMPARE(figures.size(), size_t(1));
    QCOMPARE(doc.figures.at(size_t(figures[0]->figure)).caption, std::string("scene 0"));
    QVERIFY(s->blocks.back().kind == ReportBlock::Kind::Figure);
  }

  // engine/report/sweep_columns.h: the values behind the sweep's cells (the report, summary.md
  // and the viewer format them).
  void sweep_columns_compute_gaps_and_guarded_ratios() {
    const auto& columns = adala::sweep_columns();
    const adala::SweepPairValues v{0.63, 0.62, 40.0, 80.0, 3.0, 1.5};
    std::vector<double> got;
    for (const auto& c : columns) got.push_back(c.value(v));
    const std::vector<double> want{0.63, 0.62, 0.62 - 0.63, 40.0, 80.0, 2.0, 3.0, 1.5, 0.5};
    QCOMPARE(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      QVERIFY2(std::abs(got[i] - want[i]) < 1e-12, columns[i].header);
    // A ratio needs both parts finite and a positive teacher: otherwise no value, not inf.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const adala::SweepPairValues& bad :
         {adala::SweepPairValues{0.6, 0.6, 0.0, 80.0, 0.0, 1.5},
          adala::SweepPairValues{0.6, 0.6, nan, 80.0, 3.0, nan}}) {
      QVERIFY(std::isnan(columns[5].value(bad)));
      QVERIFY(std::isnan(columns[8].value(bad)));
    }
    QCOMPARE(columns[5].format, adala::SweepCellFormat::Ratio);
    QCOMPARE(columns[2].format, adala::SweepCellFormat::SignedPoints);
  }

  void written_markdown_and_html_hold_the_tables() {
    const ReportDocument doc = document({full_});
    const std::string md_path = dir_ + "/full.md";
    const WriteResult written = write_markdown(doc, md_path);
    QVERIFY2(written.ok, written.error.c_str());
    const std::string md = read_text(md_path);
    QVERIFY(has(md, "## Segmentation"));
    QVERIFY(has(md, "| linear | 63.00 | 62.00 | −1.00 | 91.00 | 90.00 |"));
    QVERIFY(has(md,
                "| 112² | linear | 63.00 | 62.00 | −1.00 | 41.20 | 80.50 | 1.95× | 3.100 | "
                "1.200 | 0.39× |"));
    QVERIFY(has(md, "| paper: Cityscapes 1024² |  | 80.98 | 78.73 | −2.25 |"));
    const std::string html = render_html(doc);
    QVERIFY(has(html, "paper: Cityscapes 1024²"));
    QVERIFY(has(html, "80.98"));
    QVERIFY(has(html, "1.95×"));
    QVERIFY(has(html, "segmentation summary"));  // the Files table names the artifact's kind
  }

  void old_summary_has_the_head_table_without_a_sweep() {
    const ReportDocument doc = document({old_});
    const ReportSection* s = doc.section("segmentation");
    QVERIFY(s);
    QVERIFY(has_block(*s, ReportBlock::Kind::Paragraph,
                      "fashion-mnist-scenes at 64²: backbone frozen; heads: linear; 100 training "
                      "scenes, 50 validation scenes."));
    const auto tables = blocks(*s, ReportBlock::Kind::Table);
    QCOMPARE(tables.size(), size_t(1));
    const ReportTable& t = tables[0]->table;
    QCOMPARE(t.rows.size(), size_t(1));
    QCOMPARE(column(t, "Gap (pt)"), (std::vector<std::string>{"+2.50"}));
    QCOMPARE(column(t, "Student mIoU (%)"), (std::vector<std::string>{"42.50"}));
    QVERIFY(!has_block(*s, ReportBlock::Kind::Subheading, "Resolution sweep"));
    QVERIFY(!has_block(*s, ReportBlock::Kind::Subheading, "Figures"));
    QVERIFY(!has(render_html(doc), "× img/s"));
    QVERIFY(doc.warnings.empty());
  }

  void malformed_file_is_a_note_naming_the_field() {
    const ReportDocument doc = document({malformed_});
    const ReportSection* s = doc.section("segmentation");
    QVERIFY(s);
    const std::string note = "Segmentation summary could not be read: " + malformed_path_ +
                             " (heads.linear.student.miou: 1.5 is not a fraction in [0, 1])";
    QVERIFY(has_block(*s, ReportBlock::Kind::Notice, note));
    QVERIFY(blocks(*s, ReportBlock::Kind::Table).empty());
    QCOMPARE(doc.warnings.size(), size_t(1));
    QVERIFY(has(doc.warnings[0], malformed_path_));
    QVERIFY(has(doc.warnings[0], "heads.linear.student.miou"));
    QVERIFY(has(render_html(doc), "heads.linear.student.miou: 1.5 is not a fraction"));
  }

  void missing_and_unparsable_files_are_notes() {
    const ReportDocument gone = document({missing_});
    const ReportSection* s = gone.section("segmentation");
    QVERIFY(s);
    QVERIFY(has_block(*s, ReportBlock::Kind::Notice,
                      "Segmentation summary is missing: " + missing_path_));
    QCOMPARE(gone.warnings.size(), size_t(1));

    const ReportDocument broken = document({broken_});
    s = broken.section("segmentation");
    QVERIFY(s);
    const auto notes = blocks(*s, ReportBlock::Kind::Notice);
    QCOMPARE(notes.size(), size_t(1));
    QVERIFY(has(notes[0]->text, broken_path_));
    QVERIFY2(has(notes[0]->text, "JSON parse error at byte"), notes[0]->text.c_str());
  }

  void comparison_gives_each_run_its_results() {
    const ReportDocument doc = document({full_, old_, malformed_});
    const ReportSection* s = doc.section("segmentation");
    QVERIFY(s);
    QCOMPARE(blocks(*s, ReportBlock::Kind::Table).size(), size_t(3));
    QVERIFY(
        has_block(*s, ReportBlock::Kind::Subheading, "#" + std::to_string(old_) + " fm-seg-old"));
    QCOMPARE(blocks(*s, ReportBlock::Kind::Notice).size(), size_t(1));
    for (size_t b = 0; b < s->blocks.size(); ++b)
      if (s->blocks[b].kind == ReportBlock::Kind::Subheading) QVERIFY(b + 1 < s->blocks.size());
  }

  void run_without_summary_has_no_section() {
    QVERIFY(document({plain_}).section("segmentation") == nullptr);
  }

  void reader_range_checks_name_the_field() {
    QCOMPARE(problem_of(kFullSummary), std::string());
    QCOMPARE(problem_of(R"({"image_size": 112})"), std::string("heads: missing"));
    QCOMPARE(problem_of(R"({"heads": {}})"), std::string("heads: no head"));
    QCOMPARE(problem_of(R"([1])"), std::string("the document must be a JSON object, got array"));
    QCOMPARE(problem_of(R"({"image_size": 0, "heads": {"linear": {}}})"),
             std::string("image_size: 0 is outside 1..65536"));
    QCOMPARE(problem_of(R"({"image_size": 70000, "heads": {"linear": {}}})"),
             std::string("image_size: 70000 is outside 1..65536"));
    QCOMPARE(problem_of(R"({"image_size": "112", "heads": {"linear": {}}})"),
             std::string("image_size: a number expected, got string"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {"teacher": {"pixel_accuracy": -0.1}}}})"),
             std::string("heads.linear.teacher.pixel_accuracy: -0.1 is not a fraction in [0, 1]"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {"student": {"per_class_iou": [0.5, null, 2]}}}})"),
             std::string("heads.linear.student.per_class_iou[2]: 2 is not a fraction in [0, 1]"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {}}, "sweep": [{"image_size": 64,
               "heads": {"linear": {"teacher": {"img_per_s": 0}}}}]})"),
             std::string("sweep[0].heads.linear.teacher.img_per_s: 0 is not above 0"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {}}, "sweep": [{"image_size": 64,
               "heads": {"linear": {"student": {"peak_mb": -1}}}}]})"),
             std::string("sweep[0].heads.linear.student.peak_mb: -1 is below 0"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {}}, "sweep": [{"heads": {}}]})"),
             std::string("sweep[0].image_size: missing"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {}}, "paper_reference": {"image_size": 1024.5}})"),
             std::string("paper_reference.image_size: 1024.5 is not a whole number"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {}}, "train_backbone": 1})"),
             std::string("train_backbone: true or false expected, got integer"));
    QCOMPARE(problem_of(R"({"heads": {"linear": {}}, "layer_decay": 1.5})"),
             std::string("layer_decay: 1.5 is above 1"));
    QVERIFY(has(problem_of(R"({"heads": {"linear": {}}, "heads": {}})"), "duplicate key"));
    // Every field but "heads" may be absent; the gap falls back to student - teacher.
    const SegmentationSummary s = parse_segmentation_summary(
        R"({"heads": {"linear": {"teacher": {"miou": 0.5}, "student": {"miou": 0.45}}}})");
    QCOMPARE(s.heads.size(), size_t(1));
    QVERIFY(std::abs(s.heads[0].gap() + 0.05) < 1e-12);
    QVERIFY(!s.train_backbone.has_value());
    QVERIFY(s.sweep.empty());
    QVERIFY(!s.paper.has_value());
    std::string problem;
    read_segmentation_summary(dir_ + "/nowhere.json", &problem);
    QVERIFY(!problem.empty());
  }
};

ADALA_TEST_MAIN(TestReportSegmentation)
}  // namespace test_report_segmentation

#include "test_report_segmentation.moc"
