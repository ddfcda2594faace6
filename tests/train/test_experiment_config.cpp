// Every config error names the field and the reason; nothing starts on a bad config.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

#include "engine/data/fashion_mnist.h"
#include "engine/train/config/experiment_config.h"
#include "tests/support/config_errors.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_experiment_config {

using namespace adala;

namespace {
// Parses `patch` merged into a valid base document; returns the error message or "".
std::string error_of(const std::string& text) { return adala_test::config_error_of(text); }
}  // namespace

class TestExperimentConfig : public QObject {
  Q_OBJECT
 private slots:
  void embedded_default_is_valid() {
    auto c = load_experiment_config(ADALA_SOURCE_DIR "/experiments/fashion-mnist-tiny.json");
    QCOMPARE(QString::fromStdString(c.name), QString("fashion-mnist-tiny"));
    QCOMPARE(c.model.img_size, int64_t(28));
    QCOMPARE(c.model.in_chans, int64_t(1));
    QVERIFY(c.teacher.epochs > 0);
    QVERIFY(c.source.is_object());
  }

  void errors_name_the_field_data() {
    QTest::addColumn<QString>("doc");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown top key") << "{\"nmae\":\"x\"}"
                                     << "nmae: unknown key";
    QTest::newRow("unknown nested key") << "{\"stages\":{\"teacher\":{\"lrr\":1}}}"
                                        << "stages.teacher.lrr: unknown key";
    QTest::newRow("unknown stage") << "{\"stages\":{\"stage5\":{}}}"
                                   << "stages.stage5: unknown key";
    QTest::newRow("wrong type") << "{\"stages\":{\"teacher\":{\"lr\":\"fast\"}}}"
                                << "stages.teacher.lr: expected a number, got string";
    QTest::newRow("int expected") << "{\"seed\":1.5}"
                                  << "seed: expected an integer, got number";
    QTest::newRow("negative lr") << "{\"stages\":{\"fine_tuning\":{\"lr\":-1}}}"
                                 << "stages.fine_tuning.lr: out of range: -1";
    QTest::newRow("zero batch") << "{\"stages\":{\"feature_alignment\":{\"batch_size\":0}}}"
                                << "stages.feature_alignment.batch_size: out of range: 0";
    QTest::newRow("bad preset") << "{\"model\":{\"preset\":\"vit_huge\"}}"
                                << "model.preset: unknown value \"vit_huge\"";
    QTest::newRow("heads") << "{\"model\":{\"embed_dim\":64,\"num_heads\":5}}"
                           << "model.num_heads: embed_dim 64 is not divisible by num_heads 5";
    QTest::newRow("device") << "{\"device\":\"tpu\"}"
                            << "device: unknown value \"tpu\"";
    QTest::newRow("not object") << "{\"data\":[1]}"
                                << "data: expected an object, got array";
    QTest::newRow("bool type") << "{\"stages\":{\"teacher\":{\"augment\":1}}}"
                               << "stages.teacher.augment: expected true or false, got integer";
    QTest::newRow("no budget") << "{\"stages\":{\"teacher\":{\"epochs\":0}}}"
                               << "stages.teacher.epochs: an enabled stage needs epochs > 0";
    QTest::newRow("min_lr") << "{\"stages\":{\"teacher\":{\"lr\":0.001,\"min_lr\":0.01}}}"
                            << "stages.teacher.min_lr: must not exceed lr";
    QTest::newRow("patch does not divide")
        << "{\"model\":{\"patch_size\":5}}"
        << "model.patch_size: 5 does not divide img_size 28 (the last 3 pixels would be cropped)";
    QTest::newRow("dataset") << "{\"data\":{\"dataset\":\"imagenet\"}}"
                             << "data.dataset: unknown value \"imagenet\"";
  }
  void errors_name_the_field() {
    QFETCH(QString, doc);
    QFETCH(QString, expected);
    const QString message = QString::fromStdString(error_of(doc.toStdString()));
    QVERIFY2(message.startsWith(expected), qPrintable("got: " + message));
  }

  void bad_files() {
    const std::string path = ADALA_TEST_TMP "/bad_config.json";
    std::ofstream(path) << "{\"name\": \"x\",}";
    try {
      load_experiment_config(path);
      QFAIL("no error");
    } catch (const ConfigError& e) {
      QVERIFY(std::string(e.what()).find(path) == 0);
      QVERIFY(std::string(e.what()).find("at byte") != std::string::npos);
    }
    QVERIFY_EXCEPTION_THROWN(load_experiment_config(ADALA_TEST_TMP "/does/not/exist.json"),
                             ConfigError);
  }

  // The message of loading a config file holding `bytes` ("" when it loads).
  static std::string file_error(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    try {
      load_experiment_config(path);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }

  void folder_bom_and_bad_text_are_named() {
    const std::string folder = ADALA_TEST_TMP "/config-is-a-folder";
    std::filesystem::create_directories(folder);
    try {
      load_experiment_config(folder);
      QFAIL("a folder was read as a config");
    } catch (const ConfigError& e) {
      QCOMPARE(QString(e.what()),
               QString::fromStdString(folder + ": is a folder, not a config "
                                               "file (give the path of a .json file)"));
    }
    const std::string path = ADALA_TEST_TMP "/text_config.json";
    // A UTF-8 byte-order mark (Windows editors write one) is read past, as RFC 8259 allows.
    QCOMPARE(QString::fromStdString(file_error(path, "\xEF\xBB\xBF{\"name\": \"bom\"}")),
             QString());
    QCOMPARE(QString::fromStdString(load_experiment_config(path).name), QString("bom"));
    for (const std::string& bad :
         {std::string("{\"name\": \"a\xff\"}"),         // not UTF-8
          std::string("{\"name\": \"\xed\xa0\x80\"}"),  // encoded surrogate
          std::string("{\"name\": \"\\ud800\"}"),       // lone high
          std::string("{\"name\": \"\\udc00x\"}")}) {   // lone low
      const std::string message = file_error(path, bad);
      QVERIFY2(message.rfind(path + ": JSON parse error at byte ", 0) == 0, message.c_str());
      QVERIFY2(message.find("UTF-8") != std::string::npos ||
                   message.find("surrogate") != std::string::npos,
               message.c_str());
    }
  }

  void teacher_weights_resolve_next_to_the_config() {
    const std::string dir = ADALA_TEST_TMP "/config_weights";
    std::filesystem::create_directories(dir + "/ckpt");
    std::ofstream(dir + "/ckpt/t.safetensors") << "x";
    // A preset given: the (placeholder) file is not read for the model.
    std::ofstream(dir + "/ok.json") << "{\"model\":{\"preset\":\"fmnist_tiny\"},\"teacher\":{"
                                       "\"weights\":\"ckpt/t.safetensors\"}}";
    auto c = load_experiment_config(dir + "/ok.json");
    QCOMPARE(
        QString::fromStdString(c.teacher_weights),
        QString::fromStdString(
            std::filesystem::absolute(dir + "/ckpt/t.safetensors").lexically_normal().string()));
    QCOMPARE(QString::fromStdString(c.source.at("teacher").at("weights").get<std::string>()),
             QString::fromStdString(c.teacher_weights));
    std::ofstream(dir + "/bad.json") << "{\"teacher\":{\"weights\":\"nope.safetensors\"}}";
    try {
      load_experiment_config(dir + "/bad.json");
      QFAIL("no error");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.field()), QString("teacher.weights"));
      QVERIFY(std::string(e.what()).find("file not found: ") != std::string::npos);
    }
  }

  void missing_dataset_names_the_expected_path() {
    try {
      load_fashion_mnist(ADALA_TEST_TMP "/no-such-folder", "train");
      QFAIL("no error");
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      QVERIFY2(msg.find(ADALA_TEST_TMP "/no-such-folder/train-images-idx3-ubyte.gz") !=
                   std::string::npos,
               e.what());
      QVERIFY(msg.find("dataset-fashion-mnist") != std::string::npos);
    }
  }

  void reads_the_debian_package() {
    if (!std::ifstream(default_fashion_mnist_root() + "/t10k-labels-idx1-ubyte.gz"))
      QSKIP("dataset-fashion-mnist not installed");
    auto test = load_fashion_mnist(default_fashion_mnist_root(), "test");
    QCOMPARE(test.size(), int64_t(10000));
    QCOMPARE(test.images.sizes(), (torch::IntArrayRef{10000, 1, 28, 28}));
    QVERIFY(test.images.max().item<float>() <= 1.0f);
    // Balanced classes: 1000 per label in the test split.
    auto counts = torch::bincount(test.labels);
    QCOMPARE(counts.min().item<int64_t>(), int64_t(1000));
    QCOMPARE(counts.max().item<int64_t>(), int64_t(1000));
  }
};

ADALA_TEST_GUILESS_MAIN(TestExperimentConfig)
}  // namespace test_experiment_config

#include "test_experiment_config.moc"
