// The stages drawing batches from the loader: Fashion-MNIST written as PNGs gives, through
// image-list, the same losses and top-1 as the idx default; resume mid-epoch through a
// threaded image-folder loader gives the same next losses; bad and unusable data is named
// before or while training.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <filesystem>

#include <opencv2/imgcodecs.hpp>

#include "engine/io/text_file.h"
#include "engine/data/fashion_mnist.h"
#include "engine/data/opencv/fashion_mnist_export.h"
#include "engine/train/pipeline.h"
#include "engine/train/stage_checkpoint.h"
#include "engine/train/stages.h"
#include "tests/support/cancel_after_sink.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"
#include "tests/support/error_text.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_streaming_stages {

using namespace adala;
namespace fs = std::filesystem;

namespace {

std::string fresh(const std::string& name) { return adala_test::fresh_test_dir("streaming", name); }

bool have_fashion_mnist() {
  return fs::exists(default_fashion_mnist_root() + "/train-images-idx3-ubyte.gz");
}

Json micro_document(const std::string& runs_dir, const std::string& data) {
  Json doc = parse_json_strict(
      "{\"name\":\"stream\",\"seed\":5,\"device\":\"cpu\",\"model\":{\"preset\":\"fmnist_micro\"},"
      "\"data\":" +
      data +
      ","
      "\"stages\":{\"teacher\":{\"max_steps\":6,\"batch_size\":32},"
      "\"attention_alignment\":{\"max_steps\":4,\"batch_size\":32},"
      "\"feature_alignment\":{\"max_steps\":4,\"batch_size\":32},"
      "\"fine_tuning\":{\"max_steps\":4,\"batch_size\":32}}}");
  doc["output"] = Json::object();
  doc["output"]["runs_dir"] = Json(runs_dir);
  return doc;
}

std::vector<double> all_losses(const RecordingSink& sink) {
  std::vector<double> out;
  for (int s = 0; s < 4; ++s)
    for (const auto& m : sink.steps(stage_name(s))) out.push_back(m.loss);
  return out;
}

// 3 classes of 16 colour images, 40x48, whose pixels depend on (class, index).
std::string write_class_folders(const std::string& dir) {
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < 16; ++i) {
      cv::Mat m(40, 48, CV_8UC3);
      for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 48; ++x)
          m.at<cv::Vec3b>(y, x) =
              cv::Vec3b(uchar(c * 80 + x), uchar(i * 15 + y), uchar((x * y + i) % 256));
      const fs::path p =
          fs::path(dir) / ("class" + std::to_string(c)) / (std::to_string(i) + ".png");
      fs::create_directories(p.parent_path());
      cv::imwrite(p.string(), m);
    }
  return dir;
}

ExperimentConfig rgb_config(const std::string& root, int64_t threads,
                            const std::string& extra = "") {
  Json doc = parse_json_strict(
      "{\"seed\":11,\"model\":{\"preset\":\"fmnist_micro\",\"in_chans\":3,\"img_size\":32,"
      "\"patch_size\":8,\"num_classes\":3},"
      "\"data\":{\"decode_threads\":" +
      std::to_string(threads) + ",\"prefetch\":2" + extra +
      ",\"train\":{\"source\":\"image-folder\",\"root\":\"" + root +
      "\"}},"
      "\"stages\":{\"feature_alignment\":{\"max_steps\":8,\"batch_size\":8,\"augment\":true},"
      "\"teacher\":{\"max_steps\":3,\"batch_size\":8}}}");
  return parse_experiment_config(doc);
}

}  // namespace

class TestStreamingStages : public QObject {
  Q_OBJECT
 private slots:
  void png_list_reaches_the_same_losses_and_top1_as_the_idx_files() {
    if (!have_fashion_mnist()) QSKIP("dataset-fashion-mnist not installed");
    const std::string dir = fresh("equivalence");
    const auto train =
        export_fashion_mnist(default_fashion_mnist_root(), "train", dir + "/png", 256);
    const auto test = export_fashion_mnist(default_fashion_mnist_root(), "test", dir + "/png", 128);
    torch::manual_seed(0);
    RecordingSink idx_sink, png_sink;
    JobControl control;
    PipelineOptions o;
    o.run_dir = dir + "/idx";
    const PipelineResult a =
        run_pipeline(parse_experiment_config(micro_document(
                         dir, "{\"train_limit\":256,\"test_limit\":128,\"decode_threads\":0}")),
                     o, idx_sink, control);
    o.run_dir = dir + "/png_run";
    const std::string list_source =
        "{\"source\":\"image-list\",\"channels\":1,\"preprocess\":\"none\",\"list\":\"";
    const PipelineResult b =
        run_pipeline(parse_experiment_config(micro_document(
                         dir, "{\"decode_threads\":3,\"train\":" + list_source + train.list_path +
                                  "\"},\"eval\":" + list_source + test.list_path + "\"}}")),
                     o, png_sink, control);
    const auto la = all_losses(idx_sink), lb = all_losses(png_sink);
    QCOMPARE(la.size(), size_t(6 + 4 + 4 + 4));
    // The PNGs decode to the idx bytes and "none" divides them by 255 with the very operation
    // load_fashion_mnist uses (image_transform.cpp): the same images, the same seed, the same
    // computation in this process, so the same bits; top-1 is a count over the test slice.
    ADALA_COMPARE_EXACT(lb, la);
    ADALA_COMPARE_EXACT(b.teacher_top1, a.teacher_top1);
    ADALA_COMPARE_EXACT(b.student_top1, a.student_top1);
    for (const auto& m : png_sink.steps(stage_name(0)))
      QVERIFY(m.data_wait_share >= 0.0 && m.data_wait_share <= 1.0);
  }

  void resume_mid_epoch_through_threaded_image_folder() {
    const std::string root = write_class_folders(fresh("folder") + "/train");
    const ExperimentConfig c = rgb_config(root, 3);
    const StageData data = open_stage_data(c.data.alignment, c.data, "data.alignment");
    QCOMPARE(data.size(), int64_t(48));  // 6 steps per epoch: step 4 is mid-epoch
    auto run = [&](const std::string& dir, int64_t cancel_after, RecordingSink& sink) {
      torch::manual_seed(3);
      VisionTransformer teacher(c.model);
      VisionTransformer student = clone_model(teacher, torch::kCPU);
      JobControl control;
      adala_test::CancelAfterSink cancel(control, cancel_after);
      StageContext ctx{c, torch::kCPU, cancel, control, dir};
      bool done = true;
      try {
        FeatureAlignmentStage(ctx).run(teacher, student, data);
      } catch (const JobCancelled&) {
        done = false;
      }
      for (const auto& e : cancel.events()) sink.on_event(e);
      return done;
    };
    RecordingSink straight, first, second;
    QVERIFY(run(fresh("straight"), 0, straight));
    const std::string dir = fresh("split");
    fs::create_directories(dir + "/checkpoints");
    QVERIFY(!run(dir, 4, first));
    QCOMPARE(checkpoint_step(dir + "/checkpoints/feature_alignment.pt"), int64_t(4));
    QVERIFY(run(dir, 0, second));
    std::vector<double> a, r;
    for (const auto& m : straight.steps(stage_name(2))) a.push_back(m.loss);
    for (const auto& m : second.steps(stage_name(2))) r.push_back(m.loss);
    QCOMPARE(a.size(), size_t(8));
    QCOMPARE(r.size(), size_t(4));
    // Bit-identical continuation: the checkpoint holds the exact state, the steps replay the same
    // computation.
    for (size_t i = 0; i < 4; ++i) ADALA_COMPARE_EXACT(r[i], a[4 + i]);
    // And the same with one decode thread, straight through.
    const ExperimentConfig one = rgb_config(root, 1);
    RecordingSink single;
    {
      torch::manual_seed(3);
      VisionTransformer teacher(one.model);
      VisionTransformer student = clone_model(teacher, torch::kCPU);
      JobControl control;
      StageContext ctx{one, torch::kCPU, single, control, ""};
      FeatureAlignmentStage(ctx).run(
          teacher, student, open_stage_data(one.data.alignment, one.data, "data.alignment"));
    }
    std::vector<double> s;
    for (const auto& m : single.steps(stage_name(2))) s.push_back(m.loss);
    // The decode threads only change who decodes: the same batches, the same computation.
    ADALA_COMPARE_EXACT(s, a);
  }

  void bad_images_are_named_or_skipped_and_logged() {
    const std::string root = write_class_folders(fresh("bad") + "/train");
    const std::string corrupt = root + "/class1/3.png";
    write_text(corrupt, "not a png at all");
    for (bool skip : {false, true}) {
      const ExperimentConfig c = rgb_config(root, 2, skip ? ",\"on_bad_image\":\"skip\"" : "");
      RecordingSink sink;
      JobControl control;
      StageContext ctx{c, torch::kCPU, sink, control, ""};
      torch::manual_seed(1);
      VisionTransformer teacher(c.model);
      // 3 steps x 8 images of the epoch's 48 may miss the corrupt one: use the whole epoch.
      ExperimentConfig full = c;
      full.teacher.max_steps = 6;
      StageContext full_ctx{full, torch::kCPU, sink, control, ""};
      const StageData data = open_stage_data(c.data.train, c.data, "data.train");
      const std::string message =
          adala_test::error_text([&] { TeacherPretrainingStage(full_ctx).run(teacher, data); });
      if (!skip) {
        QCOMPARE(QString::fromStdString(message),
                 QString::fromStdString(corrupt + ": cannot decode (corrupt or not an image)"));
        continue;
      }
      QVERIFY2(message.empty(), message.c_str());
      bool logged = false;
      for (const auto& e : sink.events())
        if (const auto* l = std::get_if<LogEvent>(&e))
          logged |= l->level == LogEvent::Level::Warning &&
                    l->message.find("skipped 1 bad image(s): " + corrupt) != std::string::npos;
      QVERIFY(logged);
      // ... and counted as the stage's evaluation, which the run database stores.
      double counted = -1;
      for (const auto& e : sink.events())
        if (const auto* m = std::get_if<EvalMetrics>(&e); m && m->key == "skipped_images")
          counted = m->stage == stage_name(0) ? m->value : -2;
      ADALA_COMPARE_EXACT(counted, 1.0);  // a count held in a double
    }
  }

  // The CPU path is as before: loaders do not pin, and a batch "moved" to the CPU is the same
  // tensor (no copy). Pinning itself needs CUDA; that half runs only where CUDA is present.
  void cpu_batches_are_not_pinned_or_copied() {
    StageData data = in_memory_stage_data(torch::rand({8, 1, 4, 4}), torch::arange(8));
    const StageData cpu = for_device(data, torch::kCPU);
    QVERIFY(!cpu.pin_memory);
    auto loader = make_training_loader(cpu, 4, 1, false, 2);
    const Batch b = loader->batch(0);
    QCOMPARE(to_device(b.images, torch::kCPU).data_ptr(), b.images.data_ptr());
    QCOMPARE(to_device(b.labels, torch::kCPU).data_ptr(), b.labels.data_ptr());
  }

  void cuda_batches_are_pinned_and_copied_without_blocking() {
    if (!torch::cuda::is_available()) QSKIP("no CUDA device in this build or machine");
    StageData data = in_memory_stage_data(torch::rand({8, 1, 4, 4}), torch::arange(8));
    const StageData cuda = for_device(data, torch::kCUDA);
    QVERIFY(cuda.pin_memory);
    auto loader = make_training_loader(cuda, 4, 1, false, 2);
    const Batch b = loader->batch(0);
    QVERIFY(b.images.is_pinned());
    QVERIFY(b.labels.is_pinned());
    const at::Tensor on_device = to_device(b.images, torch::kCUDA);
    QVERIFY(on_device.is_cuda());
    QVERIFY(torch::equal(on_device.cpu(), b.images));
  }

  void unusable_data_is_refused_before_training() {
    const std::string dir = fresh("refused");
    const std::string root = write_class_folders(dir + "/train");
    RecordingSink sink;
    JobControl control;
    PipelineOptions o;
    o.run_dir = dir + "/run";
    // Fewer images than one batch.
    ExperimentConfig c = rgb_config(root, 0);
    c.teacher.batch_size = 64;
    QString message =
        QString::fromStdString(adala_test::error_text([&] { run_pipeline(c, o, sink, control); }));
    QVERIFY2(message.startsWith("data.train: image-folder: 48 images in 3 classes from " +
                                QString::fromStdString(root) +
                                ": fewer images than one batch of 64 (stages.teacher.batch_size)"),
             qPrintable(message));
    // More classes than the head.
    c = rgb_config(root, 0);
    c.model.num_classes = 2;
    message =
        QString::fromStdString(adala_test::error_text([&] { run_pipeline(c, o, sink, control); }));
    QVERIFY2(message.contains("data.eval: ") &&
                 message.contains("3 classes, but the model's head has 2"),
             qPrintable(message));
    // A folder tree without labels cannot train a classifier.
    c = parse_experiment_config(
        parse_json_strict("{\"model\":{\"preset\":\"fmnist_micro\",\"in_chans\":3,\"img_size\":32,"
                          "\"patch_size\":8,\"num_classes\":3},"
                          "\"data\":{\"train\":{\"source\":\"image-folder\",\"root\":\"" +
                          root +
                          "\"},"
                          "\"alignment\":{\"source\":\"image-list\",\"root\":\"" +
                          root + "\"}}}"));
    QCOMPARE(c.data.alignment.source, std::string("image-list"));
    c.data.train = c.data.alignment;
    message =
        QString::fromStdString(adala_test::error_text([&] { run_pipeline(c, o, sink, control); }));
    QVERIFY2(message.startsWith("data.train: image-list: 48 images from ") &&
                 message.contains("no labels, which Stage 0 needs"),
             qPrintable(message));
    QVERIFY(sink.steps(stage_name(0)).empty());
  }
};

ADALA_TEST_GUILESS_MAIN(TestStreamingStages)
}  // namespace test_streaming_stages

#include "test_streaming_stages.moc"
