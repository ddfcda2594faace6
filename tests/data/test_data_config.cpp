// The "data" block: per-stage sources, one source serving all, the Fashion-MNIST shorthand,
// and every error naming its field.
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

#include "engine/train/data_paths.h"
#include "engine/train/config/experiment_config.h"
#include "tests/support/config_errors.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_data_config {

using namespace adala;

namespace {

std::string error_of(const std::string& text) { return adala_test::config_error_of(text); }

// check_data_paths on a parsed document: "" when the paths are there, else the error.
std::string path_error_of(const std::string& text) {
  try {
    check_data_paths(parse_experiment_config(parse_json_strict(text)));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

const char* kRgbModel =
    "\"model\":{\"preset\":\"fmnist_micro\",\"in_chans\":3,\"img_size\":32,\"patch_size\":8}";

}  // namespace

class TestDataConfig : public QObject {
  Q_OBJECT
 private slots:
  void the_shorthand_keeps_fashion_mnist_splits() {
    auto c = parse_experiment_config(parse_json_strict(
        "{\"model\":{\"preset\":\"fmnist_micro\"},\"data\":{\"train_limit\":300,\"test_limit\":50,"
        "\"alignment_limit\":100}}"));
    QCOMPARE(QString::fromStdString(c.data.train.source), QString("fashion-mnist"));
    QCOMPARE(QString::fromStdString(c.data.train.split), QString("train"));
    QCOMPARE(c.data.train.limit, int64_t(300));
    QCOMPARE(QString::fromStdString(c.data.eval.split), QString("test"));
    QCOMPARE(c.data.eval.limit, int64_t(50));
    QCOMPARE(c.data.alignment.limit, int64_t(100));
    QCOMPARE(QString::fromStdString(c.data.train.transform.preprocess), QString("none"));
    // Fashion-MNIST's defaults, constants copied into the config.
    ADALA_COMPARE_EXACT(c.data.train.transform.mean, std::vector<double>{0.0});
    ADALA_COMPARE_EXACT(c.data.train.transform.std, std::vector<double>{1.0});
    QCOMPARE(c.data.train.transform.resolution, int64_t(28));
    QVERIFY(!c.data.skip_bad_images);
  }

  void each_stage_has_its_resolution() {
    auto c = parse_experiment_config(parse_json_strict(
        std::string("{") + kRgbModel +
        ",\"data\":{\"train\":{\"source\":\"image-folder\",\"root\":\"/t\"},"
        "\"alignment\":{\"source\":\"image-list\",\"root\":\"/coco\",\"res\":64}}}"));
    QCOMPARE(c.data.train.transform.resolution, int64_t(32));  // the model's
    QCOMPARE(c.data.eval.transform.resolution, int64_t(32));
    QCOMPARE(c.data.alignment.transform.resolution, int64_t(64));
  }

  void one_source_serves_all_three() {
    auto c = parse_experiment_config(
        parse_json_strict(std::string("{") + kRgbModel +
                          ",\"data\":{\"on_bad_image\":\"skip\",\"decode_threads\":3,\"train\":{"
                          "\"source\":\"image-folder\","
                          "\"root\":\"/data/train\",\"crop_pct\":0.9,\"scale\":[0.3,1.0]}}}"));
    for (const DataSourceConfig* s : {&c.data.train, &c.data.eval, &c.data.alignment}) {
      QCOMPARE(QString::fromStdString(s->source), QString("image-folder"));
      QCOMPARE(QString::fromStdString(s->root), QString("/data/train"));
      QCOMPARE(s->channels, int64_t(3));
      QCOMPARE(QString::fromStdString(s->transform.preprocess), QString("timm"));
      // Parsed from the text (nlohmann: the nearest double, as the literal) and copied to each
      // stage; the mean is the ImageNet default constant.
      ADALA_COMPARE_EXACT(s->transform.crop_pct, 0.9);
      ADALA_COMPARE_EXACT(s->transform.scale[0], 0.3);
      ADALA_COMPARE_EXACT(s->transform.mean, (std::vector<double>{0.485, 0.456, 0.406}));
      QCOMPARE(s->transform.resolution, int64_t(32));
    }
    QVERIFY(c.data.skip_bad_images);
    QCOMPARE(c.data.decode_threads, int64_t(3));
    // Separate eval and alignment sources.
    c = parse_experiment_config(parse_json_strict(
        std::string("{") + kRgbModel +
        ",\"data\":{\"train\":{\"source\":\"image-folder\",\"root\":\"/t\"},"
        "\"eval\":{\"source\":\"image-folder\",\"root\":\"/v\",\"mean\":[0.5],\"std\":[0.5]},"
        "\"alignment\":{\"source\":\"image-list\",\"root\":\"/coco\"}}}"));
    QCOMPARE(QString::fromStdString(c.data.eval.root), QString("/v"));
    ADALA_COMPARE_EXACT(c.data.eval.transform.mean, std::vector<double>{0.5});  // parsed, copied
    QCOMPARE(QString::fromStdString(c.data.alignment.source), QString("image-list"));
    QCOMPARE(QString::fromStdString(c.data.train.root), QString("/t"));
  }

  void interpolation_and_crop_mode_are_read() {
    auto c = parse_experiment_config(parse_json_strict(
        std::string("{") + kRgbModel +
        ",\"data\":{\"train\":{\"source\":\"image-folder\",\"root\":\"/t\"},"
        "\"eval\":{\"source\":\"image-folder\",\"root\":\"/v\",\"interpolation\":\"bicubic\","
        "\"crop_mode\":\"squash\",\"crop_pct\":1.0}}}"));
    // Defaults: bilinear, centre crop.
    QVERIFY(c.data.train.transform.interpolation == Interpolation::Bilinear);
    QVERIFY(c.data.train.transform.crop_mode == CropMode::Center);
    QVERIFY(c.data.alignment.transform.interpolation == Interpolation::Bilinear);
    QVERIFY(c.data.eval.transform.interpolation == Interpolation::Bicubic);
    QVERIFY(c.data.eval.transform.crop_mode == CropMode::Squash);
    ADALA_COMPARE_EXACT(c.data.eval.transform.crop_pct, 1.0);  // parsed from the text, copied
    // Given explicitly as the defaults, and copied from data.train to the other stages.
    c = parse_experiment_config(
        parse_json_strict(std::string("{") + kRgbModel +
                          ",\"data\":{\"train\":{\"source\":\"image-list\",\"root\":\"/t\","
                          "\"interpolation\":\"bicubic\",\"crop_mode\":\"center\"}}}"));
    for (const DataSourceConfig* s : {&c.data.train, &c.data.eval, &c.data.alignment}) {
      QVERIFY(s->transform.interpolation == Interpolation::Bicubic);
      QVERIFY(s->transform.crop_mode == CropMode::Center);
    }
  }

  void relative_paths_are_relative_to_the_config_file() {
    const std::string dir = ADALA_TEST_TMP "/data_config_paths";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/c.json")
        << "{" << kRgbModel
        << ",\"data\":{\"train\":{\"source\":\"image-list\",\"list\":\"lists/train.tsv\"}}}";
    auto c = load_experiment_config(dir + "/c.json");
    const std::string expected =
        std::filesystem::absolute(dir + "/lists/train.tsv").lexically_normal().string();
    QCOMPARE(QString::fromStdString(c.data.train.list), QString::fromStdString(expected));
    QCOMPARE(QString::fromStdString(c.data.eval.list), QString::fromStdString(expected));
    QCOMPARE(QString::fromStdString(c.source["data"]["train"]["list"].get<std::string>()),
             QString::fromStdString(expected));
  }

  // The same rule for a document without a file (the workbench's edited experiment): every
  // path field against the folder given; absolute ones and non-strings (the parser's to name)
  // untouched.
  void document_paths_resolve_against_a_base_folder() {
    const Json doc = parse_json_strict(R"({"teacher": {"weights": "w/t.safetensors"},
      "data": {"train": {"source": "image-folder", "root": "imgs", "classes": "../c.txt"},
               "eval": {"source": "image-list", "list": "/abs/list.tsv", "root": 42},
               "alignment": {"source": "image-list", "root": ""}}})");
    const Json r = resolve_config_paths(doc, "/base/dir");
    QCOMPARE(r["teacher"]["weights"].get<std::string>(), std::string("/base/dir/w/t.safetensors"));
    QCOMPARE(r["data"]["train"]["root"].get<std::string>(), std::string("/base/dir/imgs"));
    QCOMPARE(r["data"]["train"]["classes"].get<std::string>(), std::string("/base/c.txt"));
    QCOMPARE(r["data"]["eval"]["list"].get<std::string>(), std::string("/abs/list.tsv"));
    QCOMPARE(r["data"]["eval"]["root"].get<int>(), 42);
    QCOMPARE(r["data"]["alignment"]["root"].get<std::string>(), std::string());
    // No base folder: the working folder (a workbench experiment never saved).
    const ExperimentConfig c = parse_experiment_text(
        R"({"data": {"train": {"source": "image-folder", "root": "imgs", "channels": 3}},
            "model": {"preset": "vit_tiny"}})",
        "");
    QCOMPARE(QString::fromStdString(c.data.train.root),
             QString::fromStdString((std::filesystem::current_path() / "imgs").string()));
  }

  void errors_name_the_field_data() {
    QTest::addColumn<QString>("doc");
    QTest::addColumn<QString>("expected");
    const QString rgb = QString("{") + kRgbModel + ",\"data\":";
    QTest::newRow("source") << rgb + "{\"train\":{\"source\":\"coco\"}}}"
                            << "data.train.source: unknown value \"coco\"";
    QTest::newRow("folder root") << rgb + "{\"train\":{\"source\":\"image-folder\"}}}"
                                 << "data.train.root: an image-folder source needs its folder";
    QTest::newRow("list") << rgb + "{\"train\":{\"source\":\"image-list\"}}}"
                          << "data.train.list: an image-list source needs a list file or a folder";
    QTest::newRow("list on folder")
        << rgb + "{\"train\":{\"source\":\"image-folder\",\"root\":\"/a\",\"list\":\"x\"}}}"
        << "data.train.list: only an image-list source takes a list file";
    QTest::newRow("split")
        << rgb + "{\"train\":{\"source\":\"image-folder\",\"root\":\"/a\",\"split\":\"test\"}}}"
        << "data.train.split: only a fashion-mnist source has splits";
    QTest::newRow("classes")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"classes\":\"c\"}}}"
        << "data.train.classes: only an image-folder source takes a class list";
    QTest::newRow("channels 2")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"channels\":2}}}"
        << "data.train.channels: must be 1 (grey) or 3 (RGB)";
    QTest::newRow("channels model")
        << rgb + "{\"eval\":{\"source\":\"image-list\",\"root\":\"/a\",\"channels\":1}}}"
        << "data.train: needed: the Fashion-MNIST default is grey";
    QTest::newRow("channels vs model")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"channels\":1}}}"
        << "data.train.channels: 1-channel images, but the model takes 3 (model.in_chans)";
    QTest::newRow("scale order")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"scale\":[0.9,0.1]}}}"
        << "data.train.scale: the first entry must not exceed the second";
    QTest::newRow("scale count")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"scale\":[0.5]}}}"
        << "data.train.scale: needs 2 entries, got 1";
    QTest::newRow("ratio range")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"ratio\":[0,1]}}}"
        << "data.train.ratio[0]: out of range: 0";
    QTest::newRow("crop_pct")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"crop_pct\":1.5}}}"
        << "data.train.crop_pct: out of range: 1.5";
    QTest::newRow("res not a patch multiple")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"res\":36}}}"
        << "data.train.res: patch size 8 (model.patch_size) does not divide 36";
    QTest::newRow("res zero")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"res\":0}}}"
        << "data.train.res: out of range: 0 (allowed 1..65536)";
    QTest::newRow("mean count")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"mean\":[0.1,0.2]}}}"
        << "data.train.mean: needs 1 or 3 entries";
    QTest::newRow("mean type")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"mean\":[\"x\"]}}}"
        << "data.train.mean[0]: expected a number, got string";
    QTest::newRow("std zero")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"std\":[0]}}}"
        << "data.train.std[0]: out of range: 0";
    QTest::newRow("hflip")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"hflip\":2}}}"
        << "data.train.hflip: out of range: 2";
    QTest::newRow("preprocess")
        << rgb +
               "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"preprocess\":\"resize\"}}}"
        << "data.train.preprocess: unknown value \"resize\"";
    QTest::newRow("interpolation")
        << rgb +
               "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"interpolation\":"
               "\"lanczos\"}}}"
        << "data.train.interpolation: unknown value \"lanczos\" (allowed: bilinear, bicubic)";
    QTest::newRow("interpolation type")
        << rgb +
               "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\"},\"eval\":{\"source\":"
               "\"image-list\",\"root\":\"/a\",\"interpolation\":3}}}"
        << "data.eval.interpolation: expected a string, got integer";
    QTest::newRow("crop_mode")
        << rgb +
               "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"crop_mode\":"
               "\"border\"}}}"
        << "data.train.crop_mode: unknown value \"border\" (allowed: center, squash)";
    QTest::newRow("unknown key")
        << rgb + "{\"train\":{\"source\":\"image-list\",\"root\":\"/a\",\"resolution\":64}}}"
        << "data.train.resolution: unknown key";
    QTest::newRow("fm channels") << "{\"data\":{\"train\":{\"channels\":3}}}"
                                 << "data.train.channels: Fashion-MNIST is grey: 1";
    QTest::newRow("fm split") << "{\"data\":{\"eval\":{\"split\":\"val\"}}}"
                              << "data.eval.split: unknown value \"val\"";
    QTest::newRow("legacy limit") << "{\"data\":{\"train\":{},\"train_limit\":5}}"
                                  << "data.train_limit: with data.train / data.eval / "
                                     "data.alignment, give each its own limit";
    QTest::newRow("on_bad_image") << "{\"data\":{\"on_bad_image\":\"ignore\"}}"
                                  << "data.on_bad_image: unknown value \"ignore\"";
    QTest::newRow("threads") << "{\"data\":{\"decode_threads\":-1}}"
                             << "data.decode_threads: out of range: -1";
    QTest::newRow("source type") << "{\"data\":{\"alignment\":[]}}"
                                 << "data.alignment: expected an object, got array";
  }
  void errors_name_the_field() {
    QFETCH(QString, doc);
    QFETCH(QString, expected);
    const QString message = QString::fromStdString(error_of(doc.toStdString()));
    QVERIFY2(message.startsWith(expected), qPrintable("got: " + message));
  }

  // The launcher's cheap check: each source's folder or list file is there and of the right
  // kind, named by the field the document holds; sources copied from data.train are not
  // checked again.
  void data_paths_are_checked_by_field() {
    const std::string dir = std::string(ADALA_TEST_TMP) + "/data_paths";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir + "/classes/a");
    std::ofstream(dir + "/list.txt") << "a.png\n";
    const std::string rgb = std::string("{") + kRgbModel + ",\"data\":";
    auto doc = [&](const std::string& data) { return rgb + data + "}"; };
    QCOMPARE(path_error_of("{\"data\":{\"root\":\"" + dir + "/none\"}}"),
             "data.root: no such folder: " + dir + "/none");
    QCOMPARE(path_error_of(
                 doc("{\"train\":{\"source\":\"image-folder\",\"root\":\"" + dir + "/classes\"}}")),
             std::string());
    QCOMPARE(path_error_of(doc("{\"train\":{\"source\":\"image-folder\",\"root\":\"" + dir +
                               "/list.txt\"}}")),
             "data.train.root: not a folder: " + dir + "/list.txt");
    QCOMPARE(path_error_of(doc("{\"train\":{\"source\":\"image-folder\",\"root\":\"" + dir +
                               "/classes\"},\"alignment\":{\"source\":\"image-list\",\"list\":\"" +
                               dir + "/classes\"}}")),
             "data.alignment.list: a folder, not a list file: " + dir + "/classes");
    QCOMPARE(path_error_of(doc("{\"train\":{\"source\":\"image-folder\",\"root\":\"" + dir +
                               "/classes\"},\"eval\":{\"source\":\"image-list\",\"root\":\"" + dir +
                               "/gone.txt\"}}")),
             "data.eval.root: no such file or folder: " + dir + "/gone.txt");
    QCOMPARE(path_error_of(
                 doc("{\"train\":{\"source\":\"image-list\",\"root\":\"" + dir + "/list.txt\"}}")),
             std::string());  // an image-list root may be a list file
  }
};

ADALA_TEST_GUILESS_MAIN(TestDataConfig)
}  // namespace test_data_config

#include "test_data_config.moc"
