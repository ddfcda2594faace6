// The scene teacher's pretraining (engine/seg/scene_teacher.h) on a micro budget: what its file
// holds, and that a cancelled pretraining resumes to the weights of an uninterrupted one.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>

#include "engine/io/safetensors.h"
#include "engine/model/load_weights.h"
#include "engine/seg/scene_teacher.h"
#include "engine/train/config/pretrained_config.h"
#include "engine/train/stage_checkpoint.h"
#include "tests/support/cancel_after_sink.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_scene_teacher {

using namespace adala;
namespace fs = std::filesystem;

namespace {

// 12 scenes in batches of 4 for 2 epochs: 6 steps, a checkpoint every 2.
ExperimentConfig micro_config(const std::string& init) {
  Json j = parse_json_strict(R"({
    "name": "scene-teacher-test", "seed": 5, "device": "cpu",
    "model": {"preset": "fmnist_micro", "patch_size": 8, "img_size": 32},
    "segmentation": {
      "data": {"dataset": "fashion-mnist-scenes", "image_size": 32, "train_images": 4,
               "val_images": 6, "min_garments": 1, "max_garments": 2,
               "min_scale": 0.4, "max_scale": 0.7},
      "eval_batch_size": 4,
      "pretrain": {"init": "", "images": 12, "first_scene": 1000000, "epochs": 2,
                   "batch_size": 4, "lr": 0.003, "warmup_steps": 1, "log_every": 1,
                   "checkpoint_every": 2}
    }})");
  j["segmentation"]["pretrain"]["init"] = init;
  return parse_experiment_config(j);
}

std::map<std::string, at::Tensor> tensors_of(const std::string& path) {
  return SafetensorsReader(path).load_all();
}

}  // namespace

class TestSceneTeacher : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    dir_ = adala_test::fresh_test_dir("scene_teacher", "files");
    torch::manual_seed(0);
    VisionTransformer classifier(vit_preset("fmnist_micro"));
    init_ = dir_ + "/classifier.safetensors";
    save_weights(classifier, init_);
  }

  // The file is the re-cut backbone after training: no head, the scene teacher's data settings,
  // and weights moved away from the classifier's.
  void writes_a_headless_backbone_with_its_data_settings() {
    const std::string out = dir_ + "/plain/teacher.safetensors";
    RecordingSink sink;
    JobControl control;
    const SceneTeacherResult r =
        pretrain_scene_teacher(micro_config(init_), out, "cpu", sink, control);
    QCOMPARE(QString::fromStdString(r.path), QString::fromStdString(out));
    QCOMPARE(r.resumed_from_step, int64_t(0));
    QCOMPARE(int(sink.steps("scene_pretraining").size()), 6);
    const double miou = r.validation.confusion.mean_iou();
    QVERIFY2(miou >= 0.0 && miou <= 1.0, qPrintable(QString::number(miou)));
    QVERIFY2(!fs::exists(scene_teacher_checkpoint_path(out)), "the checkpoint outlived the file");

    SafetensorsReader reader(out);
    QCOMPARE(QString::fromStdString(reader.metadata().at("adala.stage")),
             QString("scene_pretraining"));
    const PretrainedConfig settings =
        parse_pretrained_config(reader.metadata().at(kPretrainedConfigKey));
    QCOMPARE(settings.resolution, int64_t(32));
    QCOMPARE(settings.in_chans, int64_t(1));
    QCOMPARE(settings.num_classes, int64_t(0));
    // Grey scenes as they are: the constants 0 and 1, written to the metadata JSON and read back.
    ADALA_COMPARE_EXACT(settings.mean, std::vector<double>{0.0});
    ADALA_COMPARE_EXACT(settings.std, std::vector<double>{1.0});
    VisionTransformer teacher = load_model(out, c10::kCPU);
    QCOMPARE(teacher->config().patch_size, int64_t(8));
    QCOMPARE(teacher->config().img_size, int64_t(32));
    QCOMPARE(teacher->config().num_classes, int64_t(0));

    // Block 1's query-key-value weights: trained, so no longer the re-cut classifier's.
    const auto trained = tensors_of(out);
    const auto original = tensors_of(init_);
    const std::string qkv = "blocks.0.attn.qkv.weight";
    QVERIFY(trained.count(qkv) && original.count(qkv));
    QCOMPARE(trained.at(qkv).sizes(), original.at(qkv).sizes());
    QVERIFY(!torch::allclose(trained.at(qkv), original.at(qkv)));
  }

  // Cancelled after step 3, the pretraining leaves its checkpoint and no file; the same call
  // then resumes there and writes the weights an uninterrupted run writes.
  void a_cancelled_pretraining_resumes_to_the_uninterrupted_weights() {
    const ExperimentConfig config = micro_config(init_);
    const std::string whole = dir_ + "/whole/teacher.safetensors";
    {
      RecordingSink sink;
      JobControl control;
      pretrain_scene_teacher(config, whole, "cpu", sink, control);
    }
    const std::string out = dir_ + "/resumed/teacher.safetensors";
    const std::string checkpoint = scene_teacher_checkpoint_path(out);
    {
      JobControl control;
      adala_test::CancelAfterSink sink(control, 3);
      QVERIFY_EXCEPTION_THROWN(pretrain_scene_teacher(config, out, "cpu", sink, control),
                               JobCancelled);
    }
    QVERIFY(!fs::exists(out));
    QVERIFY(fs::exists(checkpoint));
    const int64_t stopped_at = checkpoint_step(checkpoint);
    QVERIFY2(stopped_at >= 3 && stopped_at < 6, qPrintable(QString::number(stopped_at)));

    RecordingSink sink;
    JobControl control;
    const SceneTeacherResult r = pretrain_scene_teacher(config, out, "cpu", sink, control);
    QCOMPARE(r.resumed_from_step, stopped_at);
    QCOMPARE(int64_t(sink.steps("scene_pretraining").size()), 6 - stopped_at);
    QVERIFY(!fs::exists(checkpoint));
    const auto expected = tensors_of(whole);
    const auto resumed = tensors_of(out);
    QCOMPARE(resumed.size(), expected.size());
    for (const auto& [name, t] : expected) {
      QVERIFY2(resumed.count(name), name.c_str());
      QVERIFY2(torch::allclose(resumed.at(name), t, 1e-5, 1e-6), name.c_str());
    }
  }

  // `adala segment c.json --pretrain-teacher t.safetensors`: a bare file name checkpoints in the
  // working folder (it used to fail creating the folder "").
  void a_bare_file_name_checkpoints_in_the_working_folder() {
    const fs::path before = fs::current_path();
    const fs::path here = fs::path(dir_) / "bare";
    fs::create_directories(here);
    fs::current_path(here);
    JobControl control;
    adala_test::CancelAfterSink sink(control, 1);
    bool cancelled = false;
    try {
      pretrain_scene_teacher(micro_config(init_), "teacher.safetensors", "cpu", sink, control);
    } catch (const JobCancelled&) {
      cancelled = true;
    }
    fs::current_path(before);
    QVERIFY(cancelled);
    QVERIFY(fs::exists(here / "teacher.safetensors.checkpoint"));
    QVERIFY(!fs::exists(here / "teacher.safetensors"));
  }

 private:
  std::string dir_;
  std::string init_;
};

ADALA_TEST_GUILESS_MAIN(TestSceneTeacher)
}  // namespace test_scene_teacher

#include "test_scene_teacher.moc"
