// The attention inspector's datasets: what each kind of path opens (Fashion-MNIST, class
// folders, an image tree, an image list, a run's config.json), the item descriptions, and an
// error naming the path for each unusable one.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <filesystem>

#include <opencv2/imgcodecs.hpp>

#include "engine/io/text_file.h"
#include "engine/data/fashion_mnist.h"
#include "engine/infer/inspection_dataset.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_inspection_dataset {

using namespace adala;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::path(ADALA_TEST_TMP) / "inspection_dataset";

// A 28 x 28 grey image whose pixels all equal `value`.
void write_png(const fs::path& path, int value) {
  fs::create_directories(path.parent_path());
  QVERIFY(cv::imwrite(path.string(), cv::Mat(28, 28, CV_8UC1, cv::Scalar(value))));
}

std::string error_of(const std::string& where) {
  try {
    open_inspection_dataset(where, 1);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

class TestInspectionDataset : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    fs::remove_all(kRoot);
    write_png(kRoot / "classes/cat/0.png", 10);
    write_png(kRoot / "classes/cat/1.png", 20);
    write_png(kRoot / "classes/dog/0.png", 30);
    write_png(kRoot / "tree/y.png", 40);
    write_png(kRoot / "tree/z.png", 50);
  }

  void empty_is_fashion_mnist_test() {
    if (!fs::exists(default_fashion_mnist_root() + "/t10k-images-idx3-ubyte.gz"))
      QSKIP("dataset-fashion-mnist not installed");
    auto d = open_inspection_dataset("", 1);
    QCOMPARE(d->size(), int64_t(10000));
    const Sample s = d->get(0);
    QCOMPARE(s.label, int64_t(9));
    QCOMPARE(describe_inspection_item(*d, 0, s.label),
             std::string("t10k-images-idx3-ubyte.gz #0 (Ankle boot)"));
  }

  void class_folders_have_labels() {
    auto d = open_inspection_dataset((kRoot / "classes").string(), 1);
    QCOMPARE(d->size(), int64_t(3));
    const Sample s = d->get(2);
    QCOMPARE(s.label, int64_t(1));
    QCOMPARE(s.image[0][5][5].item<int>(), 30);
    QCOMPARE(describe_inspection_item(*d, 2, s.label), std::string("0.png (dog)"));
  }

  void an_image_tree_has_none() {
    auto d = open_inspection_dataset((kRoot / "tree").string(), 3);
    QCOMPARE(d->size(), int64_t(2));
    QCOMPARE(d->channels(), int64_t(3));
    const Sample s = d->get(1);
    QCOMPARE(s.label, int64_t(-1));
    QCOMPARE(s.image.sizes(), (at::IntArrayRef{3, 28, 28}));
    QCOMPARE(describe_inspection_item(*d, 1, s.label), std::string("z.png"));
  }

  void a_list_file_in_its_order() {
    const fs::path list = kRoot / "list.tsv";
    write_text(list.string(), "classes/dog/0.png\t4\nclasses/cat/1.png\t2\n");
    auto d = open_inspection_dataset(list.string(), 1);
    QCOMPARE(d->size(), int64_t(2));
    QCOMPARE(d->get(0).image[0][0][0].item<int>(), 30);
    QCOMPARE(d->get(1).label, int64_t(2));
  }

  void a_runs_config_gives_its_evaluation_data() {
    const fs::path config = kRoot / "run/config.json";
    fs::create_directories(config.parent_path());
    write_text(config.string(), R"({"model": {"preset": "fmnist_micro"},
      "data": {"eval": {"source": "image-folder", "root": ")" +
                                    (kRoot / "classes").string() + R"(", "channels": 1}}})");
    auto d = open_inspection_dataset(config.string(), 1);
    QCOMPARE(d->size(), int64_t(3));
    QCOMPARE(d->class_names(), (std::vector<std::string>{"cat", "dog"}));
    QCOMPARE(d->get(1).image[0][0][0].item<int>(), 20);
  }

  void errors_name_the_path() {
    const std::string missing = (kRoot / "absent").string();
    QCOMPARE(error_of(missing), missing + ": no such file or folder");
    const fs::path bad = kRoot / "bad/config.json";
    fs::create_directories(bad.parent_path());
    write_text(bad.string(), R"({"data": {"eval": {"source": "image-folder", "channels": 1}}})");
    QCOMPARE(error_of(bad.string()),
             bad.string() + ": data.eval.root: an image-folder source needs its folder");
    const fs::path gone = kRoot / "gone/config.json";
    fs::create_directories(gone.parent_path());
    write_text(gone.string(), R"({"data": {"eval": {"source": "image-folder", "root": "/no/such",
      "channels": 1}}})");
    const std::string message = error_of(gone.string());
    QVERIFY2(message.rfind(gone.string() + ": data.eval: ", 0) == 0, message.c_str());
    QVERIFY2(message.find("/no/such") != std::string::npos, message.c_str());
    fs::create_directories(kRoot / "empty");
    QCOMPARE(error_of((kRoot / "empty").string()),
             (kRoot / "empty").string() + ": no images in the folder");
  }
};

ADALA_TEST_GUILESS_MAIN(TestInspectionDataset)
}  // namespace test_inspection_dataset

#include "test_inspection_dataset.moc"
