// adala predict / embed / export on a run's own checkpoints: predict's top-1 equals the
// pipeline's evaluation, its logits equal the run's student evaluated in process with the run's
// eval transform (so the data settings travelled in the metadata), export -> predict gives the
// same logits, and every bad input is a clear message with exit code 1 or 2.
#include <torch/torch.h>

#include <QRegularExpression>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <optional>

#include <opencv2/imgcodecs.hpp>

#include "engine/model/load_weights.h"
#include "engine/io/safetensors.h"
#include "engine/model/weights_file_config.h"
#include "engine/data/opencv/image_file_dataset.h"
#include "engine/infer/inference_model.h"
#include "engine/train/pipeline.h"
#include "engine/train/config/pretrained_config.h"
#include "engine/train/stage_data.h"
#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_infer_commands {

using namespace adala;
using adala_test::AdalaResult;
using adala_test::run_adala;
namespace fs = std::filesystem;

namespace {

const std::string kDir = ADALA_TEST_TMP "/infer";

QString q(const std::string& s) { return QString::fromStdString(s); }

// `classes` class folders of `per_class` colour 40x48 images whose pixels depend on (class, i).
void write_class_folders(const std::string& dir, int per_class, int offset) {
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < per_class; ++i) {
      cv::Mat m(40, 48, CV_8UC3);
      for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 48; ++x)
          m.at<cv::Vec3b>(y, x) = cv::Vec3b(uchar(c * 80 + x), uchar((i + offset) * 15 + y),
                                            uchar((x * y + i + c * 7) % 256));
      const fs::path p =
          fs::path(dir) / ("class" + std::to_string(c)) / (std::to_string(i) + ".png");
      fs::create_directories(p.parent_path());
      cv::imwrite(p.string(), m);
    }
}

at::Tensor read_tensor(const std::string& path, const std::string& name) {
  return SafetensorsReader(path).load(name);
}

struct Top1 {
  double value = -1;
  int64_t correct = -1, images = -1;
};

Top1 parse_top1(const QString& out) {
  const auto m = QRegularExpression("top-1 ([0-9.]+) \\((\\d+)/(\\d+)\\)").match(out);
  if (!m.hasMatch()) return {};
  return {m.captured(1).toDouble(), m.captured(2).toLongLong(), m.captured(3).toLongLong()};
}

std::string fmt_top1(int64_t correct, int64_t images) {
  return QString("top-1 %1 (%2/%3)")
      .arg(double(correct) / double(images), 0, 'f', 4)
      .arg(correct)
      .arg(images)
      .toStdString();
}

// A timm-style file of fmnist_micro: tensors only, no metadata of ours.
std::string plain_checkpoint() {
  torch::manual_seed(1);
  VisionTransformer plain(vit_preset("fmnist_micro"));
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  for (const auto& p : plain->named_parameters())
    if (p.key().find(".linear.") == std::string::npos) tensors.emplace_back(p.key(), p.value());
  const std::string path = kDir + "/plain.safetensors";
  write_safetensors(path, tensors, {{"format", "pt"}});
  return path;
}

}  // namespace

class TestInferCommands : public QObject {
  Q_OBJECT

  ExperimentConfig config_;
  PipelineResult run_;
  std::string student_, test_root_;

  // The run's student in eval mode, and the test folder as one batch through `transform`
  // (default: the run's own evaluation transform).
  VisionTransformer student_model() const {
    VisionTransformer model = load_model(student_, torch::kCPU);
    model->eval();
    return model;
  }
  at::Tensor test_images(std::optional<TransformSpec> transform = std::nullopt) const {
    StageData data;
    data.dataset = open_image_folder(test_root_, "", 3);
    data.transform = transform ? *transform : config_.data.eval.transform;
    return make_evaluation_loader(data, 64)->batch(0).images;
  }

 private slots:
  void initTestCase() {
    fs::remove_all(kDir);
    write_class_folders(kDir + "/train", 8, 0);
    test_root_ = kDir + "/test";
    write_class_folders(test_root_, 4, 20);
    // A non-default crop_pct and mean/std: predict only matches if they travel with the weights.
    Json doc = parse_json_strict(
        R"({"name":"infer","seed":7,"device":"cpu",)"
        R"("model":{"preset":"fmnist_micro","in_chans":3,"img_size":32,"patch_size":8,"num_classes":3},)"
        R"("data":{"decode_threads":0,"train":{"source":"image-folder","root":"TRAIN"},)"
        R"("eval":{"source":"image-folder","root":"TEST","crop_pct":0.9,"mean":[0.4,0.5,0.6],"std":[0.2,0.3,0.25]},)"
        R"("alignment":{"source":"image-folder","root":"TRAIN","res":48}},)"
        R"("stages":{"teacher":{"max_steps":6,"batch_size":8},"attention_alignment":{"max_steps":2,"batch_size":8},)"
        R"("feature_alignment":{"max_steps":2,"batch_size":8},"fine_tuning":{"max_steps":4,"batch_size":8}}})");
    doc["data"]["train"]["root"] = kDir + "/train";
    doc["data"]["eval"]["root"] = test_root_;
    doc["data"]["alignment"]["root"] = kDir + "/train";  // Stages 1-2 at 48x48
    doc["output"] = Json::object({{"runs_dir", kDir}});
    config_ = parse_experiment_config(doc);
    NullSink sink;
    JobControl control;
    PipelineOptions o;
    o.run_dir = kDir + "/run";
    run_ = run_pipeline(config_, o, sink, control);
    student_ = stage_output_path(o.run_dir, 3);
    QVERIFY(fs::exists(student_));
  }

  void the_run_writes_its_data_settings_and_class_names() {
    const auto meta = SafetensorsReader(student_).metadata();
    QVERIFY(meta.count(kPretrainedConfigKey));
    const PretrainedConfig c = parse_pretrained_config(meta.at(kPretrainedConfigKey));
    QCOMPARE(c.in_chans, int64_t(3));
    QCOMPARE(c.resolution, int64_t(32));
    // The config's doubles, written to the metadata JSON by nlohmann (shortest round-trip text)
    // and parsed back: the same bits as the literals the config was parsed from.
    ADALA_COMPARE_EXACT(c.crop_pct, 0.9);
    QCOMPARE(c.crop_mode, std::string("center"));
    ADALA_COMPARE_EXACT(c.mean, (std::vector<double>{0.4, 0.5, 0.6}));
    ADALA_COMPARE_EXACT(c.std, (std::vector<double>{0.2, 0.3, 0.25}));
    QCOMPARE(c.num_classes, int64_t(3));
    QCOMPARE(c.label_names, (std::vector<std::string>{"class0", "class1", "class2"}));
    // inspect-weights shows them.
    const AdalaResult r = run_adala({"inspect-weights", q(student_)});
    QVERIFY2(r.out.contains("data      input 3x32x32, bilinear resize, crop-mode center, crop-pct "
                            "0.9, mean 0.4,0.5,0.6, std 0.2,0.3,0.25, 3 classes (named) (from the "
                            "file and the options)"),
             qPrintable(r.out));
    QVERIFY2(
        r.out.contains("uses      fmnist_micro (from adala.config): D=32 depth=2 heads=2 patch=8 "
                       "img=32 classes=3"),
        qPrintable(r.out));
    // The teacher of the same run carries them too.
    const PretrainedConfig t = parse_pretrained_config(
        SafetensorsReader(stage_output_path(kDir + "/run", 0)).metadata().at(kPretrainedConfigKey));
    QVERIFY(t == c);
  }

  void predict_top1_equals_the_pipelines_evaluation() {
    const AdalaResult r =
        run_adala({"predict", q(student_), q(test_root_), "--top", "2", "--list"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Top1 top1 = parse_top1(r.out);
    QCOMPARE(top1.images, int64_t(12));
    QCOMPARE(top1.correct, int64_t(std::llround(run_.student_top1 * 12)));
    // evaluate_top1 is double(correct) / double(images) too: the same count, the same bits.
    ADALA_COMPARE_EXACT(double(top1.correct) / 12.0, run_.student_top1);
    // The table: one line per image, labels by the class names the checkpoint carries.
    QVERIFY2(r.out.contains(q(test_root_ + "/class2/3.png  class2")), qPrintable(r.out));
    QCOMPARE(r.out.count(".png"), 12);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // folder names are the model's class names
  }

  void predict_logits_equal_the_run_student_in_process() {
    const std::string logits = kDir + "/student_logits.safetensors";
    const AdalaResult r = run_adala({"predict", q(student_), q(test_root_), "--logits", q(logits)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    // In process: the run's student with the run's own eval transform (from the config).
    VisionTransformer model = student_model();
    torch::NoGradGuard no_grad;
    const at::Tensor expected = model->forward(test_images());
    const at::Tensor got = read_tensor(logits, "logits");
    QCOMPARE(got.sizes().vec(), (std::vector<int64_t>{12, 3}));
    QVERIFY2(at::allclose(got, expected, 1e-5, 1e-6),
             qPrintable(QString("max diff %1").arg((got - expected).abs().max().item<double>())));
    // With the default transform (crop_pct 0.875, ImageNet mean/std) the logits differ: the
    // comparison above can fail.
    const at::Tensor defaults = model->forward(
        test_images(evaluation_transform(default_pretrained_config(model->config()))));
    QVERIFY(!at::allclose(got, defaults, 1e-3, 1e-4));
  }

  void export_then_predict_gives_the_same_logits() {
    const std::string exported = kDir + "/exported.safetensors";
    AdalaResult r = run_adala({"export", q(student_), "-o", q(exported)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("2 linear-attention and 0 softmax blocks"), qPrintable(r.out));
    // Only what runs, under timm's names: no linear.* tensors, one qkv/proj per block.
    const SafetensorsReader reader(exported);
    int qkv = 0;
    for (const auto& t : reader.tensors()) {
      QVERIFY2(t.name.find(".linear.") == std::string::npos, t.name.c_str());
      if (t.name.find("attn.qkv.weight") != std::string::npos) ++qkv;
    }
    QCOMPARE(qkv, 2);
    QCOMPARE(reader.metadata().at("adala.attention_modes"), std::string("linear,linear"));
    QVERIFY(reader.metadata().count(kPretrainedConfigKey));
    // The exported qkv is the student's linear branch.
    QVERIFY(at::equal(reader.load("blocks.1.attn.qkv.weight"),
                      read_tensor(student_, "blocks.1.attn.linear.qkv.weight")));
    const std::string a = kDir + "/a.safetensors", b = kDir + "/b.safetensors";
    r = run_adala({"predict", q(student_), q(test_root_), "--logits", q(a)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const AdalaResult e = run_adala({"predict", q(exported), q(test_root_), "--logits", q(b)});
    QVERIFY2(e.code == 0, qPrintable(e.err));
    QVERIFY(at::equal(read_tensor(a, "logits"), read_tensor(b, "logits")));
    QCOMPARE(parse_top1(e.out).correct, parse_top1(r.out).correct);
  }

  void class_folders_map_to_outputs_by_name() {
    // --classes renames the outputs (here in reverse): folder classN is then output 2 - N, and
    // the top-1 counts that.
    const std::string names = kDir + "/reversed.txt", logits = kDir + "/reversed.safetensors";
    std::ofstream(names) << "class2\nclass1\nclass0\n";
    const AdalaResult r = run_adala({"predict", q(student_), q(test_root_), "--classes", q(names),
                                     "--logits", q(logits), "--list"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const at::Tensor predicted = read_tensor(logits, "logits").argmax(1);
    int64_t expected = 0;
    for (int64_t i = 0; i < 12; ++i) expected += predicted[i].item<int64_t>() == 2 - i / 4;
    QCOMPARE(parse_top1(r.out).correct, expected);
    // The same images without --classes: matched as the checkpoint names them.
    int64_t plain = 0;
    for (int64_t i = 0; i < 12; ++i) plain += predicted[i].item<int64_t>() == i / 4;
    QCOMPARE(plain, int64_t(std::llround(run_.student_top1 * 12)));
    QVERIFY2(r.out.contains(q(test_root_ + "/class0/0.png  class0")), qPrintable(r.out));
  }

  void embed_writes_the_final_normed_features() {
    VisionTransformer model = student_model();
    torch::NoGradGuard no_grad;
    const at::Tensor features = model->forward_features(test_images());
    QCOMPARE(features.sizes().vec(), (std::vector<int64_t>{12, 17, 32}));
    const std::string out = kDir + "/features.safetensors";
    for (const char* tokens : {"cls", "patch", "all"}) {
      const AdalaResult r =
          run_adala({"embed", q(student_), q(test_root_), "-o", q(out), "--tokens", tokens});
      QVERIFY2(r.code == 0, qPrintable(r.err));
      const at::Tensor got = read_tensor(out, "features");
      const at::Tensor expected = std::string(tokens) == "cls"     ? features.select(1, 0)
                                  : std::string(tokens) == "patch" ? features.narrow(1, 1, 16)
                                                                   : features;
      QCOMPARE(got.sizes().vec(), expected.sizes().vec());
      QVERIFY2(at::allclose(got, expected, 1e-5, 1e-6), tokens);
    }
    QCOMPARE(read_tensor(out, "labels").sizes().vec(), std::vector<int64_t>{12});
    QCOMPARE(read_tensor(out, "labels")[11].item<int64_t>(), int64_t(2));
    const auto meta = SafetensorsReader(out).metadata();
    QCOMPARE(meta.at("adala.embed.tokens"), std::string("all"));
    QCOMPARE(meta.at("adala.embed.label_names"), std::string(R"(["class0","class1","class2"])"));
  }

  void single_images_and_csv() {
    const std::string csv = kDir + "/scores.csv";
    const std::string image = test_root_ + "/class1/0.png";
    const AdalaResult r =
        run_adala({"predict", q(student_), q(image), q(test_root_ + "/class2/1.png"), "--csv",
                   q(csv), "--top", "9"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    std::ifstream in(csv);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    QCOMPARE(lines.size(), size_t(3));
    // --top above the class count lists every class once.
    QCOMPARE(lines[0], std::string("path,label,top1,top1_index,top1_score,top2,top2_index,"
                                   "top2_score,top3,top3_index,top3_score"));
    QVERIFY2(lines[1].rfind(image + ",,class", 0) == 0, lines[1].c_str());
    QVERIFY(!r.out.contains("top-1"));  // no class folders, no accuracy
  }

  void fashion_mnist_pngs_give_the_runs_top1() {
    // The embedded default (idx files, images used as they are): its checkpoint says so
    // (crop_mode none, mean 0 / std 1, grey), and predict on the same test images written as PNG
    // class folders by `adala data export-fashion-mnist` reproduces the run's top-1 exactly.
    if (!fs::exists("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"))
      QSKIP("dataset-fashion-mnist not installed");
    const std::string dir = kDir + "/fmnist";
    AdalaResult r = run_adala(
        {"data", "export-fashion-mnist", q(dir + "/png"), "--split", "test", "--limit", "100"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    Json doc = parse_json_strict(
        R"({"name":"fm","seed":3,"device":"cpu","model":{"preset":"fmnist_micro"},)"
        R"("data":{"train_limit":128,"test_limit":100,"decode_threads":0},)"
        R"("stages":{"teacher":{"max_steps":8,"batch_size":32},"attention_alignment":{"max_steps":2,"batch_size":32},)"
        R"("feature_alignment":{"max_steps":2,"batch_size":32},"fine_tuning":{"max_steps":4,"batch_size":32}}})");
    NullSink sink;
    JobControl control;
    PipelineOptions o;
    o.run_dir = dir + "/run";
    const PipelineResult run = run_pipeline(parse_experiment_config(doc), o, sink, control);
    const std::string student = stage_output_path(o.run_dir, 3);
    const PretrainedConfig data =
        parse_pretrained_config(SafetensorsReader(student).metadata().at(kPretrainedConfigKey));
    QCOMPARE(data.crop_mode, std::string("none"));
    QCOMPARE(data.in_chans, int64_t(1));
    ADALA_COMPARE_EXACT(data.mean, std::vector<double>{0.0});  // 0 written and read back
    QCOMPARE(data.label_names.front(), std::string("T-shirt/top"));
    r = run_adala({"predict", q(student), q(dir + "/png/test")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Top1 top1 = parse_top1(r.out);
    QCOMPARE(top1.images, int64_t(100));
    // evaluate_top1 is double(correct) / double(images) too: the same count, the same bits.
    ADALA_COMPARE_EXACT(double(top1.correct) / 100.0, run.student_top1);
    // The folders ("0_T-shirt_top", ...) are not the class names: matched in sorted order.
    QVERIFY2(r.err.contains("matched to the model's outputs in sorted order"), qPrintable(r.err));
    // Each line names the class by the checkpoint's names.
    QVERIFY2(r.out.contains("Ankle boot"), qPrintable(r.out));
  }

  void a_plain_file_without_metadata_gets_defaults() {
    // A timm-style file: tensors only. The model comes from the matching preset.
    const std::string path = plain_checkpoint();
    const InferenceModel m = load_inference_model(path, torch::kCPU);
    QVERIFY(m.data == default_pretrained_config(vit_preset("fmnist_micro")));
    QCOMPARE(m.data.resolution, int64_t(28));
    QCOMPARE(m.model->config().num_classes, int64_t(10));
    // predict reads grey images at 28x28 with it; folder names are not its (absent) names.
    const AdalaResult r = run_adala({"predict", q(path), q(test_root_)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("class folders matched to the model's outputs in sorted order (the "
                            "model has no class names)"),
             qPrintable(r.err));
    QCOMPARE(parse_top1(r.out).images, int64_t(12));
    QVERIFY2(r.out.contains("#"), qPrintable(r.out));  // unnamed outputs
  }

  void malformed_metadata_in_a_file_is_named() {
    const SafetensorsReader reader(student_);
    auto meta = reader.metadata();
    meta[kPretrainedConfigKey] = R"({"input_size":[3,32,32],"crop_pct":2,"num_classes":3})";
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    for (const auto& t : reader.tensors()) tensors.emplace_back(t.name, reader.load(t.name));
    const std::string bad = kDir + "/bad_meta.safetensors";
    write_safetensors(bad, tensors, meta);
    const AdalaResult r = run_adala({"predict", q(bad), q(test_root_)});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(q(bad + ": metadata adala.pretrained_cfg.crop_pct: out of range: 2")),
             qPrintable(r.err));
    const AdalaResult inspect = run_adala({"inspect-weights", q(bad)});
    QCOMPARE(inspect.code, 0);  // inspection shows the problem
    QVERIFY2(
        inspect.out.contains("data      malformed: adala.pretrained_cfg.crop_pct: out of range"),
        qPrintable(inspect.out));
  }

  void a_folder_evaluation_prints_a_summary() {
    // Class folders alone: no line per image unless asked, but top-1, top-5, per-class accuracy,
    // and the confusion matrix beside the CSV, all from the same logits.
    const std::string csv = kDir + "/summary.csv", logits = kDir + "/summary.safetensors";
    const AdalaResult r = run_adala({"predict", q(student_), q(test_root_), "--csv", q(csv),
                                     "--logits", q(logits), "--top", "1"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(!r.out.contains(".png"), qPrintable(r.out));
    const at::Tensor out = read_tensor(logits, "logits");
    const at::Tensor labels = at::arange(3).repeat_interleave(4);  // class folders in order
    const at::Tensor predicted = out.argmax(1);
    const int64_t correct = predicted.eq(labels).sum().item<int64_t>();
    QVERIFY2(r.out.contains(q(fmt_top1(correct, 12))), qPrintable(r.out));
    // 3 classes: the label is always among the 5 best.
    QVERIFY2(r.out.contains("top-5 1.0000"), qPrintable(r.out));
    for (int64_t c = 0; c < 3; ++c) {
      const int64_t right = predicted.narrow(0, c * 4, 4).eq(c).sum().item<int64_t>();
      const QString line = QString("  %1 %2  4")
                               .arg(q("class" + std::to_string(c)), -24)
                               .arg(double(right) / 4.0, 0, 'f', 4);
      QVERIFY2(r.out.contains(line), qPrintable(r.out + "\nwanted: " + line));
    }
    std::ifstream in(kDir + "/summary.confusion.csv");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    QCOMPARE(lines.size(), size_t(4));
    QCOMPARE(lines[0], std::string("label/predicted,class0,class1,class2"));
    for (int64_t c = 0; c < 3; ++c) {
      std::string expected = "class" + std::to_string(c);
      for (int64_t j = 0; j < 3; ++j)
        expected += "," + std::to_string(predicted.narrow(0, c * 4, 4).eq(j).sum().item<int64_t>());
      QCOMPARE(lines[size_t(c + 1)], expected);
    }
  }

  void preprocessing_overrides_reach_the_transform() {
    // The run's student with every override: the logits equal the model run in process on the
    // test images through the transform those settings describe, and differ from the file's.
    const std::string a = kDir + "/overridden.safetensors", b = kDir + "/own.safetensors";
    AdalaResult r = run_adala({"predict", q(student_), q(test_root_), "--logits", q(a),
                               "--interpolation", "bicubic", "--crop-pct", "0.75", "--mean",
                               "0.5,0.5,0.5", "--std", "0.5", "--crop-mode", "center"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(!r.err.contains("assumed"), qPrintable(r.err));  // the file has its settings
    PretrainedConfig wanted =
        parse_pretrained_config(SafetensorsReader(student_).metadata().at(kPretrainedConfigKey));
    wanted.interpolation = "bicubic";
    wanted.crop_pct = 0.75;
    wanted.mean = {0.5, 0.5, 0.5};
    wanted.std = {0.5};
    VisionTransformer model = student_model();
    torch::NoGradGuard no_grad;
    const at::Tensor expected = model->forward(test_images(evaluation_transform(wanted)));
    QVERIFY2(
        at::allclose(read_tensor(a, "logits"), expected, 1e-5, 1e-6),
        qPrintable(QString("max diff %1")
                       .arg((read_tensor(a, "logits") - expected).abs().max().item<double>())));
    r = run_adala({"predict", q(student_), q(test_root_), "--logits", q(b)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(!at::allclose(read_tensor(a, "logits"), read_tensor(b, "logits"), 1e-3, 1e-4));
    // squash: both sides of the 40x48 image to 32 / crop_pct, then the centre crop (timm's).
    r = run_adala(
        {"predict", q(student_), q(test_root_), "--logits", q(a), "--crop-mode", "squash"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    wanted =
        parse_pretrained_config(SafetensorsReader(student_).metadata().at(kPretrainedConfigKey));
    wanted.crop_mode = "squash";
    QVERIFY(at::allclose(read_tensor(a, "logits"),
                         model->forward(test_images(evaluation_transform(wanted))), 1e-5, 1e-6));
  }

  void assumed_preprocessing_is_named_in_one_line() {
    const std::string path = plain_checkpoint();
    AdalaResult r = run_adala({"predict", q(path), q(test_root_ + "/class0/0.png")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("note: plain.safetensors has no adala.pretrained_cfg: assumed "
                            "interpolation bilinear, crop-mode center, crop-pct 0.875, mean 0, "
                            "std 1 (change with --interpolation, --crop-mode, --crop-pct, --mean, "
                            "--std)"),
             qPrintable(r.err));
    QCOMPARE(r.err.count("assumed"), 1);
    // What the user gives is no longer assumed; all of it: no line.
    r = run_adala({"embed", q(path), q(test_root_), "-o", q(kDir + "/e.safetensors"), "--mean",
                   "0.2", "--std", "0.3"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("assumed interpolation bilinear, crop-mode center, crop-pct 0.875 "
                            "(change with --interpolation, --crop-mode, --crop-pct)"),
             qPrintable(r.err));
    r = run_adala({"predict", q(path), q(test_root_), "--mean", "0.2", "--std", "0.3", "--crop-pct",
                   "1", "--interpolation", "bilinear", "--crop-mode", "squash"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(!r.err.contains("assumed"), qPrintable(r.err));
    // inspect-weights says the same, and what the options would make of it.
    r = run_adala({"inspect-weights", q(path), "--crop-mode", "none"});
    QVERIFY2(r.out.contains("data      input 1x28x28, crop-mode none (images must be 28x28), mean "
                            "0, std 1, 10 classes (assumed in part)"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("note: plain.safetensors has no adala.pretrained_cfg: assumed "
                            "interpolation bilinear, crop-pct 0.875, mean 0, std 1"),
             qPrintable(r.out));
  }

  void a_model_no_preset_fits_loads_with_its_head_count() {
    // Depth 6, width 48, 3 heads, timm names, no adala.config: no preset fits, and qkv's shape is
    // the same for any head count, so the file alone cannot be loaded.
    ViTConfig c = vit_preset("fmnist_micro");
    c.embed_dim = 48;
    c.depth = 6;
    c.num_heads = 3;
    c.num_classes = 3;
    c.in_chans = 3;
    c.img_size = 32;
    c.patch_size = 8;
    torch::manual_seed(5);
    VisionTransformer written(c);
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    for (const auto& p : written->named_parameters())
      if (p.key().find(".linear.") == std::string::npos) tensors.emplace_back(p.key(), p.value());
    const std::string path = kDir + "/depth6.safetensors";
    write_safetensors(path, tensors, {{"format", "pt"}});
    AdalaResult r = run_adala({"predict", q(path), q(test_root_)});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("no ViT preset fits these tensors") &&
                 r.err.contains("give it with --heads N, or the whole architecture with "
                                "--model-config FILE.json"),
             qPrintable(r.err));
    AdalaResult inspect = run_adala({"inspect-weights", q(path)});
    QVERIFY2(inspect.out.contains("uses      cannot load: ") &&
                 inspect.out.contains("give it with --heads N"),
             qPrintable(inspect.out));
    inspect = run_adala({"inspect-weights", q(path), "--heads", "3"});
    QVERIFY2(inspect.out.contains("uses      custom (from its shapes and --heads): D=48 depth=6 "
                                  "heads=3 patch=8 img=32 classes=3"),
             qPrintable(inspect.out));
    // With --heads: the logits of the model that wrote the file (default preprocessing).
    const std::string a = kDir + "/d6a.safetensors";
    r = run_adala({"predict", q(path), q(test_root_), "--heads", "3", "--logits", q(a)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    written->eval();
    torch::NoGradGuard no_grad;
    const at::Tensor expected =
        written->forward(test_images(evaluation_transform(default_pretrained_config(c))));
    QVERIFY(at::allclose(read_tensor(a, "logits"), expected, 1e-5, 1e-6));
    // Another head count loads too, and is another model: the flag matters.
    r = run_adala({"predict", q(path), q(test_root_), "--heads", "6", "--logits", q(a)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(!at::allclose(read_tensor(a, "logits"), expected, 1e-3, 1e-4));
    // --model-config: the same from a JSON file of ViTConfig fields.
    const std::string json = kDir + "/depth6.json";
    std::ofstream(json) << R"({"preset":"fmnist_micro","embed_dim":48,"depth":6,"num_heads":3,)"
                        << R"("num_classes":3,"in_chans":3,"img_size":32,"patch_size":8})";
    r = run_adala({"predict", q(path), q(test_root_), "--model-config", q(json), "--logits", q(a)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(at::allclose(read_tensor(a, "logits"), expected, 1e-5, 1e-6));
    // export records what the flags said: the next command needs none.
    const std::string exported = kDir + "/depth6-export.safetensors";
    r = run_adala(
        {"export", q(path), "--heads", "3", "--mean", "0.5", "--std", "0.5", "-o", q(exported)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("assumed interpolation bilinear, crop-mode center, crop-pct 0.875"),
             qPrintable(r.err));
    r = run_adala({"predict", q(exported), q(test_root_), "--logits", q(a)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(!r.err.contains("assumed"), qPrintable(r.err));
    PretrainedConfig half = default_pretrained_config(c);
    half.mean = {0.5};
    half.std = {0.5};
    QVERIFY(at::allclose(read_tensor(a, "logits"),
                         written->forward(test_images(evaluation_transform(half))), 1e-5, 1e-6));
    const ViTConfig recorded = config_of_weights_file(exported);
    QCOMPARE(recorded.num_heads, int64_t(3));
    QCOMPARE(recorded.depth, int64_t(6));
  }

  void shipped_checkpoints_carry_their_settings() {
    // Every checkpoint under experiments/ records how it reads images: without that a command
    // silently evaluates what the model never saw.
    int found = 0;
    for (const auto& e : fs::recursive_directory_iterator(ADALA_SOURCE_DIR "/experiments")) {
      if (e.path().extension() != ".safetensors") continue;
      ++found;
      const std::string path = e.path().string();
      const SafetensorsReader reader(path);
      QVERIFY2(reader.metadata().count(kPretrainedConfigKey), path.c_str());
      const ViTConfig model = config_of_weights_file(path);
      const PretrainedConfig c = pretrained_config_from_metadata(reader.metadata(), model);
      QCOMPARE(c.num_classes, model.num_classes);
      QCOMPARE(int64_t(c.label_names.size()), model.num_classes);
      if (model.in_chans == 1) {  // Fashion-MNIST and its scenes: as they are, pixels in [0, 1]
        QCOMPARE(c.crop_mode, std::string("none"));
        // 0 and 1 as written in the checkpoint's metadata JSON and read back.
        ADALA_COMPARE_EXACT(c.mean, std::vector<double>{0.0});
        ADALA_COMPARE_EXACT(c.std, std::vector<double>{1.0});
        // The classifier reads 28x28 garments; the scene teacher (a backbone, no head) 112x112
        // scenes.
        QCOMPARE(c.resolution, model.num_classes > 0 ? int64_t(28) : int64_t(112));
        QCOMPARE(c.resolution, model.img_size);
        if (model.num_classes > 0) {
          QCOMPARE(c.label_names.front(), std::string("T-shirt/top"));
          QCOMPARE(c.label_names.back(), std::string("Ankle boot"));
        }
      }
      const InferenceModel m = load_inference_model(path, torch::kCPU);
      QVERIFY2(m.preprocessing_note.empty(), m.preprocessing_note.c_str());
    }
    QVERIFY(found > 0);
  }

  void bad_command_lines_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString s = q(student_), t = q(test_root_);
    const QString missing = q(kDir + "/missing.safetensors");
    fs::create_directories(kDir + "/empty");
    std::ofstream(kDir + "/notes.txt") << "not an image";
    std::ofstream(kDir + "/two.txt") << "class0\nclass1\n";
    QTest::newRow("missing weights")
        << QStringList{"predict", missing, t} << 1 << missing + ": no such weights file";
    QTest::newRow("missing image") << QStringList{"predict", s, q(kDir + "/nope.png")} << 1
                                   << q(kDir + "/nope.png: no such file or folder");
    QTest::newRow("empty folder") << QStringList{"predict", s, q(kDir + "/empty")} << 1
                                  << q(kDir + "/empty: no images in the folder");
    QTest::newRow("not an image") << QStringList{"predict", s, q(kDir + "/notes.txt")} << 1
                                  << q(kDir + "/notes.txt: not an image file");
    QTest::newRow("top 0") << QStringList{"predict", s, t, "--top", "0"} << 2 << "--top";
    QTest::newRow("res not a patch multiple") << QStringList{"predict", s, t, "--res", "30"} << 1
                                              << "--res 30: not a multiple of the patch size 8";
    QTest::newRow("classes of another count")
        << QStringList{"predict", s, t, "--classes", q(kDir + "/two.txt")} << 1
        << "2 class names, but the model has 3 outputs";
    QTest::newRow("classes missing")
        << QStringList{"predict", s, t, "--classes", q(kDir + "/none.txt")} << 1
        << q(kDir + "/none.txt: cannot open the class list");
    QTest::newRow("no images") << QStringList{"predict", s} << 2 << "IMAGES is required";
    QTest::newRow("bad tokens")
        << QStringList{"embed", s, t, "-o", q(kDir + "/f.safetensors"), "--tokens", "mean"} << 2
        << "--tokens: mean not in {cls,patch,all}";
    QTest::newRow("embed without -o") << QStringList{"embed", s, t} << 2 << "--output is required";
    QTest::newRow("embed empty folder")
        << QStringList{"embed", s, q(kDir + "/empty"), "-o", q(kDir + "/f.safetensors")} << 1
        << q(kDir + "/empty: no images in the folder");
    QTest::newRow("export missing weights")
        << QStringList{"export", missing, "-o", q(kDir + "/x.safetensors")} << 1
        << missing + ": no such weights file";
    QTest::newRow("export over itself")
        << QStringList{"export", s, "-o", s} << 2 << "-o: the output would overwrite WEIGHTS";
    QTest::newRow("mean of another count")
        << QStringList{"predict", s, t, "--mean", "0.1,0.2"} << 1 << "--mean: needs 1 or 3 entries";
    QTest::newRow("std of zero") << QStringList{"predict", s, t, "--std", "0"} << 1 << "--std";
    QTest::newRow("crop-pct above 1")
        << QStringList{"predict", s, t, "--crop-pct", "1.5"} << 2 << "--crop-pct";
    QTest::newRow("unknown crop mode")
        << QStringList{"embed", s, t, "-o", q(kDir + "/f.safetensors"), "--crop-mode", "border"}
        << 2 << "--crop-mode: border not in {center,squash,none}";
    QTest::newRow("unknown interpolation")
        << QStringList{"export", s, "-o", q(kDir + "/x.safetensors"), "--interpolation", "lanczos"}
        << 2 << "--interpolation: lanczos not in {bilinear,bicubic}";
    QTest::newRow("heads not dividing the width")
        << QStringList{"predict", s, t, "--heads", "5"} << 1
        << "embed_dim (32) must be divisible by num_heads (5)";
    QTest::newRow("missing model config")
        << QStringList{"predict", s, t, "--model-config", q(kDir + "/none.json")} << 1
        << q(kDir + "/none.json: cannot read the model config");
    QTest::newRow("export classes of another count")
        << QStringList{"export",    s,
                       "-o",        q(kDir + "/x.safetensors"),
                       "--classes", q(kDir + "/two.txt")}
        << 1 << "2 class names, but";
    QTest::newRow("export a folder") << QStringList{"export", t, "-o", q(kDir + "/x.safetensors")}
                                     << 1 << t + ": not a weights file";
  }

  void bad_command_lines() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const AdalaResult r = run_adala(args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
  }
};

ADALA_TEST_GUILESS_MAIN(TestInferCommands)
}  // namespace test_infer_commands

#include "test_infer_commands.moc"
