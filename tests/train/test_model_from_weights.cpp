// A config without model.preset whose teacher.weights is given: the model is the file's
// (matched preset), the input size the config's, num_classes data.train's; Stage 3 starts a
// fresh head when the checkpoint's differs, and says so in the run's log.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>

#include <opencv2/imgcodecs.hpp>

#include "engine/model/load_weights.h"
#include "engine/io/safetensors.h"
#include "engine/model/weights_file_config.h"
#include "engine/train/pipeline.h"
#include "engine/train/config/pretrained_config.h"
#include "engine/train/run_preflight.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_model_from_weights {

using namespace adala;
namespace fs = std::filesystem;

namespace {

const std::string kDir = ADALA_TEST_TMP "/model_from_weights";

// A timm-style file (tensors only, no adala metadata) of an fmnist_micro with 10 classes.
std::string write_plain_teacher() {
  torch::manual_seed(2);
  VisionTransformer teacher(vit_preset("fmnist_micro"));
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  for (const auto& p : teacher->named_parameters())
    if (p.key().find(".linear.") == std::string::npos) tensors.emplace_back(p.key(), p.value());
  const std::string path = kDir + "/teacher_plain.safetensors";
  write_safetensors(path, tensors, {{"format", "pt"}});
  return path;
}

// 3 classes of 8 grey 28x28 images.
std::string write_grey_folders() {
  const std::string root = kDir + "/grey";
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < 8; ++i) {
      cv::Mat m(28, 28, CV_8UC1);
      for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x) m.at<uchar>(y, x) = uchar((c * 70 + x * y + i * 3) % 256);
      const fs::path p = fs::path(root) / ("c" + std::to_string(c)) / (std::to_string(i) + ".png");
      fs::create_directories(p.parent_path());
      cv::imwrite(p.string(), m);
    }
  return root;
}

Json document(const std::string& teacher, const std::string& model, const std::string& root) {
  Json doc = parse_json_strict(
      R"({"name":"deduced","seed":4,"device":"cpu","model":)" + model +
      R"(,"data":{"decode_threads":0,"train":{"source":"image-folder","channels":1}},)"
      R"("stages":{"fine_tuning":{"max_steps":2,"batch_size":8}}})");
  doc["teacher"] = Json::object({{"weights", teacher}});
  doc["data"]["train"]["root"] = root;
  doc["output"] = Json::object({{"runs_dir", kDir}});
  return doc;
}

std::string config_error(const Json& doc) {
  try {
    parse_experiment_config(doc);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

class TestModelFromWeights : public QObject {
  Q_OBJECT
  std::string teacher_, root_;

 private slots:
  void initTestCase() {
    fs::remove_all(kDir);
    fs::create_directories(kDir);
    teacher_ = write_plain_teacher();
    root_ = write_grey_folders();
  }

  void the_preset_comes_from_the_file() {
    const ExperimentConfig c = parse_experiment_config(document(teacher_, "{}", root_));
    QVERIFY(c.model_from_weights);
    QVERIFY(c.num_classes_from_data);
    ViTConfig expected = vit_preset("fmnist_micro");
    QCOMPARE(c.model.embed_dim, expected.embed_dim);
    QCOMPARE(c.model.depth, expected.depth);
    QCOMPARE(c.model.num_heads, expected.num_heads);
    QCOMPARE(c.model.patch_size, expected.patch_size);
    QCOMPARE(c.model.in_chans, int64_t(1));
    QCOMPARE(c.model.img_size, int64_t(28));
    QCOMPARE(c.model.num_classes, int64_t(10));  // the file's, until the data is opened
    // The input size from the config; num_classes given: not from the data.
    const ExperimentConfig r =
        parse_experiment_config(document(teacher_, R"({"img_size":32,"num_classes":10})", root_));
    QCOMPARE(r.model.img_size, int64_t(32));
    QCOMPARE(r.model.embed_dim, expected.embed_dim);
    QVERIFY(!r.num_classes_from_data);
    // A preset given: the old behaviour, the file is not read for the model.
    const ExperimentConfig p =
        parse_experiment_config(document(teacher_, R"({"preset":"fmnist_tiny"})", root_));
    QVERIFY(!p.model_from_weights);
    QCOMPARE(p.model.embed_dim, vit_preset("fmnist_tiny").embed_dim);
    // Its class count too is only a starting point: without num_classes, data.train's count.
    QVERIFY(p.num_classes_from_data);
    const ExperimentConfig n = parse_experiment_config(
        document(teacher_, R"({"preset":"fmnist_tiny","num_classes":10})", root_));
    QVERIFY(!n.num_classes_from_data);
  }

  // A preset whose head differs from the data (fmnist_micro: 10; the folders: 3): the run
  // trains a head for the data's classes.
  void a_presets_head_takes_the_datas_class_count() {
    const ExperimentConfig c =
        parse_experiment_config(document(teacher_, R"({"preset":"fmnist_micro"})", root_));
    RecordingSink sink;
    JobControl control;
    PipelineOptions o;
    o.stages = {3};
    o.run_dir = kDir + "/preset-run";
    run_pipeline(c, o, sink, control);
    QCOMPARE(head_classes_of_weights_file(stage_output_path(o.run_dir, 3)), int64_t(3));
  }

  void errors_name_the_field() {
    const std::string missing = kDir + "/none.safetensors";
    QCOMPARE(q(config_error(document(missing, "{}", root_))),
             q("teacher.weights: file not found: " + missing +
               " (needed to deduce the model: model.preset is left out)"));
    const std::string not_vit = kDir + "/not_vit.safetensors";
    write_safetensors(not_vit, {{"x", at::zeros({2, 2})}});
    const QString message = q(config_error(document(not_vit, "{}", root_)));
    QVERIFY2(message.startsWith(q("teacher.weights: cannot deduce the model (give model.preset): " +
                                  not_vit + ": no \"adala.config\" metadata and")),
             qPrintable(message));
    // The file's model takes grey images: an RGB source is refused, naming the field.
    Json rgb = document(teacher_, "{}", root_);
    rgb["data"]["train"]["channels"] = 3;
    QVERIFY2(q(config_error(rgb))
                 .startsWith("data.train.channels: 3-channel images, but the model "
                             "takes 1 (model.in_chans)"),
             qPrintable(q(config_error(rgb))));
    QVERIFY2(q(config_error(document(teacher_, R"({"img_size":30})", root_)))
                 .startsWith("model.patch_size: 4 does not divide img_size 30"),
             qPrintable(q(config_error(document(teacher_, R"({"img_size":30})", root_)))));
  }

  void stage3_starts_a_fresh_head_for_the_datas_classes() {
    const ExperimentConfig c =
        parse_experiment_config(document(teacher_, R"({"img_size":32})", root_));
    RecordingSink sink;
    JobControl control;
    PipelineOptions o;
    o.stages = {3};
    o.run_dir = kDir + "/run";
    // The checks before a run is recorded load the teacher as the pipeline will: its own head,
    // position embeddings resampled from 7x7 to 8x8.
    try {
      check_run_inputs(c, o);
    } catch (const ConfigError& e) {
      QFAIL(e.what());
    }
    const PipelineResult r = run_pipeline(c, o, sink, control);
    std::vector<std::string> log;
    for (const auto& e : sink.events())
      if (const auto* l = std::get_if<LogEvent>(&e)) log.push_back(l->message);
    auto logged = [&](const std::string& text) {
      for (const auto& line : log)
        if (line.find(text) != std::string::npos) return true;
      return false;
    };
    QVERIFY(
        logged("fine_tuning: the checkpoint's head has 10 classes, the data 3: Stage 3 starts "
               "a fresh head"));
    QVERIFY(logged("32x32 input, 3 classes from data.train"));
    QVERIFY(logged("teacher: its head has 10 classes, the data 3: no teacher top-1"));
    QVERIFY(std::isnan(r.teacher_top1));
    QVERIFY(r.student_top1 >= 0.0 && r.student_top1 <= 1.0);
    // The student has the data's head and its class names; its position grid is 8x8 (32 / 4).
    const std::string student = stage_output_path(o.run_dir, 3);
    QCOMPARE(head_classes_of_weights_file(student), int64_t(3));
    const SafetensorsReader reader(student);
    QCOMPARE(reader.info("pos_embed").shape, (std::vector<int64_t>{1, 1 + 64, 32}));
    const PretrainedConfig data =
        parse_pretrained_config(reader.metadata().at(kPretrainedConfigKey));
    QCOMPARE(data.label_names, (std::vector<std::string>{"c0", "c1", "c2"}));
    QCOMPARE(data.resolution, int64_t(32));
    // The teacher copy keeps the checkpoint's head (10), so it names no classes.
    QCOMPARE(head_classes_of_weights_file(stage_output_path(o.run_dir, 0)), int64_t(10));
    // Resuming the finished run loads both files back with their own heads.
    RecordingSink again;
    const PipelineResult resumed = run_pipeline(c, o, again, control);
    // The same weights (read back from the file the first run wrote) on the same images through
    // the same loader: the same count of correct over the same size.
    ADALA_COMPARE_EXACT(resumed.student_top1, r.student_top1);
  }

 private:
  static QString q(const std::string& s) { return QString::fromStdString(s); }
};

ADALA_TEST_GUILESS_MAIN(TestModelFromWeights)
}  // namespace test_model_from_weights

#include "test_model_from_weights.moc"
