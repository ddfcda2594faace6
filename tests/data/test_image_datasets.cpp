// image-folder and image-list on files written here with OpenCV: labels from class folders,
// skipped entries, colour conversion, bad images named, malformed list files (each case), and
// Fashion-MNIST exported as PNGs reading back as the idx reader's tensors.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>

#include "engine/io/text_file.h"
#include "engine/data/fashion_mnist.h"
#include "engine/data/image_transform.h"
#include "engine/data/opencv/fashion_mnist_export.h"
#include "engine/data/opencv/image_file.h"
#include "engine/data/opencv/image_file_dataset.h"
#include "engine/data/png_chunks.h"
#include "tests/support/error_text.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_image_datasets {

using namespace adala;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::path(ADALA_TEST_TMP) / "image_datasets";

fs::path fresh(const std::string& name) {
  const fs::path dir = kRoot / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A BGR image whose pixels encode (value, x, y), so files are told apart.
cv::Mat colour_image(int h, int w, int value) {
  cv::Mat m(h, w, CV_8UC3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      m.at<cv::Vec3b>(y, x) = cv::Vec3b(uchar(value), uchar(x * 7), uchar(y * 5));
  return m;
}

void write_image(const fs::path& path, const cv::Mat& m) {
  fs::create_directories(path.parent_path());
  QVERIFY2(cv::imwrite(path.string(), m), qPrintable(QString::fromStdString(path.string())));
}

// QCOMPARE of the message `statement` throws. A local first: QCOMPARE checks its operands' types
// (tests/support/float_compare.h), and C++17 takes no lambda in that unevaluated context.
#define ADALA_COMPARE_ERROR(statement, expected)                             \
  do {                                                                       \
    const std::string message_ = adala_test::error_text([&] { statement; }); \
    QCOMPARE(message_, expected);                                            \
  } while (false)

bool have_fashion_mnist() {
  return std::ifstream(default_fashion_mnist_root() + "/t10k-labels-idx1-ubyte.gz").good();
}

using Bytes = std::vector<uint8_t>;

void put_u32(Bytes& b, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(uint8_t(v >> shift));
}

// Appends byte by byte (GCC 12 misreads vector::insert of short ranges as an overflow).
void append(Bytes& b, const Bytes& more) {
  for (uint8_t v : more) b.push_back(v);
}
void append(Bytes& b, const std::string& more) {
  for (char v : more) b.push_back(uint8_t(v));
}

// One PNG chunk with its CRC (over type and data).
Bytes png_chunk(const char* type, const Bytes& data) {
  Bytes c;
  put_u32(c, uint32_t(data.size()));
  append(c, std::string(type, 4));
  append(c, data);
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(type), 4);
  crc = crc32(crc, data.data(), uInt(data.size()));
  put_u32(c, uint32_t(crc));
  return c;
}

// An iCCP chunk whose profile is 200 compressed zero bytes: libpng rejects it with a warning.
Bytes bad_colour_profile() {
  Bytes profile(200, 0), packed(compressBound(200));
  uLongf packed_size = packed.size();
  compress(packed.data(), &packed_size, profile.data(), profile.size());
  Bytes data;
  append(data, std::string("icc\0\0", 5));  // name, terminator, compression method 0
  packed.resize(packed_size);
  append(data, packed);
  return png_chunk("iCCP", data);
}

// What `f` writes to stderr (fd 2, where libpng's default warning handler prints).
template <typename F>
std::string stderr_of(F&& f) {
  std::fflush(stderr);
  const std::string path = (kRoot / ("stderr-" + std::to_string(::getpid()))).string();
  fs::create_directories(kRoot);
  FILE* capture = std::fopen(path.c_str(), "w+");
  const int saved = ::dup(2);
  ::dup2(::fileno(capture), 2);
  f();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::fclose(capture);
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

class TestImageDatasets : public QObject {
  Q_OBJECT
 private slots:
  void labels_come_from_sorted_class_folders() {
    const fs::path root = fresh("folder");
    write_image(root / "dog" / "b.png", colour_image(10, 12, 1));
    write_image(root / "dog" / "a.jpg", colour_image(10, 12, 2));
    write_image(root / "ant" / "x.bmp", colour_image(8, 8, 3));
    write_image(root / "cat" / "nested" / "c.png", colour_image(9, 9, 4));
    write_text((root / "cat" / "notes.txt").string(), "not an image");
    write_image(root / "cat" / ".hidden.png", colour_image(9, 9, 5));
    write_image(root / "cat" / ".thumbs" / "t.png", colour_image(9, 9, 6));
    write_image(root / ".trash" / "z.png", colour_image(9, 9, 7));  // a hidden class folder
    auto ds = open_image_folder(root.string(), "", 3);
    QCOMPARE(ds->class_names(), (std::vector<std::string>{"ant", "cat", "dog"}));
    QCOMPARE(ds->size(), int64_t(4));
    QCOMPARE(ds->labels(), (std::vector<int64_t>{0, 1, 2, 2}));
    QVERIFY(ds->paths()[2].size() > 5 &&
            ds->paths()[2].substr(ds->paths()[2].size() - 5) == "a.jpg");
    QVERIFY(ds->describe().find("3 hidden or non-image entries skipped") != std::string::npos);
    const Sample s = ds->get(3);
    QCOMPARE(s.label, int64_t(2));
    QCOMPARE(s.image.sizes().vec(), (std::vector<int64_t>{3, 10, 12}));
    // PNG is lossless: RGB planes from OpenCV's BGR.
    QCOMPARE(s.image[2][0][0].item<int>(), 1);   // B
    QCOMPARE(s.image[1][0][3].item<int>(), 21);  // G = x * 7
    QCOMPARE(s.image[0][4][0].item<int>(), 20);  // R = y * 5

    // A class list file fixes the order (and the set) of the classes.
    write_text((root.parent_path() / "classes.txt").string(), "dog\nant\n");
    ds = open_image_folder(root.string(), (root.parent_path() / "classes.txt").string(), 3);
    QCOMPARE(ds->class_names(), (std::vector<std::string>{"dog", "ant"}));
    QCOMPARE(ds->labels(), (std::vector<int64_t>{0, 0, 1}));
  }

  void folder_errors_name_the_folder() {
    const fs::path root = fresh("folder_errors");
    write_image(root / "a" / "1.png", colour_image(4, 4, 0));
    fs::create_directories(root / "b");
    write_text((root / "b" / "readme.md").string(), "x");
    ADALA_COMPARE_ERROR(open_image_folder(root.string(), "", 3),
                        (root / "b").string() + ": class folder has no images");
    ADALA_COMPARE_ERROR(open_image_folder((root / "none").string(), "", 3),
                        (root / "none").string() + ": image-folder root is not a folder");
    ADALA_COMPARE_ERROR(open_image_folder((root / "a").string(), "", 3),
                        (root / "a").string() + ": no class sub-folders");
    const std::string list = (root.parent_path() / "folder_errors_classes.txt").string();
    write_text(list, "a\nzebra\n");
    ADALA_COMPARE_ERROR(open_image_folder(root.string(), list, 3),
                        list + ": class \"zebra\" has no folder in " + root.string());
    write_text(list, "a\na\n");
    ADALA_COMPARE_ERROR(open_image_folder(root.string(), list, 3),
                        list + ":2: class \"a\" listed twice");
  }

  void grey_and_rgba_become_rgb() {
    const fs::path root = fresh("colour");
    cv::Mat grey(6, 5, CV_8UC1, cv::Scalar(77));
    write_image(root / "g.png", grey);
    cv::Mat rgba(6, 5, CV_8UC4, cv::Scalar(10, 20, 30, 0));  // B, G, R, fully transparent
    write_image(root / "r.png", rgba);
    auto g = decode_image_file((root / "g.png").string(), 3);
    QCOMPARE(g.sizes().vec(), (std::vector<int64_t>{3, 6, 5}));
    QVERIFY(g.eq(77).all().item<bool>());
    auto r = decode_image_file((root / "r.png").string(), 3);
    QCOMPARE(r.sizes().vec(), (std::vector<int64_t>{3, 6, 5}));
    QCOMPARE(r[0][0][0].item<int>(), 30);
    QCOMPARE(r[1][0][0].item<int>(), 20);
    QCOMPARE(r[2][0][0].item<int>(), 10);
    // channels 1 reads grey.
    QCOMPARE(decode_image_file((root / "g.png").string(), 1).sizes().vec(),
             (std::vector<int64_t>{1, 6, 5}));
    if (cv::haveImageWriter((root / "w.webp").string())) {
      write_image(root / "w.webp", colour_image(6, 6, 9));
      QCOMPARE(decode_image_file((root / "w.webp").string(), 3).sizes().vec(),
               (std::vector<int64_t>{3, 6, 6}));
    }
  }

  void a_bad_image_is_named() {
    const fs::path root = fresh("bad");
    write_text((root / "garbage.jpg").string(), std::string(300, 'x'));
    const std::string garbage = (root / "garbage.jpg").string();
    ADALA_COMPARE_ERROR(decode_image_file(garbage, 3),
                        garbage + ": cannot decode (corrupt or not an image)");
    // A real JPEG cut in half decodes with grey fill in libjpeg: refused by its missing end marker.
    std::vector<uchar> jpeg;
    QVERIFY(cv::imencode(".jpg", colour_image(64, 64, 50), jpeg));
    const std::string cut = (root / "cut.jpg").string();
    write_text(cut, std::string(jpeg.begin(), jpeg.begin() + long(jpeg.size() / 2)));
    ADALA_COMPARE_ERROR(decode_image_file(cut, 3),
                        cut + ": truncated JPEG (no end-of-image marker)");
    const std::string empty = (root / "empty.png").string();
    write_text(empty, "");
    ADALA_COMPARE_ERROR(decode_image_file(empty, 3), empty + ": empty file");
    const std::string missing = (root / "missing.png").string();
    ADALA_COMPARE_ERROR(decode_image_file(missing, 3), missing + ": cannot open the file");
    // Through a dataset it is a BadImageError, so the loader can skip it.
    write_text((root / "list.txt").string(), "garbage.jpg\n");
    auto ds = open_image_list((root / "list.txt").string(), "", 3);
    QVERIFY_EXCEPTION_THROWN(ds->get(0), BadImageError);
  }

  void a_colour_profile_is_dropped_before_decoding() {
    // A PNG with an iCCP chunk after IHDR (where encoders put it): the bytes without it are the
    // plain file, they decode to the same pixels, and libpng's warning about the profile, which
    // the raw bytes do print, is gone.
    Bytes plain;
    QVERIFY(cv::imencode(".png", colour_image(9, 13, 77), plain));
    const long ihdr_end = 8 + 12 + 13;
    Bytes with_profile(plain.begin(), plain.begin() + ihdr_end);
    append(with_profile, bad_colour_profile());
    append(with_profile, Bytes(plain.begin() + ihdr_end, plain.end()));
    QVERIFY(without_png_colour_profile(with_profile) == plain);

    const std::string warned = stderr_of([&] { cv::imdecode(with_profile, cv::IMREAD_COLOR); });
    QVERIFY2(warned.find("iCCP") != std::string::npos, warned.c_str());
    const fs::path file = fresh("profile") / "with_profile.png";
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(with_profile.data()), long(with_profile.size()));
    at::Tensor decoded;
    const std::string quiet = stderr_of([&] { decoded = decode_image_file(file.string(), 3); });
    QVERIFY2(quiet.empty(), quiet.c_str());
    const fs::path reference = fresh("profile_plain") / "plain.png";
    write_image(reference, colour_image(9, 13, 77));
    QVERIFY(at::equal(decoded, decode_image_file(reference.string(), 3)));
  }

  void malformed_pngs_pass_through_the_chunk_walk_unchanged_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("empty") << 0;
    QTest::newRow("not a png (jpeg)") << 1;
    QTest::newRow("signature only") << 2;
    QTest::newRow("chunk longer than the file") << 3;
    QTest::newRow("chunk length above 2^31") << 4;
    QTest::newRow("profile after the image data") << 5;
    QTest::newRow("truncated chunk header") << 6;
  }

  void malformed_pngs_pass_through_the_chunk_walk_unchanged() {
    QFETCH(int, which);
    Bytes png;
    QVERIFY(cv::imencode(".png", colour_image(4, 4, 1), png));
    const Bytes signature(png.begin(), png.begin() + 8);
    Bytes input;
    switch (which) {
      case 0:
        break;
      case 1:
        QVERIFY(cv::imencode(".jpg", colour_image(4, 4, 1), input));
        break;
      case 2:
        input = signature;
        break;
      case 3:
      case 4:
        input = signature;
        put_u32(input, which == 3 ? 1000u : 0x80000000u);
        append(input, std::string("iCCP\1\2\3\4\5\6\7\10", 12));
        break;
      case 5: {
        // iCCP placed just before IEND: not where a profile is read, left alone.
        input.assign(png.begin(), png.end() - 12);
        append(input, bad_colour_profile());
        append(input, Bytes(png.end() - 12, png.end()));
        break;
      }
      case 6:
        input = signature;
        append(input, std::string(3, '\0'));
        break;
    }
    QVERIFY(without_png_colour_profile(input) == input);
  }

  void image_list_from_a_folder_tree_and_from_a_file() {
    const fs::path root = fresh("list");
    write_image(root / "b" / "2.png", colour_image(4, 4, 2));
    write_image(root / "a.png", colour_image(4, 4, 1));
    write_image(root / ".hidden.png", colour_image(4, 4, 3));
    auto tree = open_image_list(root.string(), "", 3);
    QCOMPARE(tree->size(), int64_t(2));
    QVERIFY(!tree->has_labels());
    QCOMPARE(tree->get(0).label, int64_t(-1));
    QCOMPARE(tree->get(0).image[2][0][0].item<int>(), 1);  // a.png first (sorted)

    // A list file in its own order, paths relative to its folder, CRLF and blank lines allowed.
    write_text((root / "l.tsv").string(), "b/2.png\t4\r\n\n" + (root / "a.png").string() + "\t1\n");
    auto list = open_image_list((root / "l.tsv").string(), "", 3);
    QCOMPARE(list->paths(), (std::vector<std::string>{(root / "b" / "2.png").string(),
                                                      (root / "a.png").string()}));
    QCOMPARE(list->labels(), (std::vector<int64_t>{4, 1}));
    QCOMPARE(list->class_names().size(), size_t(5));
    QCOMPARE(list->get(0).label, int64_t(4));
    // `root` overrides the base of relative paths; limit keeps the first items.
    write_text((root.parent_path() / "elsewhere.txt").string(), "a.png\nb/2.png\n");
    auto based =
        open_image_list((root.parent_path() / "elsewhere.txt").string(), root.string(), 3, 1);
    QCOMPARE(based->paths(), (std::vector<std::string>{(root / "a.png").string()}));
  }

  // limit on an image-folder takes the classes in turn (round-robin over their sorted files),
  // not the first files in class order: every class appears, sizes differ by at most one
  // until a class runs out, and the same call gives the same subset.
  void folder_limit_is_class_balanced() {
    const fs::path root = fresh("balanced");
    for (int i = 0; i < 3; ++i)
      write_image(root / "ant" / (std::to_string(i) + ".png"), colour_image(4, 4, i));
    for (int i = 0; i < 5; ++i)
      write_image(root / "bee" / (std::to_string(i) + ".png"), colour_image(4, 4, 10 + i));
    write_image(root / "cat" / "0.png", colour_image(4, 4, 20));
    auto four = open_image_folder(root.string(), "", 3, 4);
    QCOMPARE(four->labels(), (std::vector<int64_t>{0, 0, 1, 2}));  // first 4 files: 0, 0, 0, 1
    QCOMPARE(four->paths()[1], (root / "ant" / "1.png").string());
    QCOMPARE(four->paths()[2], (root / "bee" / "0.png").string());
    QCOMPARE(four->paths()[3], (root / "cat" / "0.png").string());
    auto seven = open_image_folder(root.string(), "", 3, 7);  // cat runs out after round 1
    QCOMPARE(seven->labels(), (std::vector<int64_t>{0, 0, 0, 1, 1, 1, 2}));
    QCOMPARE(seven->paths()[5], (root / "bee" / "2.png").string());
    QCOMPARE(open_image_folder(root.string(), "", 3, 7)->paths(), seven->paths());
    auto two = open_image_folder(root.string(), "", 3, 2);  // fewer than the classes
    QCOMPARE(two->labels(), (std::vector<int64_t>{0, 1}));
    QCOMPARE(two->class_names().size(), size_t(3));  // the head still has every class
    QCOMPARE(open_image_folder(root.string(), "", 3, 9)->size(), int64_t(9));  // all of them
  }

  void malformed_list_files_are_named_with_the_line() {
    const fs::path root = fresh("malformed");
    const std::string f = (root / "l.txt").string();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"a.png\t1\t2\n", f + ":1: more than two tab-separated fields"},
        {"a.png\n\t3\n", f + ":2: empty path"},
        {"a.png\nnotes.txt\n", f + ":2: \"notes.txt\" is not a .jpg/.jpeg/.png/.webp/.bmp file"},
        {"a.png\tcat\n", f + ":1: label \"cat\" is not an integer in 0..999999"},
        {"a.png\t-1\n", f + ":1: label \"-1\" is not an integer in 0..999999"},
        {"a.png\t1000000\n", f + ":1: label \"1000000\" is not an integer in 0..999999"},
        {"a.png\t\n", f + ":1: label \"\" is not an integer in 0..999999"},
        {"a.png\t1\nb.png\n", f + ":2: no label, but earlier lines have one"},
        {"a.png\nb.png\t1\n", f + ":2: a label, but earlier lines have none"},
        {"\n\n", f + ": the image list has no entries"},
        {"", f + ": the image list has no entries"},
    };
    for (const auto& [text, expected] : cases) {
      write_text(f, text);
      ADALA_COMPARE_ERROR(open_image_list(f, "", 3), expected);
    }
    ADALA_COMPARE_ERROR(open_image_list((root / "absent.txt").string(), "", 3),
                        (root / "absent.txt").string() + ": cannot open the image list");
    fs::create_directories(root / "empty_tree");
    ADALA_COMPARE_ERROR(open_image_list((root / "empty_tree").string(), "", 3),
                        (root / "empty_tree").string() + ": no images in the folder");
  }

  void exported_fashion_mnist_reads_back_as_the_idx_tensors() {
    if (!have_fashion_mnist()) QSKIP("dataset-fashion-mnist not installed");
    const fs::path out = fresh("fmnist_png");
    const int64_t n = 60;
    const auto exported =
        export_fashion_mnist(default_fashion_mnist_root(), "test", out.string(), n);
    QCOMPARE(exported.images, n);
    QCOMPARE(exported.list_path, (out / "test.tsv").string());
    FashionMnistDataset idx(default_fashion_mnist_root(), "test", n);
    const ImageDataset reference = load_fashion_mnist(default_fashion_mnist_root(), "test", n);
    auto list = open_image_list(exported.list_path, "", 1);
    QCOMPARE(list->size(), n);
    TransformSpec none;
    none.preprocess = "none";
    none.resolution = 28;
    none.mean = {0.0};
    none.std = {1.0};
    SplitMix64 rng(0);
    for (int64_t i = 0; i < n; ++i) {
      const Sample a = idx.get(i), b = list->get(i);
      QVERIFY2(at::equal(a.image, b.image), qPrintable(QString("index %1").arg(i)));
      QCOMPARE(b.label, a.label);
      QCOMPARE(a.label, reference.labels[i].item<int64_t>());
      QVERIFY(at::equal(apply_transform(b.image, none, false, rng), reference.images[i]));
    }
    // The class folders read as image-folder: same labels, grouped by class.
    auto folder = open_image_folder((out / "test").string(), "", 1);
    QCOMPARE(folder->size(), n);
    QCOMPARE(folder->class_names().front(), fashion_mnist_folder_name(0));
    for (int64_t i = 0; i < n; ++i) {
      const std::string path = folder->paths()[size_t(i)];
      const int64_t index = std::stoll(fs::path(path).stem().string());
      QCOMPARE(folder->labels()[size_t(i)], idx.get(index).label);
      QVERIFY(at::equal(folder->get(i).image, idx.get(index).image));
    }
  }

  void exported_jpegs_are_upscaled_colour_files_of_the_same_images() {
    if (!have_fashion_mnist()) QSKIP("dataset-fashion-mnist not installed");
    const fs::path out = fresh("fmnist_jpg");
    const int64_t n = 12;
    ImageExportFormat format;
    format.extension = "jpg";
    format.size = 64;
    const auto exported =
        export_fashion_mnist(default_fashion_mnist_root(), "test", out.string(), n, format);
    QCOMPARE(exported.images, n);
    QVERIFY(fs::exists(out / "test" / "9_Ankle_boot" / "0.jpg"));
    // A colour file (three components), not a grey one.
    const cv::Mat raw =
        cv::imread((out / "test/9_Ankle_boot/0.jpg").string(), cv::IMREAD_UNCHANGED);
    QCOMPARE(raw.channels(), 3);
    QCOMPARE(raw.rows, 64);
    FashionMnistDataset idx(default_fashion_mnist_root(), "test", n);
    auto list = open_image_list(exported.list_path, "", 3);
    for (int64_t i = 0; i < n; ++i) {
      const Sample b = list->get(i);
      QCOMPARE(b.image.sizes(), (at::IntArrayRef{3, 64, 64}));
      QCOMPARE(b.label, idx.get(i).label);
      // Against a bilinear upscale computed by LibTorch (half-pixel centres, as OpenCV's):
      // only the JPEG's loss is left.
      const at::Tensor grey = idx.get(i).image.to(at::kFloat).unsqueeze(0);
      const at::Tensor expected =
          at::upsample_bilinear2d(grey, {64, 64}, false).squeeze(0).expand({3, 64, 64});
      const double mean_error = (b.image.to(at::kFloat) - expected).abs().mean().item<double>();
      QVERIFY2(mean_error < 3.0, qPrintable(QString("index %1: %2").arg(i).arg(mean_error)));
    }
    QVERIFY_EXCEPTION_THROWN(export_fashion_mnist(default_fashion_mnist_root(), "test",
                                                  out.string(), 1, ImageExportFormat{"gif", 0, 90}),
                             std::invalid_argument);
  }
};

#undef ADALA_COMPARE_ERROR

ADALA_TEST_GUILESS_MAIN(TestImageDatasets)
}  // namespace test_image_datasets

#include "test_image_datasets.moc"
