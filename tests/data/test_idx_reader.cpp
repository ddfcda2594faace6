// The Fashion-MNIST idx reader on hand-made files: values read back, and every malformed file
// refused with a message that starts with its path.
#include <ATen/ATen.h>  // before Qt: its "slots" macro breaks LibTorch headers
#include <zlib.h>

#include <QtTest/QtTest>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "engine/data/fashion_mnist.h"
#include "engine/data/idx_file.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_idx_reader {

using namespace adala;

namespace {

std::string be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

std::string images_file(uint32_t count, uint32_t rows, uint32_t cols, const std::string& pixels) {
  return be32(0x803) + be32(count) + be32(rows) + be32(cols) + pixels;
}

std::string labels_file(uint32_t count, const std::string& labels) {
  return be32(0x801) + be32(count) + labels;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void write_gzipped(const std::string& path, const std::string& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  QVERIFY(f != nullptr);
  QCOMPARE(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())),
           static_cast<int>(bytes.size()));
  gzclose(f);
}

}  // namespace

class TestIdxReader : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::string root() const { return dir_.path().toStdString(); }
  std::string image_path() const { return root() + "/t10k-images-idx3-ubyte"; }
  std::string label_path() const { return root() + "/t10k-labels-idx1-ubyte"; }

  // The error of loading the test split from files holding these bytes ("" when it loads).
  std::string load_error(const std::string& images, const std::string& labels) {
    QFile::remove(QString::fromStdString(image_path() + ".gz"));  // the reader prefers .gz
    QFile::remove(QString::fromStdString(label_path() + ".gz"));
    write_bytes(image_path(), images);
    write_bytes(label_path(), labels);
    try {
      load_fashion_mnist(root(), "test");
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  }

 private slots:
  void reads_values_plain_and_gzipped() {
    const std::string pixels{"\x00\xff\x80\x01\x02\x03\x04\x05\x06\x07\x08\x09", 12};
    for (bool gz : {false, true}) {
      QDir(dir_.path()).removeRecursively();
      QDir().mkpath(dir_.path());
      const std::string images = images_file(2, 3, 2, pixels);
      const std::string labels = labels_file(2, std::string("\x09\x00", 2));
      if (gz) {
        write_gzipped(image_path() + ".gz", images);
        write_gzipped(label_path() + ".gz", labels);
      } else {
        write_bytes(image_path(), images);
        write_bytes(label_path(), labels);
      }
      const ImageDataset ds = load_fashion_mnist(root(), "test");
      QCOMPARE(ds.images.sizes().vec(), (std::vector<int64_t>{2, 1, 3, 2}));
      // byte / 255 in float32 by ATen against the compiler's division: within two ulps at 1
      // (ATen may divide, or multiply by a rounded 1/255); a wrong byte is 1/255 away.
      const double tol = 2 * std::numeric_limits<float>::epsilon();
      ADALA_COMPARE_NEAR(ds.images[0][0][0][1].item<float>(), 1.0f, tol);
      ADALA_COMPARE_NEAR(ds.images[0][0][1][0].item<float>(), 128.0f / 255.0f, tol);
      ADALA_COMPARE_NEAR(ds.images[1][0][2][1].item<float>(), 9.0f / 255.0f, tol);
      QCOMPARE(ds.labels[0].item<int64_t>(), int64_t(9));
      QCOMPARE(ds.labels[1].item<int64_t>(), int64_t(0));
      QCOMPARE(load_fashion_mnist(root(), "test", 1).size(), int64_t(1));
    }
  }

  void malformed_files_are_refused_data() {
    QTest::addColumn<QByteArray>("images");
    QTest::addColumn<QByteArray>("labels");
    QTest::addColumn<bool>("blames_labels");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const std::string& images, const std::string& labels,
                  bool blames_labels, const char* expected) {
      QTest::newRow(name) << QByteArray(images.data(), static_cast<int>(images.size()))
                          << QByteArray(labels.data(), static_cast<int>(labels.size()))
                          << blames_labels << QString(expected);
    };
    const std::string one_label = labels_file(1, std::string(1, '\x03'));
    const std::string one_image = images_file(1, 2, 2, std::string(4, '\x10'));
    // count * rows * cols = 1 * (2^32 - 1)^2 overflows int64: it used to pass the size check.
    row("sides of 2^32 - 1", images_file(1, 0xffffffff, 0xffffffff, "abcd"), one_label, false,
        "4294967295 rows (expected 1..4096)");
    row("wide but flat", images_file(1, 1, 5000, "abcd"), one_label, false,
        "5000 columns (expected 1..4096)");
    row("zero rows", images_file(1, 0, 28, ""), one_label, false, "0 rows");
    // 2^32 - 1 images of 2^12 x 2^12: 7e16 bytes promised, 4 present.
    row("absurd count", images_file(0xffffffff, 4096, 4096, "abcd"), one_label, false,
        "truncated (header promises 4294967295 images");
    row("no images", images_file(0, 28, 28, ""), labels_file(0, ""), false, "holds 0 images");
    row("no labels", one_image, labels_file(0, ""), true, "holds 0 labels");
    row("bad image magic", be32(0x804) + std::string(12, '\0'), one_label, false, "bad magic");
    row("image header cut", be32(0x803) + be32(1), one_label, false, "bad magic");
    row("bad label magic", one_image, be32(0x803) + be32(1) + "x", true, "bad magic");
    row("pixels cut", images_file(2, 2, 2, std::string(7, '\0')), labels_file(2, "\x01\x02"), false,
        "truncated");
    row("labels cut", images_file(2, 2, 2, std::string(8, '\0')), labels_file(2, "\x01"), true,
        "truncated (header promises 2 labels");
    row("counts differ", images_file(2, 2, 2, std::string(8, '\0')), one_label, true,
        "1 labels do not match the 2 images");
    row("label out of range", one_image, labels_file(1, "\x0a"), true,
        "label 10 at index 0 is outside 0..9");
  }

  void malformed_files_are_refused() {
    QFETCH(QByteArray, images);
    QFETCH(QByteArray, labels);
    QFETCH(bool, blames_labels);
    QFETCH(QString, expected);
    const std::string message = load_error(images.toStdString(), labels.toStdString());
    const std::string file = blames_labels ? label_path() : image_path();
    QVERIFY2(message.rfind(file + ": ", 0) == 0, (file + " vs " + message).c_str());
    QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
  }

  void parsers_refuse_without_reading_past_the_buffer() {
    // The in-memory parsers the fuzz target drives: short buffers of every length.
    const std::string images = images_file(1, 1, 1, "x");
    for (size_t n = 0; n < images.size(); ++n) {
      const std::vector<uint8_t> bytes(images.begin(), images.begin() + static_cast<long>(n));
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, parse_idx_images(bytes, "f"));
    }
    const std::vector<uint8_t> whole(images.begin(), images.end());
    QCOMPARE(parse_idx_images(whole, "f").count, int64_t(1));
  }
};

ADALA_TEST_GUILESS_MAIN(TestIdxReader)
}  // namespace test_idx_reader

#include "test_idx_reader.moc"
