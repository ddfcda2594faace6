// The "segmentation" block of an experiment config: defaults, the shipped example, and
// errors that name the field.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "engine/io/text_file.h"
#include "engine/json/json.h"
#include "engine/train/config/experiment_config.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_seg_config {

using namespace adala;

namespace {

std::string error_of(const std::string& segmentation) {
  try {
    parse_experiment_config(parse_json_strict(
        R"({"model": {"preset": "fmnist_tiny"}, "segmentation": )" + segmentation + "}"));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class SegConfigTest : public QObject {
  Q_OBJECT
 private slots:
  void shipped_example_is_valid() {
    auto c = load_experiment_config(ADALA_SOURCE_DIR "/experiments/fashion-mnist-seg.json");
    const auto& s = c.segmentation;
    QVERIFY(s.present);
    QCOMPARE(QString::fromStdString(s.head), QString("both"));
    QCOMPARE(QString::fromStdString(s.data.dataset), QString("fashion-mnist-scenes"));
    QCOMPARE(s.data.image_size, int64_t(112));
    QCOMPARE(s.data.image_size % c.model.patch_size, int64_t(0));
    QCOMPARE(s.linear_blocks, (std::vector<int64_t>{4}));
    QCOMPARE(s.mask2former.feature_blocks, (std::vector<int64_t>{2, 3, 4}));
    QCOMPARE(s.mask2former.num_queries, int64_t(24));
    QVERIFY(s.linear_training.epochs > 0 && s.mask2former_training.epochs > 0);
    // The paper's protocol: the backbone fine-tuned with layer-wise lr decay, a scene teacher
    // pretrained from the classification teacher, and the 448 px evaluation.
    QVERIFY(s.train_backbone);
    QVERIFY(s.layer_decay > 0 && s.layer_decay < 1);
    QCOMPARE(c.model.patch_size, int64_t(8));
    QCOMPARE(s.sweep_resolutions, (std::vector<int64_t>{448}));
    QVERIFY(s.pretrain.present);
    QVERIFY(
        QString::fromStdString(s.pretrain.init).endsWith("fashion-mnist-tiny-teacher.safetensors"));
    QVERIFY(QString::fromStdString(s.teacher).endsWith("fashion-mnist-scenes-teacher.safetensors"));
    QVERIFY(!c.teacher_weights.empty());
  }

  // The scene teacher's later pretraining phases are whole experiment files (the config format
  // has no inheritance): each must stay the main experiment but for its name and pretraining,
  // start from the phase before it and draw the scenes after that phase's.
  void teacher_phases_are_the_experiment_but_for_pretraining() {
    auto read = [](const std::string& name) {
      return parse_json_strict(read_text(std::string(ADALA_SOURCE_DIR "/experiments/") + name));
    };
    const Json main = read("fashion-mnist-seg.json");
    Json previous = main;
    for (const int phase : {2, 3, 4, 5, 6}) {
      const std::string file = "fashion-mnist-seg-teacher-phase" + std::to_string(phase) + ".json";
      Json later = read(file);
      const Json before = previous["segmentation"]["pretrain"];
      const Json p = later["segmentation"]["pretrain"];
      QCOMPARE(QString::fromStdString(p["init"].get<std::string>()),
               QString("../out/scene-teacher-phase%1.safetensors").arg(phase - 1));
      QCOMPARE(p["first_scene"].get<int64_t>(),
               before["first_scene"].get<int64_t>() + before["images"].get<int64_t>());
      previous = later;
      Json rest = later, main_rest = main;
      for (Json* j : {&rest, &main_rest}) {
        j->erase("name");
        (*j)["segmentation"].erase("pretrain");
      }
      QVERIFY2(rest == main_rest, file.c_str());
      auto c = load_experiment_config(std::string(ADALA_SOURCE_DIR "/experiments/") + file);
      QVERIFY(c.segmentation.pretrain.present);
    }
  }

  void absent_block_and_defaults() {
    auto none = parse_experiment_config(parse_json_strict(R"({"name": "x"})"));
    QVERIFY(!none.segmentation.present);
    auto c = parse_experiment_config(parse_json_strict(R"({"segmentation": {}})"));
    QVERIFY(c.segmentation.present);
    QCOMPARE(c.segmentation.linear_blocks, (std::vector<int64_t>{c.model.depth}));
    QCOMPARE(c.segmentation.mask2former.feature_blocks, (std::vector<int64_t>{2, 3, 4}));
    // Defaults: double constants in the engine passed through untouched.
    ADALA_COMPARE_EXACT(c.segmentation.mask2former.class_weight, 2.0);
    ADALA_COMPARE_EXACT(c.segmentation.mask2former.no_object_weight, 0.1);
    ADALA_COMPARE_EXACT(c.segmentation.backbone_lr_scale, 0.1);
    ADALA_COMPARE_EXACT(c.segmentation.data.background_max, 0.6);
    QCOMPARE(QString::fromStdString(c.segmentation.data.root), QString::fromStdString(c.data.root));
    auto t = parse_experiment_config(parse_json_strict(
        R"({"segmentation": {"train_backbone": true, "linear": {"blocks": [3, 4], "epochs": 2, "lr": 0.01}}})"));
    QVERIFY(t.segmentation.train_backbone);
    QCOMPARE(t.segmentation.linear_blocks, (std::vector<int64_t>{3, 4}));
    QCOMPARE(t.segmentation.linear_training.epochs, int64_t(2));
    ADALA_COMPARE_EXACT(t.segmentation.linear_training.lr, 0.01);  // the JSON's 0.01, parsed
    QCOMPARE(t.segmentation.linear_upsample, int64_t(1));
    auto u = parse_experiment_config(parse_json_strict(
        R"({"segmentation": {"linear": {"upsample": 4}, "mask2former": {"upsample": 2}}})"));
    QCOMPARE(u.segmentation.linear_upsample, int64_t(4));
    QCOMPARE(u.segmentation.mask2former.upsample, int64_t(2));
    QCOMPARE(c.segmentation.adaptation_images, int64_t(0));
    auto a = parse_experiment_config(
        parse_json_strict(R"({"segmentation": {"adaptation_images": 24000}})"));
    QCOMPARE(a.segmentation.adaptation_images, int64_t(24000));
  }

  void errors_name_the_field_data() {
    QTest::addColumn<QString>("block");
    QTest::addColumn<QString>("expected");
    QTest::newRow("image size")
        << R"({"data": {"image_size": 30}})"
        << "segmentation.data.image_size: must be a multiple of the patch size 4";
    QTest::newRow("dataset") << R"({"data": {"dataset": "coco"}})"
                             << "segmentation.data.dataset: unknown value \"coco\"";
    QTest::newRow("ade root") << R"({"data": {"dataset": "ade20k"}})"
                              << "segmentation.data.root: an ade20k data set needs its folder";
    QTest::newRow("head") << R"({"head": "fpn"})"
                          << "segmentation.head: unknown value \"fpn\"";
    QTest::newRow("block range")
        << R"({"mask2former": {"feature_blocks": [2, 9]}})"
        << "segmentation.mask2former.feature_blocks[1]: out of range: 9 (allowed 1..4)";
    QTest::newRow("block twice") << R"({"linear": {"blocks": [4, 4]}})"
                                 << "segmentation.linear.blocks: block 4 is listed twice";
    QTest::newRow("no blocks") << R"({"linear": {"blocks": []}})"
                               << "segmentation.linear.blocks: needs at least 1 entries";
    QTest::newRow("heads") << R"({"mask2former": {"hidden_dim": 64, "num_heads": 5}})"
                           << "segmentation.mask2former.num_heads: must divide hidden_dim 64";
    QTest::newRow("upsample divides") << R"({"linear": {"upsample": 3}})"
                                      << "segmentation.linear.upsample: 3 does not divide the "
                                         "patch size 4";
    QTest::newRow("upsample range") << R"({"mask2former": {"upsample": 8}})"
                                    << "segmentation.mask2former.upsample: out of range";
    QTest::newRow("unknown key") << R"({"linear": {"queries": 3}})"
                                 << "segmentation.linear.queries: unknown key";
    QTest::newRow("stage field") << R"({"mask2former": {"lr": -1}})"
                                 << "segmentation.mask2former.lr: out of range";
    QTest::newRow("background") << R"({"data": {"background_min": 0.5, "background_max": 0.2}})"
                                << "segmentation.data.background_max: out of range";
    QTest::newRow("adaptation images negative")
        << R"({"adaptation_images": -1})"
        << "segmentation.adaptation_images: out of range: -1";
    QTest::newRow("adaptation images of a folder")
        << R"({"data": {"dataset": "ade20k", "root": "/data"}, "adaptation_images": 100})"
        << "segmentation.adaptation_images: makes scenes: it needs \"dataset\": "
           "\"fashion-mnist-scenes\"";
    QTest::newRow("not an object") << R"([1])"
                                   << "segmentation: expected an object";
  }
  void errors_name_the_field() {
    QFETCH(QString, block);
    QFETCH(QString, expected);
    const std::string e = error_of(block.toStdString());
    QVERIFY2(e.rfind(expected.toStdString(), 0) == 0, e.c_str());
  }
};

ADALA_TEST_GUILESS_MAIN(SegConfigTest)
}  // namespace test_seg_config

#include "test_seg_config.moc"
