// The two analysis views' engine and commands on a micro run recorded by `adala run`:
//   adala features: the PNGs are written and features.json holds what compare_features gives
//     in process (mean cosine, explained variance, per-patch cosine);
//   adala resolution-sweep: scale 1 equals the pipeline's stored top-1 (all images) and
//     evaluate_top1 on the same first images; the result is stored as evaluations; bad
//     scales are plain messages (exit 2).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "engine/infer/feature_comparison.h"
#include "engine/infer/inference_model.h"
#include "engine/infer/inspection_dataset.h"
#include "engine/infer/resolution_sweep.h"
#include "engine/infer/resolution_sweep_keys.h"
#include "engine/store/run_store.h"
#include "engine/train/config/experiment_config.h"
#include "engine/train/stages.h"
#include "tests/support/run_adala.h"
#include "tests/support/test_dirs.h"
#include "tests/support/test_suite.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_feature_views {

using namespace adala;
using adala_test::run_adala;
namespace fs = std::filesystem;

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

class TestFeatureViews : public QObject {
  Q_OBJECT

  std::string dir_, db_, folder_;
  int64_t run_ = -1;

 private slots:
  void initTestCase() {
    dir_ = adala_test::fresh_test_dir("infer", "feature_views");
    db_ = dir_ + "/runs.sqlite";
    const std::string config = dir_ + "/micro.json";
    // (One-line strings: moc cannot read a raw string over several lines.)
    std::ofstream(config)
        << "{\"name\": \"features-micro\", \"seed\": 5, \"device\": \"cpu\", \"threads\": 1,"
           "\"model\": {\"preset\": \"fmnist_micro\"},"
           "\"data\": {\"train_limit\": 64, \"test_limit\": 24, \"alignment_limit\": 64, "
           "\"decode_threads\": 0},"
           "\"stages\": {\"teacher\": {\"max_steps\": 6, \"batch_size\": 16, \"lr\": 0.003, "
           "\"augment\": false},"
           "\"attention_alignment\": {\"max_steps\": 2, \"batch_size\": 16},"
           "\"feature_alignment\": {\"max_steps\": 2, \"batch_size\": 16},"
           "\"fine_tuning\": {\"max_steps\": 3, \"batch_size\": 16, \"augment\": false}},"
           "\"output\": {\"runs_dir\": \""
        << dir_ << "/runs\"}}";
    const auto r = run_adala({"run", q(config), "--db", q(db_)});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    store::RunStore store(db_, store::OpenMode::ReadOnly);
    const auto runs = store.list_runs();
    QCOMPARE(runs.size(), size_t(1));
    run_ = runs.front().id;
    folder_ = runs.front().folder;
    QVERIFY(fs::exists(folder_ + "/student.safetensors"));
  }

  void features_writes_the_maps_and_the_engines_values() {
    const std::string out = dir_ + "/features3";
    const auto r = run_adala({"features", QString::number(run_), "--db", q(db_), "--image-index",
                              "3", "--out", q(out), "--device", "cpu"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    for (const char* name : {"input.png", "teacher.png", "student.png", "cosine.png"}) {
      const cv::Mat m = cv::imread(out + "/" + name);
      QVERIFY2(!m.empty(), name);
      QVERIFY(m.cols >= 224 && m.rows == m.cols);
    }
    nlohmann::json j;
    std::ifstream(out + "/features.json") >> j;

    // The same comparison in process.
    const RunModelPaths paths = run_model_paths(folder_);
    QCOMPARE(paths.student, folder_ + "/student.safetensors");
    InferenceModel teacher = load_inference_model(paths.teacher, torch::kCPU);
    InferenceModel student = load_inference_model(paths.student, torch::kCPU);
    const auto data = open_inspection_dataset(paths.config, 1);
    const FeatureComparison c =
        compare_features(teacher, student, feature_image_from_dataset(*data, 3).image);
    QVERIFY(std::abs(j.at("mean_cosine").get<double>() - c.patches.mean_cosine) < 1e-6);
    const auto evr = j.at("explained_variance_ratio").get<std::vector<double>>();
    QCOMPARE(evr.size(), size_t(3));
    for (size_t k = 0; k < 3; ++k)
      QVERIFY(std::abs(evr[k] - c.patches.pca.explained_variance_ratio[k]) < 1e-6);
    QCOMPARE(j.at("grid").get<std::vector<int64_t>>(), (std::vector<int64_t>{7, 7}));
    QCOMPARE(j.at("cosine").size(), size_t(7));
    QVERIFY(std::abs(j.at("cosine")[2][5].get<double>() - c.patches.cosine[2][5].item<double>()) <
            1e-6);
    // The student is not the teacher: something differs, and the cosine stays a cosine.
    QVERIFY(c.patches.mean_cosine < 1.0 - 1e-6 && c.patches.mean_cosine > -1.0);
    QCOMPARE(j.at("image_index").get<int64_t>(), int64_t(3));
  }

  void features_of_an_image_file_and_plain_errors() {
    const std::string png = dir_ + "/stripes.png";
    cv::Mat m(28, 28, CV_8UC1);
    for (int y = 0; y < 28; ++y)
      for (int x = 0; x < 28; ++x) m.at<uchar>(y, x) = uchar((x / 4) % 2 ? 220 : 30);
    QVERIFY(cv::imwrite(png, m));
    auto r = run_adala(
        {"features", q(folder_), "--db", q(db_), "--image", q(png), "--out", q(dir_ + "/file")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(fs::exists(dir_ + "/file/features.json"));

    r = run_adala({"features", QString::number(run_), "--db", q(db_), "--image-index", "999",
                   "--out", q(dir_ + "/x")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("out of range"), qPrintable(r.err));
    r = run_adala({"features", QString::number(run_), "--db", q(db_), "--out", q(dir_ + "/x")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--image-index"), qPrintable(r.err));
    r = run_adala(
        {"features", "4242", "--db", q(db_), "--image-index", "0", "--out", q(dir_ + "/x")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("no run \"4242\""), qPrintable(r.err));
  }

  void sweep_at_scale_one_is_the_pipelines_top1() {
    // All 24 evaluation images: the top-1 the pipeline stored for the run.
    ResolutionSweepOptions all;
    all.scales = {1};
    const ResolutionSweepResult full = run_resolution_sweep(folder_, torch::kCPU, all);
    store::RunStore store(db_, store::OpenMode::ReadOnly);
    const auto evals = store.evaluations(run_);
    QCOMPARE(full.images, int64_t(24));
    // Top-1 is double(correct) / double(images) on both sides (evaluate_top1, top1_at_scale), and
    // the stored one is read back from the SQLite REAL it was written to: the same bits.
    ADALA_COMPARE_EXACT(full.points.front().student_top1, evals.at("fine_tuning/top1"));
    ADALA_COMPARE_EXACT(full.points.front().teacher_top1, evals.at("teacher/top1"));

    // The first 10 images, at 1x and 2x: scale 1 equals evaluate_top1 on the same images.
    ResolutionSweepOptions some;
    some.scales = {1, 2};
    some.limit = 10;
    const ResolutionSweepResult part = run_resolution_sweep(folder_, torch::kCPU, some);
    QCOMPARE(part.images, int64_t(10));
    QCOMPARE(part.points.size(), size_t(2));
    QCOMPARE(part.points[1].resolution, int64_t(56));
    const ExperimentConfig config = load_experiment_config(folder_ + "/config.json");
    const StageData eval =
        first_images(open_stage_data(config.data.eval, config.data, "data.eval"), 10);
    InferenceModel student = load_inference_model(folder_ + "/student.safetensors", torch::kCPU);
    // Both are double(correct) / double(10): the same count gives the same bits.
    ADALA_COMPARE_EXACT(part.points[0].student_top1,
                        evaluate_top1(student.model, eval, torch::kCPU));
    for (const auto& p : part.points) {
      QVERIFY(p.student_top1 >= 0.0 && p.student_top1 <= 1.0);
      QVERIFY(!std::isnan(p.teacher_top1));
    }
  }

  void the_sweep_command_prints_and_stores_it() {
    const auto r = run_adala({"resolution-sweep", QString::number(run_), "--db", q(db_), "--scales",
                              "1,2", "--limit", "10", "--device", "cpu"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("56x56"), qPrintable(r.out));
    store::RunStore store(db_, store::OpenMode::ReadOnly);
    int64_t images = 0;
    const auto points = stored_resolution_sweep(store.evaluations(run_), &images);
    QCOMPARE(images, int64_t(10));
    QCOMPARE(points.size(), size_t(2));
    ResolutionSweepOptions same;
    same.scales = {1, 2};
    same.limit = 10;
    const ResolutionSweepResult engine = run_resolution_sweep(folder_, torch::kCPU, same);
    // Count ratios (double(correct) / double(10)) of the same sweep, the stored ones read back
    // from their SQLite REAL: the same bits.
    ADALA_COMPARE_EXACT(points.at(28).student_top1, engine.points[0].student_top1);
    ADALA_COMPARE_EXACT(points.at(56).student_top1, engine.points[1].student_top1);
    ADALA_COMPARE_EXACT(points.at(56).teacher_top1, engine.points[1].teacher_top1);
  }

  void bad_scales_are_plain_messages() {
    auto error_of = [](const std::string& text) -> std::string {
      try {
        parse_resolution_scales(text);
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
      return "no error";
    };
    QVERIFY(error_of("0").find("scale 0 is not a resolution") != std::string::npos);
    QVERIFY(error_of("1,-2").find("scale -2 is negative") != std::string::npos);
    QVERIFY(error_of("two").find("\"two\" is not a whole number") != std::string::npos);
    QVERIFY(error_of("1.5").find("not a whole number") != std::string::npos);
    QVERIFY(error_of("").find("no scales") != std::string::npos);
    QVERIFY(error_of("1,,2").find("empty scale") != std::string::npos);
    QVERIFY(error_of("2,2").find("given twice") != std::string::npos);
    QVERIFY(error_of("1000").find("too large") != std::string::npos);
    QCOMPARE(parse_resolution_scales(" 1, 2,4 "), (std::vector<int64_t>{1, 2, 4}));
    for (const char* bad : {"0", "-1", "abc"}) {
      const auto r =
          run_adala({"resolution-sweep", QString::number(run_), "--db", q(db_), "--scales", bad});
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.contains("--scales: scale"), qPrintable(r.err));
      QVERIFY2(!r.err.contains("terminate"), qPrintable(r.err));
    }
  }
};

ADALA_TEST_APPLESS_MAIN(TestFeatureViews)
}  // namespace test_feature_views

#include "test_feature_views.moc"
