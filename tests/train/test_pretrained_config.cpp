// adala.pretrained_cfg: the data settings and class names a checkpoint carries. Round trip,
// the defaults for files without it, and one test per malformed case, each naming its field.
// Torch headers before Qt's (Qt's `slots` macro breaks ATen).
#include "engine/train/config/experiment_config.h"
#include "engine/train/config/pretrained_config.h"
#include "tests/support/test_suite.h"

#include <QtTest/QtTest>

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_pretrained_config {

using namespace adala;

namespace {

ViTConfig rgb_model() {
  ViTConfig m = vit_preset("fmnist_micro");
  m.in_chans = 3;
  m.img_size = 32;
  m.patch_size = 8;
  m.num_classes = 3;
  return m;
}

// The message of the ConfigError `text` raises (as a metadata value of an rgb_model checkpoint).
std::string error_of(const std::string& text) {
  try {
    pretrained_config_from_metadata({{kPretrainedConfigKey, text}}, rgb_model());
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kGood = R"({"input_size":[3,32,32],"interpolation":"bilinear","mean":[0.5,0.5,0.5],)"
                    R"("std":[0.25,0.25,0.25],"crop_pct":0.9,"crop_mode":"center","num_classes":3,)"
                    R"("label_names":["cat","dog","owl"]})";

// kGood with `key` replaced by `value` (value "" removes the key).
std::string good_with(const std::string& key, const std::string& value) {
  Json j = parse_json_strict(kGood);
  if (value.empty())
    j.erase(key);
  else
    j[key] = parse_json_strict(value);
  return j.dump();
}

}  // namespace

class TestPretrainedConfig : public QObject {
  Q_OBJECT
 private slots:
  void round_trip_keeps_every_field() {
    PretrainedConfig c;
    c.in_chans = 3;
    c.resolution = 48;
    c.mean = {0.1, 0.2, 0.3};
    c.std = {0.4, 0.5, 0.6};
    c.crop_pct = 0.95;
    c.crop_mode = "none";
    c.num_classes = 2;
    c.label_names = {"a, b", "ü \"quoted\""};
    const std::string text = pretrained_config_to_json(c).dump();
    const PretrainedConfig back = parse_pretrained_config(text);
    QVERIFY(back == c);
    // nlohmann writes doubles with round-trip precision: the same bits back.
    ADALA_COMPARE_EXACT(back.mean, (std::vector<double>{0.1, 0.2, 0.3}));
    QCOMPARE(back.label_names[1], std::string("ü \"quoted\""));
    QCOMPARE(QString::fromStdString(pretrained_config_to_json(c).at("input_size").dump()),
             QString("[3,48,48]"));
  }

  void settings_of_a_run_come_from_its_eval_transform_and_classes() {
    TransformSpec eval;
    eval.resolution = 32;
    eval.crop_pct = 0.9;
    eval.mean = {0.5};
    eval.std = {0.25};
    const PretrainedConfig c = pretrained_config_for(rgb_model(), eval, {"a", "b", "c"});
    QCOMPARE(c.in_chans, int64_t(3));
    QCOMPARE(c.resolution, int64_t(32));
    // The eval transform's values, copied field by field (here and in `back` below).
    ADALA_COMPARE_EXACT(c.crop_pct, 0.9);
    QCOMPARE(c.crop_mode, std::string("center"));
    ADALA_COMPARE_EXACT(c.mean, std::vector<double>{0.5});
    QCOMPARE(c.num_classes, int64_t(3));
    QCOMPARE(c.label_names, (std::vector<std::string>{"a", "b", "c"}));
    // Names that do not fit the head (a pretrained head wider than the data) are left out.
    QVERIFY(pretrained_config_for(rgb_model(), eval, {"a", "b"}).label_names.empty());
    eval.preprocess = "none";
    QCOMPARE(pretrained_config_for(rgb_model(), eval, {}).crop_mode, std::string("none"));
    // ... and the evaluation transform they describe is the one the run used.
    const TransformSpec back = evaluation_transform(c);
    QCOMPARE(back.preprocess, std::string("timm"));
    QCOMPARE(back.resolution, int64_t(32));
    ADALA_COMPARE_EXACT(back.crop_pct, 0.9);
    ADALA_COMPARE_EXACT(back.mean, std::vector<double>{0.5});
    ADALA_COMPARE_EXACT(back.std, std::vector<double>{0.25});
    QCOMPARE(evaluation_transform(c, 64).resolution, int64_t(64));
    QCOMPARE(c.interpolation, std::string("bilinear"));
    QVERIFY(back.interpolation == Interpolation::Bilinear);
    QVERIFY(back.crop_mode == CropMode::Center);
    // timm's bicubic + squash evaluation is carried over, and back.
    eval.preprocess = "timm";
    eval.interpolation = Interpolation::Bicubic;
    eval.crop_mode = CropMode::Squash;
    const PretrainedConfig squash = pretrained_config_for(rgb_model(), eval, {});
    QCOMPARE(squash.interpolation, std::string("bicubic"));
    QCOMPARE(squash.crop_mode, std::string("squash"));
    const TransformSpec squash_back = evaluation_transform(squash);
    QCOMPARE(squash_back.preprocess, std::string("timm"));
    QVERIFY(squash_back.interpolation == Interpolation::Bicubic);
    QVERIFY(squash_back.crop_mode == CropMode::Squash);
    // "none" keeps the image as it is, whatever the interpolation says.
    eval.preprocess = "none";
    const PretrainedConfig none = pretrained_config_for(rgb_model(), eval, {});
    QCOMPARE(none.crop_mode, std::string("none"));
    QCOMPARE(evaluation_transform(none).preprocess, std::string("none"));
  }

  void bicubic_and_squash_round_trip() {
    PretrainedConfig c = default_pretrained_config(rgb_model());
    c.interpolation = "bicubic";
    c.crop_mode = "squash";
    c.crop_pct = 1.0;
    const Json json = pretrained_config_to_json(c);
    QCOMPARE(json.at("interpolation").get<std::string>(), std::string("bicubic"));
    QCOMPARE(json.at("crop_mode").get<std::string>(), std::string("squash"));
    const PretrainedConfig back =
        pretrained_config_from_metadata({{kPretrainedConfigKey, json.dump()}}, rgb_model());
    QVERIFY(back == c);
    const TransformSpec t = evaluation_transform(back);
    QCOMPARE(t.preprocess, std::string("timm"));
    QVERIFY(t.interpolation == Interpolation::Bicubic);
    QVERIFY(t.crop_mode == CropMode::Squash);
    ADALA_COMPARE_EXACT(t.crop_pct, 1.0);  // set, written to JSON and read back, then copied
    // Absent: bilinear and centre crop, as before.
    const PretrainedConfig plain = parse_pretrained_config(R"({"input_size":[3,32,32]})");
    QCOMPARE(plain.interpolation, std::string("bilinear"));
    QCOMPARE(plain.crop_mode, std::string("center"));
  }

  // A config built in code with values the parser refuses: the same field named.
  void evaluation_transform_names_a_bad_field() {
    PretrainedConfig c = default_pretrained_config(rgb_model());
    c.interpolation = "lanczos";
    try {
      evaluation_transform(c);
      QFAIL("no error");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.what()),
               QString("adala.pretrained_cfg.interpolation: unknown interpolation \"lanczos\" "
                       "(allowed: bilinear, bicubic)"));
    }
    c.interpolation = "bicubic";
    c.crop_mode = "border";
    try {
      evaluation_transform(c);
      QFAIL("no error");
    } catch (const ConfigError& e) {
      QCOMPARE(QString::fromStdString(e.what()),
               QString("adala.pretrained_cfg.crop_mode: unknown crop mode \"border\" (allowed: "
                       "center, squash)"));
    }
  }

  void a_checkpoint_without_it_gets_defaults_for_its_model() {
    const PretrainedConfig rgb = pretrained_config_from_metadata({{"format", "pt"}}, rgb_model());
    QCOMPARE(rgb.in_chans, int64_t(3));
    QCOMPARE(rgb.resolution, int64_t(32));
    // Defaults copied from constants (0.875 is exact in binary).
    ADALA_COMPARE_EXACT(rgb.mean, imagenet_mean());
    ADALA_COMPARE_EXACT(rgb.std, imagenet_std());
    ADALA_COMPARE_EXACT(rgb.crop_pct, 0.875);
    QCOMPARE(rgb.crop_mode, std::string("center"));
    QCOMPARE(rgb.num_classes, int64_t(3));
    QVERIFY(rgb.label_names.empty());
    const PretrainedConfig grey = pretrained_config_from_metadata({}, vit_preset("fmnist_micro"));
    QCOMPARE(grey.in_chans, int64_t(1));
    QCOMPARE(grey.resolution, int64_t(28));
    ADALA_COMPARE_EXACT(grey.mean, std::vector<double>{0.0});
    ADALA_COMPARE_EXACT(grey.std, std::vector<double>{1.0});
  }

  void the_well_formed_example_parses() {
    const PretrainedConfig c =
        pretrained_config_from_metadata({{kPretrainedConfigKey, kGood}}, rgb_model());
    ADALA_COMPARE_EXACT(c.crop_pct, 0.9);  // parsed from "0.9": the nearest double, as the literal
    QCOMPARE(c.label_names, (std::vector<std::string>{"cat", "dog", "owl"}));
    // Optional fields: a minimal object is enough.
    const PretrainedConfig minimal = pretrained_config_from_metadata(
        {{kPretrainedConfigKey, R"({"input_size":[3,32,32],"num_classes":3})"}}, rgb_model());
    ADALA_COMPARE_EXACT(minimal.mean, imagenet_mean());  // the default, copied
    QVERIFY(minimal.label_names.empty());
  }

  void malformed_metadata_names_the_field_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const QString key = QString::fromLatin1(kPretrainedConfigKey);
    auto row = [&](const char* name, const std::string& text, const QString& expected) {
      QTest::newRow(name) << QString::fromStdString(text) << expected;
    };
    row("not json", "{\"input_size\":", key + ": not valid JSON: JSON parse error at byte");
    row("duplicate key", R"({"input_size":[3,32,32],"input_size":[3,32,32]})",
        key + ": not valid JSON");
    row("not an object", "[3,32,32]", key + ": expected an object, got array");
    row("unknown key", good_with("pool", "\"avg\""), key + ".pool: unknown key");
    row("input_size missing", good_with("input_size", ""),
        key + ".input_size: missing ([C, H, W])");
    row("input_size not an array", good_with("input_size", "32"),
        key + ".input_size: expected an array of integers, got integer");
    row("input_size two entries", good_with("input_size", "[32,32]"),
        key + ".input_size: needs 3 entries [C, H, W], got 2");
    row("input_size float", good_with("input_size", "[3,32.5,32]"),
        key + ".input_size[1]: expected an integer, got number");
    row("input_size zero", good_with("input_size", "[3,0,0]"),
        key + ".input_size[1]: out of range: 0 (allowed 1..65536)");
    row("input_size huge", good_with("input_size", "[3,100000,100000]"),
        key + ".input_size[1]: out of range: 100000 (allowed 1..65536)");
    row("input_size two channels", good_with("input_size", "[2,32,32]"),
        key + ".input_size[0]: channels must be 1 (grey) or 3 (RGB), got 2");
    row("input_size not square", good_with("input_size", "[3,32,48]"),
        key + ".input_size: inputs are square: H 32 and W 48 differ");
    row("input_size channels of another model", R"({"input_size":[1,32,32],"num_classes":3})",
        key + ".input_size[0]: 1 channels, but the model takes 3");
    row("input_size not a patch multiple", good_with("input_size", "[3,36,36]"),
        key + ".input_size: patch size 8 does not divide 36");
    row("interpolation lanczos", good_with("interpolation", "\"lanczos\""),
        key + ".interpolation: unknown value \"lanczos\" (allowed: bilinear, bicubic)");
    row("interpolation not a string", good_with("interpolation", "3"),
        key + ".interpolation: expected a string, got integer");
    row("mean two entries", good_with("mean", "[0.5,0.5]"), key + ".mean: needs 1 or 3 entries");
    row("mean four entries", good_with("mean", "[0.5,0.5,0.5,0.5]"),
        key + ".mean: needs 1..3 entries, got 4");
    row("mean a string", good_with("mean", "[0.5,\"x\",0.5]"),
        key + ".mean[1]: expected a number, got string");
    row("mean out of range", good_with("mean", "[0.5,5000,0.5]"),
        key + ".mean[1]: out of range: 5000 (allowed -1000..1000)");
    row("std zero", good_with("std", "[0.2,0,0.2]"),
        key + ".std[1]: out of range: 0 (allowed 1e-06..1000)");
    row("std negative", good_with("std", "[-1]"), key + ".std[0]: out of range: -1");
    row("std empty", good_with("std", "[]"), key + ".std: needs 1..3 entries, got 0");
    row("crop_pct zero", good_with("crop_pct", "0"),
        key + ".crop_pct: out of range: 0 (allowed > 0 and <= 1)");
    row("crop_pct above one", good_with("crop_pct", "1.5"),
        key + ".crop_pct: out of range: 1.5 (allowed > 0 and <= 1)");
    row("crop_pct a string", good_with("crop_pct", "\"0.9\""),
        key + ".crop_pct: expected a number, got string");
    row("crop_mode border", good_with("crop_mode", "\"border\""),
        key + ".crop_mode: unknown value \"border\" (allowed: center, squash, none)");
    row("num_classes negative", good_with("num_classes", "-1"),
        key + ".num_classes: out of range: -1 (allowed 0..1000000)");
    row("num_classes float", good_with("num_classes", "3.0"),
        key + ".num_classes: expected an integer, got number");
    row("num_classes of another head", good_with("num_classes", "4"),
        key + ".label_names: 3 names for num_classes 4");
    row("num_classes of another head, no names", R"({"input_size":[3,32,32],"num_classes":10})",
        key + ".num_classes: 10, but the model's head has 3 outputs");
    row("label_names not an array", good_with("label_names", "\"cat\""),
        key + ".label_names: expected an array of strings, got string");
    row("label_names a number", good_with("label_names", "[\"cat\",7,\"owl\"]"),
        key + ".label_names[1]: expected a string, got integer");
    row("label_names empty name", good_with("label_names", "[\"cat\",\"\",\"owl\"]"),
        key + ".label_names[1]: must not be empty");
    row("label_names twice", good_with("label_names", "[\"cat\",\"dog\",\"cat\"]"),
        key + ".label_names[2]: \"cat\" appears twice");
    row("label_names too few", good_with("label_names", "[\"cat\",\"dog\"]"),
        key + ".label_names: 2 names for num_classes 3");
  }

  void malformed_metadata_names_the_field() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QString message = QString::fromStdString(error_of(text.toStdString()));
    QVERIFY2(message.startsWith(expected), qPrintable(message + " | expected: " + expected));
  }
};

ADALA_TEST_GUILESS_MAIN(TestPretrainedConfig)
}  // namespace test_pretrained_config

#include "test_pretrained_config.moc"
