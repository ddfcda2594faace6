// What a run checks before it is recorded (run_preflight.h), on hand-made data folders, and
// run folders made atomically (make_run_dir).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <future>
#include <set>
#include <string>
#include <vector>

#include "engine/model/load_weights.h"
#include "engine/train/pipeline.h"
#include "engine/train/run_preflight.h"
#include "tests/support/test_dirs.h"
#include "tests/support/blank_idx_folder.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_run_inputs {

using namespace adala;
namespace fs = std::filesystem;

namespace {

std::string fresh_dir(const std::string& name) {
  return adala_test::fresh_test_dir("run-inputs", name);
}

// A data folder whose idx files hold `count` images of side x side pixels (headers and
// zero pixels), labelled 0.
std::string data_root(const std::string& name, uint32_t side, uint32_t count = 4) {
  return adala_test::write_blank_idx_folder(fresh_dir(name), side, count);
}

ExperimentConfig micro_config(const std::string& root) {
  ExperimentConfig c;
  c.name = "inputs";
  c.model = vit_preset("fmnist_micro");
  c.data.root = root;
  return c;
}

PipelineOptions stages(std::vector<int> list) {
  PipelineOptions o;
  o.stages = std::move(list);
  return o;
}

// The ConfigError of check_run_inputs ("" when the inputs pass).
std::string input_error(const ExperimentConfig& c, const PipelineOptions& o) {
  try {
    check_run_inputs(c, o);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class TestRunInputs : public QObject {
  Q_OBJECT
 private slots:
  void good_inputs_pass() {
    QCOMPARE(QString::fromStdString(
                 input_error(micro_config(data_root("good", 28)), stages({0, 1, 2, 3}))),
             QString());
  }

  void stage_lists_are_checked() {
    const ExperimentConfig c = micro_config(data_root("stages", 28));
    QCOMPARE(QString::fromStdString(input_error(c, stages({1, 1}))),
             QString("--stages: stage 1 is listed twice"));
    QCOMPARE(QString::fromStdString(input_error(c, stages({0, 4}))),
             QString("--stages: stage 4 does not exist (0..3)"));
    QCOMPARE(QString::fromStdString(input_error(c, stages({}))),
             QString("--stages: no stage selected"));
  }

  void model_must_fit_the_data() {
    const std::string root = data_root("fit", 28);
    ExperimentConfig c = micro_config(root);
    c.model.in_chans = 3;
    QCOMPARE(QString::fromStdString(input_error(c, stages({0}))),
             QString::fromStdString("model.in_chans: 3, but the Fashion-MNIST images in " + root +
                                    " have 1 channel"));
    c = micro_config(root);
    c.model.num_classes = 5;
    QCOMPARE(QString::fromStdString(input_error(c, stages({0}))),
             QString("model.num_classes: 5, but Fashion-MNIST has 10 classes"));
    // img_size 30 divides by 5, the 28-pixel images do not.
    c = micro_config(root);
    c.model.img_size = 30;
    c.model.patch_size = 5;
    QCOMPARE(QString::fromStdString(input_error(c, stages({0}))),
             QString::fromStdString("model.patch_size: 5 does not divide the 28-pixel side of the "
                                    "images in " +
                                    root + " (the last 3 pixels would be cropped)"));
  }

  void missing_or_malformed_data_is_named() {
    const std::string empty = fresh_dir("no-data");
    std::string what = input_error(micro_config(empty), stages({0}));
    QVERIFY2(what.rfind("data.root: Fashion-MNIST file not found: expected " + empty, 0) == 0,
             what.c_str());
    const std::string root = data_root("bad-header", 28);
    std::ofstream(root + "/t10k-images-idx3-ubyte", std::ios::binary | std::ios::trunc)
        << adala_test::be32(0x803) + adala_test::be32(0) + adala_test::be32(28) +
               adala_test::be32(28);
    what = input_error(micro_config(root), stages({0}));
    QCOMPARE(QString::fromStdString(what),
             QString::fromStdString("data.root: " + root +
                                    "/t10k-images-idx3-ubyte: the header says it holds 0 images"));
  }

  void teacher_weights_are_tried_before_the_run() {
    const std::string root = data_root("teacher", 28);
    ExperimentConfig c = micro_config(root);
    VisionTransformer teacher(c.model);
    {
      torch::NoGradGuard no_grad;
      teacher->named_parameters()["head.weight"][1][2] = std::numeric_limits<float>::quiet_NaN();
    }
    c.teacher_weights = root + "/nan-teacher.safetensors";
    save_weights(teacher, c.teacher_weights);
    std::string what = input_error(c, stages({1, 2, 3}));
    QVERIFY2(what.rfind("teacher.weights: " + c.teacher_weights +
                            ": tensor \"head.weight\" holds 1 "
                            "non-finite value",
                        0) == 0,
             what.c_str());
    ExperimentConfig none = micro_config(root);
    QCOMPARE(QString::fromStdString(input_error(none, stages({1, 2}))),
             QString("teacher.weights: no teacher: select stage 0 or give pretrained weights"));
    PipelineOptions allow = stages({1, 2, 3});
    allow.allow_nonfinite = true;
    QCOMPARE(QString::fromStdString(input_error(c, allow)), QString());

    ExperimentConfig other = c;
    other.model = vit_preset("fmnist_tiny");  // another width: nothing fits
    what = input_error(other, stages({1}));
    QVERIFY2(what.find("teacher.weights: " + c.teacher_weights + ": the weights do not fit") == 0,
             what.c_str());
  }

  // Threads racing for the same second's folder each get their own, and it exists.
  void run_folders_are_created_atomically() {
    ExperimentConfig c = micro_config("");
    c.runs_dir = fresh_dir("runs");
    std::vector<std::future<std::string>> made;
    for (int i = 0; i < 8; ++i)
      made.push_back(std::async(std::launch::async, [&c] { return make_run_dir(c); }));
    std::set<std::string> folders;
    for (auto& f : made) folders.insert(f.get());
    QCOMPARE(folders.size(), size_t(8));
    for (const auto& f : folders) {
      QVERIFY2(fs::is_directory(f), f.c_str());
      QVERIFY2(f.rfind(c.runs_dir + "/inputs-", 0) == 0, f.c_str());
    }
    const std::string segment = make_run_dir(c, "-segment");
    QVERIFY2(segment.find("-segment") != std::string::npos && fs::is_directory(segment),
             segment.c_str());
  }
};

ADALA_TEST_GUILESS_MAIN(TestRunInputs)
}  // namespace test_run_inputs

#include "test_run_inputs.moc"
