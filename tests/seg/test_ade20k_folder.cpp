// ADE20K-layout folders written with OpenCV: loading, label convention, resizing, errors.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <filesystem>

#include <opencv2/imgcodecs.hpp>

#include "engine/data/opencv/ade20k_folder.h"
#include "engine/data/opencv/png_io.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_ade20k_folder {

using namespace adala;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::path(ADALA_TEST_TMP) / "ade20k_folder";

// A solid BGR image and an annotation whose left half is `left`, right half `right`.
void write_pair(const fs::path& root, const std::string& split, const std::string& name, int h,
                int w, uint8_t left, uint8_t right, int ann_h = -1, int ann_w = -1) {
  fs::create_directories(root / "images" / split);
  fs::create_directories(root / "annotations" / split);
  cv::Mat img(h, w, CV_8UC3, cv::Scalar(50, 100, 200));  // B, G, R
  QVERIFY(cv::imwrite((root / "images" / split / (name + ".jpg")).string(), img,
                      {cv::IMWRITE_JPEG_QUALITY, 100}));
  ann_h = ann_h < 0 ? h : ann_h;
  ann_w = ann_w < 0 ? w : ann_w;
  cv::Mat ann(ann_h, ann_w, CV_8UC1, cv::Scalar(left));
  ann(cv::Rect(ann_w / 2, 0, ann_w - ann_w / 2, ann_h)).setTo(cv::Scalar(right));
  QVERIFY(cv::imwrite((root / "annotations" / split / (name + ".png")).string(), ann));
}

std::string error_of(const fs::path& root, const std::string& split, const Ade20kOptions& o) {
  try {
    load_ade20k_folder(root.string(), split, o);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

Ade20kOptions options(int64_t h, int64_t w) {
  Ade20kOptions o;
  o.height = h;
  o.width = w;
  return o;
}

}  // namespace

class Ade20kFolderTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    fs::remove_all(kRoot);
    write_pair(kRoot, "training", "ADE_train_00000002", 16, 20, 1, 3);
    write_pair(kRoot, "training", "ADE_train_00000001", 16, 20, 0, 150);
    write_pair(kRoot, "validation", "ADE_val_00000001", 12, 12, 255, 7);
  }

  void loads_and_maps_labels() {
    auto d = load_ade20k_folder(kRoot.string(), "training", options(8, 10));
    QCOMPARE(d.size(), int64_t(2));
    QCOMPARE(d.images.sizes(), (at::IntArrayRef{2, 3, 8, 10}));
    QCOMPARE(d.masks.sizes(), (at::IntArrayRef{2, 8, 10}));
    QCOMPARE(d.masks.scalar_type(), at::kByte);
    QCOMPARE(QString::fromStdString(d.ids[0]), QString("ADE_train_00000001"));  // name order
    QCOMPARE(d.num_classes(), int64_t(150));
    // RGB order, values in [0, 1] (JPEG of a flat colour is nearly exact).
    QVERIFY(std::fabs(d.images[0][0].mean().item<double>() - 200.0 / 255.0) < 0.02);
    QVERIFY(std::fabs(d.images[0][1].mean().item<double>() - 100.0 / 255.0) < 0.02);
    QVERIFY(std::fabs(d.images[0][2].mean().item<double>() - 50.0 / 255.0) < 0.02);
    // ADE20K convention: raw 0 -> 255, raw k -> k - 1; nearest resize keeps the two halves.
    auto m0 = d.masks[0].to(at::kLong), m1 = d.masks[1].to(at::kLong);
    QVERIFY(m0.narrow(1, 0, 5).eq(255).all().item<bool>());
    QVERIFY(m0.narrow(1, 5, 5).eq(149).all().item<bool>());
    QVERIFY(m1.narrow(1, 0, 5).eq(0).all().item<bool>());
    QVERIFY(m1.narrow(1, 5, 5).eq(2).all().item<bool>());
    auto v = load_ade20k_folder(kRoot.string(), "validation", options(6, 6));
    QVERIFY(v.masks[0].narrow(1, 0, 3).eq(255).all().item<bool>());  // raw 255 stays ignore
    QVERIFY(v.masks[0].narrow(1, 3, 3).eq(6).all().item<bool>());
  }

  void keeps_raw_labels_when_asked() {
    Ade20kOptions o = options(16, 20);
    o.reduce_zero_label = false;
    auto d = load_ade20k_folder(kRoot.string(), "training", o);
    QCOMPARE(d.num_classes(), int64_t(151));
    QCOMPARE(QString::fromStdString(d.classes[0].name), QString("other"));
    QVERIFY(d.masks[0].narrow(1, 0, 10).eq(0).all().item<bool>());
    QVERIFY(d.masks[0].narrow(1, 10, 10).eq(150).all().item<bool>());
    QVERIFY(d.masks[1].narrow(1, 10, 10).eq(3).all().item<bool>());
    o.limit = 1;
    QCOMPARE(load_ade20k_folder(kRoot.string(), "training", o).size(), int64_t(1));
  }

  void missing_annotation_names_the_image() {
    const fs::path root = kRoot.string() + "_missing_ann";
    fs::remove_all(root);
    write_pair(root, "training", "a", 8, 8, 1, 2);
    write_pair(root, "training", "b", 8, 8, 1, 2);
    fs::remove(root / "annotations" / "training" / "b.png");
    const std::string e = error_of(root, "training", options(8, 8));
    QVERIFY2(e.find((root / "images" / "training" / "b.jpg").string()) != std::string::npos,
             e.c_str());
    QVERIFY2(e.find("no annotation") != std::string::npos, e.c_str());
  }

  void missing_image_names_the_annotation() {
    const fs::path root = kRoot.string() + "_missing_img";
    fs::remove_all(root);
    write_pair(root, "validation", "a", 8, 8, 1, 2);
    write_pair(root, "validation", "c", 8, 8, 1, 2);
    fs::remove(root / "images" / "validation" / "c.jpg");
    const std::string e = error_of(root, "validation", options(8, 8));
    QVERIFY2(e.find((root / "annotations" / "validation" / "c.png").string()) != std::string::npos,
             e.c_str());
    QVERIFY2(e.find("no image") != std::string::npos, e.c_str());
  }

  void size_mismatch_names_the_file() {
    const fs::path root = kRoot.string() + "_size";
    fs::remove_all(root);
    write_pair(root, "training", "odd", 8, 10, 1, 2, 9, 10);
    const std::string e = error_of(root, "training", options(8, 8));
    QVERIFY2(e.find((root / "annotations" / "training" / "odd.png").string()) != std::string::npos,
             e.c_str());
    QVERIFY2(e.find("10x9") != std::string::npos && e.find("10x8") != std::string::npos, e.c_str());
  }

  void out_of_range_label_names_the_file() {
    const fs::path root = kRoot.string() + "_range";
    fs::remove_all(root);
    write_pair(root, "training", "ok", 8, 8, 1, 2);
    write_pair(root, "training", "bad", 8, 8, 1, 200);
    const std::string e = error_of(root, "training", options(8, 8));
    QVERIFY2(e.find((root / "annotations" / "training" / "bad.png").string()) != std::string::npos,
             e.c_str());
    QVERIFY2(e.find("label 200 out of range") != std::string::npos, e.c_str());
    // With fewer classes, a label above N is out of range too.
    Ade20kOptions o = options(8, 8);
    o.num_classes = 1;
    const std::string e2 = error_of(root, "training", o);
    QVERIFY2(e2.find("label 2 out of range") != std::string::npos ||
                 e2.find("label 200") != std::string::npos,
             e2.c_str());
  }

  void missing_folder_and_bad_annotation_format() {
    const std::string e = error_of(kRoot, "test", options(8, 8));
    QVERIFY2(e.find((kRoot / "images" / "test").string()) != std::string::npos, e.c_str());
    const fs::path root = kRoot.string() + "_rgbmask";
    fs::remove_all(root);
    write_pair(root, "training", "x", 8, 8, 1, 2);
    cv::Mat rgb(8, 8, CV_8UC3, cv::Scalar(1, 1, 1));
    QVERIFY(cv::imwrite((root / "annotations" / "training" / "x.png").string(), rgb));
    const std::string e2 = error_of(root, "training", options(8, 8));
    QVERIFY2(
        e2.find("x.png") != std::string::npos && e2.find("single-channel") != std::string::npos,
        e2.c_str());
  }

  void png_round_trip() {
    auto labels = at::randint(0, 256, {7, 9}, at::kLong).to(at::kByte);
    const std::string path = (kRoot / "labels.png").string();
    write_label_png(path, labels);
    QVERIFY(at::equal(read_label_png(path), labels));
    auto image = at::rand({3, 5, 6});
    const std::string rgb = (kRoot / "rgb.png").string();
    write_rgb_png(rgb, image);
    auto back = read_rgb_image(rgb).to(at::kFloat) / 255.0;
    QVERIFY((back - image).abs().max().item<float>() <= 0.5f / 255.0f + 1e-6f);
  }
};

ADALA_TEST_GUILESS_MAIN(Ade20kFolderTest)
}  // namespace test_ade20k_folder

#include "test_ade20k_folder.moc"
