// Dense Stage 3 end to end on a tiny budget: both heads on a teacher and a student, and the
// results folder the viewer reads (index.json fields, PNGs, per-image metrics).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "engine/seg/classes_per_image.h"
#include "engine/seg/segmentation_metrics.h"
#include "engine/model/load_weights.h"
#include "engine/data/opencv/png_io.h"
#include "engine/data/segmentation_classes.h"
#include "engine/io/text_file.h"
#include "engine/seg/segmentation_job.h"
#include "engine/train/stage_catalog.h"
#include "engine/store/run_store.h"
#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_segment_job {

using namespace adala;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(ADALA_TEST_TMP) / "segment_job";

Json read_json(const fs::path& p) { return parse_json_strict(read_text(p.string())); }

const char* const kTinyConfig = R"({
    "name": "seg-test", "seed": 3, "device": "cpu", "model": {"preset": "fmnist_micro"},
    "segmentation": {
      "data": {"image_size": 32, "train_images": 8, "val_images": 5},
      "head": "both", "results_images": 3, "eval_batch_size": 4,
      "linear": {"epochs": 2, "batch_size": 4, "lr": 0.01},
      "mask2former": {"num_queries": 8, "hidden_dim": 16, "num_heads": 2, "num_layers": 2, "ffn_dim": 32,
                      "num_points": 128, "epochs": 1, "batch_size": 4}
    }})";

ExperimentConfig tiny_config() { return parse_experiment_config(parse_json_strict(kTinyConfig)); }

// index.json's head, split, ignore index and classes.
void check_index_classes(const Json& index, const std::string& head) {
  QCOMPARE(QString::fromStdString(index.at("head").get<std::string>()),
           QString::fromStdString(head));
  QCOMPARE(QString::fromStdString(index.at("split").get<std::string>()), QString("validation"));
  QCOMPARE(index.at("ignore_index").get<int64_t>(), int64_t(255));
  const auto& classes = index.at("classes");
  QVERIFY(classes.is_array());
  QCOMPARE(int64_t(classes.size()), kSceneClassCount);
  QCOMPARE(QString::fromStdString(classes[0].at("name").get<std::string>()), QString("background"));
  QCOMPARE(QString::fromStdString(classes[0].at("color").get<std::string>()), QString("#202020"));
  QCOMPARE(QString::fromStdString(classes[1].at("name").get<std::string>()),
           QString("T-shirt/top"));
}

// summary.json's groups of one model by garments per scene: every validation image in one
// group, each group's mIoU the evaluation's.
void check_classes_per_image_groups(const Json& groups, const std::string& who,
                                    const SegmentationEvaluation& eval,
                                    const SegmentationDataset& val) {
  const auto& eval_groups = eval.by_classes_per_image;
  QCOMPARE(groups.size(), eval_groups.size());
  int64_t grouped = 0;
  ClassesPerImageBreakdown expected(kSceneClassCount, kSceneBackground);
  std::map<int64_t, int64_t> images_with;
  for (int64_t i = 0; i < val.size(); ++i)
    ++images_with[std::min(expected.classes_in(val.masks[i]), ClassesPerImageBreakdown::kCap)];
  for (size_t g = 0; g < groups.size(); ++g) {
    const int64_t k = groups[g].at("classes").get<int64_t>();
    QCOMPARE(groups[g].at("images").get<int64_t>(), images_with[k]);
    grouped += groups[g].at("images").get<int64_t>();
    QVERIFY(std::fabs(groups[g].at(who + "_miou").get<double>() -
                      eval_groups[g].confusion.mean_iou()) < 1e-6);
  }
  QCOMPARE(grouped, val.size());
}

// One model's numbers of one head: index.json's summary (`s`) against its confusion matrix,
// and the head's part of summary.json: the errors split against the scenes' background
// (class 0), the groups by garments per scene.
void check_model_summary(const Json& s, const Json& head_summary, const std::string& who,
                         const SegmentationEvaluation& eval, const SegmentationDataset& val) {
  const auto& conf = eval.confusion;
  QVERIFY(std::fabs(s.at("miou").get<double>() - conf.mean_iou()) < 1e-6);
  QVERIFY(std::fabs(s.at("pixel_accuracy").get<double>() - conf.pixel_accuracy()) < 1e-6);
  const Json& fg = head_summary.at("foreground");
  QCOMPARE(fg.at("background_class").get<int64_t>(), kSceneBackground);
  const ForegroundSplit split = foreground_split(conf, kSceneBackground);
  QVERIFY(std::fabs(fg.at(who).at("foreground_iou").get<double>() - split.foreground_iou) < 1e-6);
  QVERIFY(std::fabs(fg.at(who).at("class_accuracy").get<double>() - split.class_accuracy) < 1e-6);
  QCOMPARE(int64_t(s.at("per_class_iou").size()), kSceneClassCount);
  check_classes_per_image_groups(head_summary.at("by_classes_per_image"), who, eval, val);
  if (QTest::currentTestFailed()) return;
  QVERIFY(s.at("per_class_iou").is_array());
  for (const auto& v : s.at("per_class_iou")) QVERIFY(v.is_null() || v.is_number());
}

// Image i of a head's results folder: its PNGs against the split and the teacher's
// predictions, its per-image numbers recomputed from the PNGs.
void check_result_image(const Json& e, size_t i, const fs::path& dir,
                        const SegmentationHeadResult& h, const SegmentationDataset& val) {
  char id[32];
  std::snprintf(id, sizeof id, "%06zu", i);
  QCOMPARE(QString::fromStdString(e.at("id").get<std::string>()), QString(id));
  QCOMPARE(QString::fromStdString(e.at("image").get<std::string>()),
           QString("images/%1.png").arg(id));
  auto truth = read_label_png((dir / e.at("truth").get<std::string>()).string());
  auto teacher = read_label_png((dir / e.at("teacher").get<std::string>()).string());
  auto student = read_label_png((dir / e.at("student").get<std::string>()).string());
  QVERIFY(torch::equal(truth, val.masks[int64_t(i)]));
  QVERIFY(teacher.max().item<int64_t>() < kSceneClassCount);
  QVERIFY(torch::equal(teacher, h.teacher.predictions[int64_t(i)]));
  auto rgb = read_rgb_image((dir / e.at("image").get<std::string>()).string());
  QCOMPARE(rgb.sizes(), (torch::IntArrayRef{3, 32, 32}));
  ConfusionMatrix ct(kSceneClassCount);
  ct.add(teacher, truth);
  if (e.at("teacher_miou").is_null())
    QVERIFY(std::isnan(ct.mean_iou()));
  else
    QVERIFY(std::fabs(e.at("teacher_miou").get<double>() - ct.mean_iou()) < 1e-6);
  const auto iou = ct.per_class_iou();
  const auto& listed = e.at("teacher_iou");
  QVERIFY(listed.is_array());
  QCOMPARE(listed.size(), iou.size());
  for (size_t c = 0; c < iou.size(); ++c) {
    QCOMPARE(listed[c].is_null(), !iou[c].has_value());
    if (iou[c]) QVERIFY(std::fabs(listed[c].get<double>() - *iou[c]) < 1e-6);
  }
  QCOMPARE(int64_t(e.at("student_iou").size()), kSceneClassCount);
  const double dis = teacher.ne(student).to(torch::kFloat).mean().item<double>();
  QVERIFY(std::fabs(e.at("disagreement").get<double>() - dis) < 1e-6);
}

}  // namespace

class SegmentJobTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    torch::manual_seed(0);
    fs::remove_all(kDir);
    fs::create_directories(kDir);
    VisionTransformer teacher(vit_preset("fmnist_micro"));
    save_weights(teacher, (kDir / "teacher.safetensors").string());
    teacher->set_attention_mode(AttentionMode::Linear);
    save_weights(teacher, (kDir / "student.safetensors").string());
  }

  // `adala segment --db`: the job is a run in the database, its mIoU those of summary.json.
  void the_command_records_the_job_in_the_run_database() {
    const fs::path dir = kDir / "command";
    fs::create_directories(dir);
    std::ofstream(dir / "seg.json") << kTinyConfig;
    const std::string db = (dir / "runs.sqlite").string();
    const auto result = adala_test::run_adala(
        {"--threads", "1", "segment", QString::fromStdString((dir / "seg.json").string()),
         "--teacher", QString::fromStdString((kDir / "teacher.safetensors").string()), "--student",
         QString::fromStdString((kDir / "student.safetensors").string()), "--head", "linear",
         "--out", QString::fromStdString((dir / "out").string()), "--db",
         QString::fromStdString(db)});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    store::RunStore store(db, store::OpenMode::ReadOnly);
    const auto runs = store.list_runs();
    QCOMPARE(int(runs.size()), 1);
    QCOMPARE(runs[0].status, std::string("done"));
    QCOMPARE(runs[0].name, std::string("seg-test-segment"));
    QCOMPARE(runs[0].tags, std::vector<std::string>{"segmentation"});
    const Json summary = read_json(dir / "out" / "summary.json");
    const auto evaluations = store.evaluations(runs[0].id);
    for (const char* who : {"teacher", "student"}) {
      const std::string key = std::string("seg_linear_") + who + "/miou";
      QVERIFY2(evaluations.count(key), key.c_str());
      // summary.json keeps six decimals.
      const double written = summary.at("heads").at("linear").at(who).at("miou").get<double>();
      QVERIFY2(std::abs(evaluations.at(key) - written) <= 5e-7,
               qPrintable(QString("%1 against %2").arg(evaluations.at(key)).arg(written)));
    }
  }

  void writes_the_results_folder() {
    ExperimentConfig config = tiny_config();
    SegmentationJobOptions o;
    o.teacher_weights = (kDir / "teacher.safetensors").string();
    o.student_weights = (kDir / "student.safetensors").string();
    o.out_dir = (kDir / "out").string();
    RecordingSink sink;
    JobControl control;
    SegmentationJobResult r = run_segmentation_job(config, o, sink, control);
    QCOMPARE(r.heads.size(), size_t(2));
    QVERIFY(!sink.steps("seg_linear_teacher").empty());
    QVERIFY(!sink.steps("seg_mask2former_student").empty());
    QVERIFY(fs::exists(kDir / "out" / "summary.json"));
    QVERIFY(fs::exists(kDir / "out" / "summary.md"));
    Json summary = read_json(kDir / "out" / "summary.json");
    QVERIFY(summary.at("heads").at("linear").at("teacher").at("miou").is_number());

    auto val = load_segmentation_split(config, "validation");
    QCOMPARE(val.size(), int64_t(5));
    for (const auto& h : r.heads) {
      const std::string head = to_string(h.head);
      const fs::path dir = kDir / "out" / head;
      Json index = read_json(dir / "index.json");
      check_index_classes(index, head);
      if (QTest::currentTestFailed()) return;
      for (const char* who : {"teacher", "student"}) {
        const SegmentationEvaluation& eval = std::string(who) == "teacher" ? h.teacher : h.student;
        check_model_summary(index.at("summary").at(who), summary.at("heads").at(head), who, eval,
                            val);
        if (QTest::currentTestFailed()) return;
      }
      const auto& images = index.at("images");
      QVERIFY(images.is_array());
      QCOMPARE(images.size(), size_t(3));
      for (size_t i = 0; i < images.size(); ++i) {
        check_result_image(images[i], i, dir, h, val);
        if (QTest::currentTestFailed()) return;
      }
    }
  }

  // No student: Stages 1-2 adapt the teacher on the training images; --res-sweep adds a
  // resolution whose mIoU is that of the trained heads on same-pixel-scale scenes, with costs.
  void adapts_a_student_and_sweeps_resolutions() {
    ExperimentConfig config = parse_experiment_config(parse_json_strict(R"({
        "name": "seg-sweep", "seed": 3, "device": "cpu", "model": {"preset": "fmnist_micro"},
        "stages": {"attention_alignment": {"epochs": 1, "batch_size": 4},
                   "feature_alignment": {"epochs": 1, "batch_size": 4}},
        "segmentation": {
          "data": {"image_size": 32, "train_images": 8, "val_images": 4},
          "head": "linear", "results_images": 2, "eval_batch_size": 4,
          "train_backbone": true, "layer_decay": 0.5, "sweep_val_images": 2,
          "adaptation_images": 12,
          "linear": {"epochs": 1, "batch_size": 4, "lr": 0.01}}})"));
    SegmentationJobOptions o;
    o.teacher_weights = (kDir / "teacher.safetensors").string();
    o.out_dir = (kDir / "sweep").string();
    o.sweep_resolutions = {64};
    o.cost_rounds = 1;
    o.cost_repeats = 1;
    RecordingSink sink;
    JobControl control;
    SegmentationJobResult r = run_segmentation_job(config, o, sink, control);
    // The adaptation ran both stages, on 12 scenes (3 batches of 4 an epoch, where the 8
    // training scenes would give 2), and saved a linear student.
    QCOMPARE(sink.steps(stage_name(1)).size(), size_t(3));
    QCOMPARE(sink.steps(stage_name(2)).size(), size_t(3));
    QCOMPARE(QString::fromStdString(r.adaptation),
             QString("Stages 1+2 on 12 scenes of the training stream (its first 8 the training "
                     "scenes)"));
    QCOMPARE(
        QString::fromStdString(r.student_weights),
        QString::fromStdString((kDir / "sweep" / "adaptation" / "student.safetensors").string()));
    VisionTransformer student = load_model(r.student_weights, torch::kCPU);
    for (auto m : student->attention_modes()) QVERIFY(m == AttentionMode::Linear);

    QCOMPARE(r.sweep.size(), size_t(2));
    QCOMPARE(r.sweep[0].image_size, int64_t(32));
    QCOMPARE(r.sweep[1].image_size, int64_t(64));
    QCOMPARE(r.sweep[1].val_images, int64_t(2));
    // 2-4 garments at 32 px keep their pixel size at 64 px: 4x the area, 8-16 garments.
    QCOMPARE(r.sweep[1].min_garments, int64_t(8));
    QCOMPARE(r.sweep[1].max_garments, int64_t(16));
    const auto& first = r.sweep[0].heads.at(0);
    // The training resolution's row takes mean_iou() of the heads' own confusion matrices: the
    // same function on the same counts.
    ADALA_COMPARE_EXACT(first.teacher.miou, r.heads[0].teacher.confusion.mean_iou());
    ADALA_COMPARE_EXACT(first.student.miou, r.heads[0].student.confusion.mean_iou());
    for (const auto& row : r.sweep)
      for (const auto& h : row.heads)
        for (const auto* p : {&h.teacher, &h.student}) {
          QVERIFY(p->cost.ms_per_call > 0);
          QVERIFY(p->cost.peak_bytes > 0);
        }
    // Softmax keeps heads x N^2 scores (256 tokens at 64 px); the student does not.
    QVERIFY(r.sweep[1].heads[0].student.cost.peak_bytes <
            r.sweep[1].heads[0].teacher.cost.peak_bytes);

    // summary.json and index.json carry the table; summary.md shows it beside the paper's row.
    const Json summary = read_json(kDir / "sweep" / "summary.json");
    QCOMPARE(summary.at("sweep").size(), size_t(2));
    const Json& at64 = summary.at("sweep")[1];
    QCOMPARE(at64.at("image_size").get<int64_t>(), int64_t(64));
    QVERIFY(std::abs(at64.at("heads").at("linear").at("student").at("miou").get<double>() -
                     r.sweep[1].heads[0].student.miou) < 1e-6);
    QCOMPARE(summary.at("paper_reference").at("image_size").get<int64_t>(), int64_t(1024));
    ADALA_COMPARE_EXACT(summary.at("layer_decay").get<double>(), 0.5);  // the config's, written
    const Json index = read_json(kDir / "sweep" / "linear" / "index.json");
    QCOMPARE(QString::fromStdString(index.at("story").at("backbone").get<std::string>()),
             QString("fine-tuned"));
    QCOMPARE(index.at("story").at("image_size").get<int64_t>(), int64_t(32));
    QCOMPARE(index.at("sweep").size(), size_t(2));
    QVERIFY(index.at("sweep")[1].at("teacher").at("img_per_s").get<double>() > 0);
    const std::string md = read_text((kDir / "sweep" / "summary.md").string());
    QVERIFY(md.find("| 64x64 | linear | 2 (8-16) |") != std::string::npos);
    QVERIFY(md.find("| paper: Cityscapes 1024x1024 (ViT-L, H100) | - | - | 80.98 | 78.73 | "
                    "-2.25 | 7.07 | 15.95 | 2.26× |") != std::string::npos);
    QVERIFY(md.find("backbone fine-tuned (lr x 0.1, layer decay 0.5)") != std::string::npos);
  }

  // Ctrl-C during `adala segment --pretrain-teacher` (here SIGTERM, which it takes alike): the
  // training checkpoints, the command names the checkpoint and exits 130, and writes no teacher.
  void an_interrupted_scene_pretraining_keeps_its_checkpoint() {
    const fs::path dir = kDir / "interrupted";
    fs::create_directories(dir);
    Json config = parse_json_strict(R"({"name": "pt", "seed": 5, "device": "cpu",
        "model": {"preset": "fmnist_micro", "patch_size": 8, "img_size": 32},
        "segmentation": {
          "data": {"dataset": "fashion-mnist-scenes", "image_size": 32,
                   "train_images": 4, "val_images": 4},
          "pretrain": {"images": 64, "epochs": 10000, "batch_size": 4, "log_every": 1}}})");
    config["segmentation"]["pretrain"]["init"] = (kDir / "teacher.safetensors").string();
    std::ofstream(dir / "seg.json") << config.dump();
    const fs::path out = dir / "scene-teacher.safetensors";
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);  // waitForReadyRead watches one channel
    p.start(adala_test::adala_binary(),
            {"--threads", "1", "segment", QString::fromStdString((dir / "seg.json").string()),
             "--pretrain-teacher", QString::fromStdString(out.string()), "--db", "none"});
    QVERIFY(p.waitForStarted());
    // 160,000 steps: it is still training when the signal comes.
    QString output;
    while (!output.contains("== scene_pretraining:") && p.waitForReadyRead(300000))
      output += QString::fromUtf8(p.readAll());
    QVERIFY2(output.contains("== scene_pretraining:"), qPrintable(output));
    p.terminate();
    QVERIFY(p.waitForFinished(300000));
    output += QString::fromUtf8(p.readAll());
    QCOMPARE(p.exitCode(), 130);
    const std::string checkpoint = out.string() + ".checkpoint";
    QVERIFY2(output.contains(QString::fromStdString("interrupted: " + checkpoint)),
             qPrintable(output));
    QVERIFY(fs::exists(checkpoint));
    QVERIFY(!fs::exists(out));
  }

  void missing_weights_are_reported() {
    ExperimentConfig config = tiny_config();
    SegmentationJobOptions o;
    o.teacher_weights = (kDir / "nope.safetensors").string();
    o.student_weights = (kDir / "student.safetensors").string();
    o.out_dir = (kDir / "out2").string();
    NullSink sink;
    JobControl control;
    try {
      run_segmentation_job(config, o, sink, control);
      QFAIL("expected an error");
    } catch (const std::runtime_error& e) {
      QVERIFY2(std::string(e.what()).find("nope.safetensors") != std::string::npos, e.what());
    }
  }
};

ADALA_TEST_GUILESS_MAIN(SegmentJobTest)
}  // namespace test_segment_job

#include "test_segment_job.moc"
