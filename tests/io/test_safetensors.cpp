// safetensors reader/writer: bit-exact round trips in both read modes, byte layout checked
// against hand-made files, and every malformed header refused with a message that names it.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <cstring>
#include <fstream>
#include <limits>

#include "engine/io/safetensors.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_safetensors {

using namespace adala;

namespace {

// JSON written with single quotes for readability; turned into real JSON here.
std::string q(const char* text) {
  std::string s(text);
  for (auto& c : s)
    if (c == '\'') c = '"';
  return s;
}

std::string le64(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

// length prefix (declared or the real header length) + header + data bytes.
std::string raw_file(const std::string& header, const std::string& data,
                     uint64_t declared = std::numeric_limits<uint64_t>::max()) {
  return le64(declared == std::numeric_limits<uint64_t>::max() ? header.size() : declared) +
         header + data;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string tensor_bytes(const at::Tensor& t) {
  auto c = t.contiguous();
  return std::string(static_cast<const char*>(c.data_ptr()), static_cast<size_t>(c.nbytes()));
}

// The SafetensorsError message of opening `path` (and loading everything), or "" if none.
std::string open_error(const std::string& path, ReadMode mode) {
  try {
    SafetensorsReader reader(path, mode);
    reader.load_all();
  } catch (const SafetensorsError& e) {
    return e.what();
  }
  return "";
}

const char* mode_name(ReadMode m) { return m == ReadMode::Mmap ? "mmap" : "stream"; }

}  // namespace

class TestSafetensors : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    torch::manual_seed(7);
  }

  void round_trip_is_bit_exact_in_both_modes() {
    auto f32 = torch::randn({3, 5});
    f32[0][0] = std::numeric_limits<float>::infinity();
    f32[0][1] = -0.0f;
    f32[0][2] = std::numeric_limits<float>::quiet_NaN();
    f32[0][3] = std::numeric_limits<float>::denorm_min();
    auto f16 = torch::randn({2, 3, 4}).to(torch::kHalf);
    f16[0][0][0] = std::numeric_limits<float>::infinity();
    f16[0][0][1] = 6e-8;  // half subnormal
    auto bf16 = (torch::randn({7}) * 1e30).to(torch::kBFloat16);
    std::vector<std::pair<std::string, at::Tensor>> tensors = {
        {"weights.f32", f32},
        {"weights.f16", f16},
        {"weights.bf16", bf16},
        {"scalar", torch::tensor(3.25f)},
        {"empty", torch::zeros({0, 4}, torch::kHalf)},
        {"transposed", torch::randn({4, 6}).t()},  // non-contiguous input
        {"f64", torch::randn({2, 2}, torch::kDouble)},
        {"i64", torch::tensor(std::vector<int64_t>{-1, 2, int64_t{1} << 40})},
        {"i32", torch::tensor({-7, 8}, torch::kInt)},
        {"u8", torch::tensor({0, 255, 7}, torch::kByte)},
        {"flags", torch::tensor({true, false, true})},
    };
    const std::map<std::string, std::string> meta = {
        {"format", "pt"}, {"note", "quote \" backslash \\ newline \n"}, {"unicode", "\xc3\xa9"}};
    const std::string file = path("roundtrip.safetensors");
    write_safetensors(file, tensors, meta);

    // Layout, independent of the reader: aligned header, name order, contiguous LE data.
    const std::string bytes = read_bytes(file);
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
      n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<size_t>(i)]);
    QCOMPARE((8 + n) % 8, uint64_t{0});
    QVERIFY(bytes.substr(8, n).find_last_not_of(' ') < n);

    for (ReadMode mode : {ReadMode::Mmap, ReadMode::Stream}) {
      SafetensorsReader reader(file, mode);
      QCOMPARE(reader.header_size(), n);
      QCOMPARE(reader.metadata(), meta);
      QCOMPARE(reader.tensors().size(), tensors.size());
      uint64_t expected_begin = 0;
      std::string previous;
      for (const auto& info : reader.tensors()) {
        QVERIFY2(info.name > previous, info.name.c_str());  // name order
        previous = info.name;
        QCOMPARE(info.begin, expected_begin);  // contiguous
        expected_begin = info.end;
      }
      QCOMPARE(8 + n + expected_begin, static_cast<uint64_t>(bytes.size()));
      auto all = reader.load_all();
      for (const auto& [name, original] : tensors) {
        QVERIFY2(reader.contains(name), name.c_str());
        const auto& info = reader.info(name);
        const at::Tensor loaded = reader.load(name);
        QCOMPARE(loaded.scalar_type(), original.scalar_type());
        QCOMPARE(loaded.sizes().vec(), original.sizes().vec());
        QVERIFY2(loaded.is_contiguous(), name.c_str());
        const std::string want = tensor_bytes(original);
        QVERIFY2(tensor_bytes(loaded) == want,
                 qPrintable(QString("%1 (%2)").arg(name.c_str(), mode_name(mode))));
        QVERIFY2(tensor_bytes(all.at(name)) == want, name.c_str());
        QVERIFY2(bytes.substr(8 + n + info.begin, info.nbytes()) == want, name.c_str());
        if (name != "weights.f32")
          QVERIFY2(torch::equal(loaded, original.contiguous()), name.c_str());
      }
      // Owning copies: writing into one does not change a second load.
      auto a = reader.load("weights.f32");
      a.fill_(1.0f);
      QVERIFY(tensor_bytes(reader.load("weights.f32")) == tensor_bytes(f32));
    }
  }

  void reads_hand_written_little_endian_file() {
    // 1.0 in F32 (00 00 80 3f), F16 (00 3c), BF16 (80 3f); I32 258 (02 01 00 00); padded header.
    std::string header =
        q("{'__metadata__': {'k': 'v'}, 'a': {'dtype': 'F32', 'shape': [1], "
          "'data_offsets': [0, 4]}, 'b': {'dtype': 'F16', 'shape': [1, 1], "
          "'data_offsets': [4, 6]}, 'c': {'dtype': 'BF16', 'shape': [1], "
          "'data_offsets': [6, 8]}, 'd': {'dtype': 'I32', 'shape': [], "
          "'data_offsets': [8, 12]}}");
    header += std::string(5, ' ');
    const std::string data("\x00\x00\x80\x3f\x00\x3c\x80\x3f\x02\x01\x00\x00", 12);
    const std::string file = path("hand.safetensors");
    write_bytes(file, raw_file(header, data));
    for (ReadMode mode : {ReadMode::Mmap, ReadMode::Stream}) {
      SafetensorsReader r(file, mode);
      QCOMPARE(r.metadata().at("k"), std::string("v"));
      QCOMPARE(r.tensors()[0].name, std::string("a"));  // header order
      // The bytes above are 1.0 exactly; widening F16 / BF16 to F32 is exact.
      ADALA_COMPARE_EXACT(r.load("a").item<float>(), 1.0f);
      QCOMPARE(r.load("b").scalar_type(), torch::kHalf);
      ADALA_COMPARE_EXACT(r.load("b").to(torch::kFloat).item<float>(), 1.0f);
      ADALA_COMPARE_EXACT(r.load("c").to(torch::kFloat).item<float>(), 1.0f);
      QCOMPARE(r.load("d").dim(), int64_t{0});
      QCOMPARE(r.load("d").item<int>(), 258);
    }
  }

  void empty_header_is_a_valid_file() {
    const std::string file = path("empty_ok.safetensors");
    write_bytes(file, raw_file("{}      ", ""));
    SafetensorsReader r(file);
    QVERIFY(r.tensors().empty());
    QVERIFY(r.metadata().empty());
  }

  void malformed_files_are_refused_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QStringList>("expected");
    auto row = [](const char* tag, const std::string& bytes, QStringList expected) {
      QTest::newRow(tag) << QByteArray(bytes.data(), static_cast<int>(bytes.size())) << expected;
    };
    const std::string ok_entry = q("{'a': {'dtype': 'F32', 'shape': [2], 'data_offsets': [0, 8]}}");
    row("empty file", "", {"truncated", "0 bytes"});
    row("truncated length", std::string("\x10\x00\x00", 3), {"truncated", "3 bytes"});
    row("header length past EOF", raw_file(ok_entry, std::string(8, '\0'), 4096),
        {"header length 4096", "past the end of the file"});
    row("absurd header length", raw_file("{}", "", 1ull << 62), {"past the end of the file"});
    // Other formats are named (the length a text file's first bytes give is a 19-digit number).
    const std::string zip = std::string("PK\x03\x04\x14\x00\x00\x00", 8) + "archive/data.pkl...";
    row("a PyTorch checkpoint", zip,
        {"not a safetensors file (it is a ZIP archive, as PyTorch's torch.save writes .pt/.pth",
         "safetensors.torch.save_file", "that runs past the end of the file (27 bytes"});
    row("a pickle", std::string("\x80\x02\x8a\x0a", 4) + "lp" + std::string(3, '\0') + ".",
        {"it is a Python pickle"});
    row("a text file", "hello world, this is not a tensor file",
        {"not a safetensors file: its first 8 bytes give a header length 8031924123371070824"});
    row("data cut short", raw_file(ok_entry, std::string(5, '\0')),
        {"\"a\"", "out of range of the data section (5 bytes)"});
    row("malformed JSON", raw_file(q("{'a': {'dtype': 'F32', 'shape': [2], "), ""),
        {"malformed JSON header", "byte"});
    row("garbage header", raw_file("\xff\xfe\x01garbage", ""), {"malformed JSON header"});
    row("duplicate key",
        raw_file(q("{'a': {'dtype': 'F32', 'shape': [1], 'data_offsets': [0, 4]}, "
                   "'a': {'dtype': 'F32', 'shape': [1], 'data_offsets': [0, 4]}}"),
                 std::string(4, '\0')),
        {"malformed JSON header", "duplicate key"});
    row("header not an object", raw_file("[1, 2]", ""), {"expected a JSON object"});
    row("entry not an object", raw_file(q("{'a': 5}"), ""), {"tensor \"a\"", "must be an object"});
    row("missing dtype",
        raw_file(q("{'a': {'shape': [1], 'data_offsets': [0, 4]}}"), std::string(4, '\0')),
        {"tensor \"a\"", "missing \"dtype\""});
    row("missing shape",
        raw_file(q("{'a': {'dtype': 'F32', 'data_offsets': [0, 4]}}"), std::string(4, '\0')),
        {"tensor \"a\"", "missing \"shape\""});
    row("missing data_offsets",
        raw_file(q("{'a': {'dtype': 'F32', 'shape': [1]}}"), std::string(4, '\0')),
        {"tensor \"a\"", "missing \"data_offsets\""});
    row("unknown dtype",
        raw_file(q("{'w': {'dtype': 'F33', 'shape': [1], 'data_offsets': [0, 4]}}"),
                 std::string(4, '\0')),
        {"tensor \"w\"", "unknown dtype \"F33\""});
    row("shape/size mismatch",
        raw_file(q("{'w': {'dtype': 'F32', 'shape': [3], 'data_offsets': [0, 8]}}"),
                 std::string(8, '\0')),
        {"tensor \"w\"", "shape/size mismatch", "needs 12 bytes"});
    row("offsets out of range",
        raw_file(q("{'w': {'dtype': 'F16', 'shape': [4], 'data_offsets': [4, 12]}}"),
                 std::string(8, '\0')),
        {"tensor \"w\"", "[4, 12]", "out of range"});
    row("offsets overlapping",
        raw_file(q("{'first': {'dtype': 'F32', 'shape': [2], 'data_offsets': [0, 8]}, "
                   "'second': {'dtype': 'F32', 'shape': [2], 'data_offsets': [4, 12]}}"),
                 std::string(12, '\0')),
        {"\"first\"", "\"second\"", "overlapping"});
    row("end before begin",
        raw_file(q("{'w': {'dtype': 'U8', 'shape': [0], 'data_offsets': [4, 0]}}"),
                 std::string(4, '\0')),
        {"tensor \"w\"", "end before begin"});
    row("negative offset",
        raw_file(q("{'w': {'dtype': 'U8', 'shape': [4], 'data_offsets': [-4, 0]}}"),
                 std::string(4, '\0')),
        {"tensor \"w\"", "non-negative"});
    row("negative dimension",
        raw_file(q("{'w': {'dtype': 'U8', 'shape': [-4], 'data_offsets': [0, 4]}}"),
                 std::string(4, '\0')),
        {"tensor \"w\"", "non-negative integers"});
    row("offsets not a pair",
        raw_file(q("{'w': {'dtype': 'U8', 'shape': [4], 'data_offsets': [0]}}"),
                 std::string(4, '\0')),
        {"tensor \"w\"", "[begin, end]"});
    row("metadata not strings", raw_file(q("{'__metadata__': {'epoch': 3}}"), ""),
        {"__metadata__", "\"epoch\"", "must be a string"});
    row("huge shape overflows",
        raw_file(q("{'w': {'dtype': 'F32', 'shape': [4294967296, 4294967296, 16], 'data_offsets': "
                   "[0, 4]}}"),
                 std::string(4, '\0')),
        {"tensor \"w\"", "overflows"});
    // 2^31 * 2^31 * 2 = 2^63 fits in uint64 but not in int64; the zero makes it hold 0 bytes.
    row("empty shape whose other dimensions overflow int64",
        raw_file(q("{'w': {'dtype': 'F32', 'shape': [2147483648, 2147483648, 2, 0], "
                   "'data_offsets': [0, 0]}}"),
                 ""),
        {"tensor \"w\"", "overflows"});
    row("dimension above int64",
        raw_file(q("{'w': {'dtype': 'U8', 'shape': [9223372036854775808, 0], "
                   "'data_offsets': [0, 0]}}"),
                 ""),
        {"tensor \"w\"", "non-negative integers"});
    row("invalid UTF-8 in a tensor name",
        raw_file("{\"w\xff\": {\"dtype\": \"U8\", \"shape\": [0], \"data_offsets\": [0, 0]}}", ""),
        {"malformed JSON header", "UTF-8"});
    row("lone surrogate in metadata", raw_file(q("{'__metadata__': {'k': '\\ud800'}}"), ""),
        {"malformed JSON header", "surrogate"});
    {
      std::string many = "{";
      for (int i = 0; i <= 100'000; ++i)
        many += (i ? ",\"t" : "\"t") + std::to_string(i) +
                "\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0,0]}";
      many += "}";
      row("more tensors than the cap", raw_file(many, ""),
          {"lists 100001 tensors; at most 100000 are accepted"});
    }
  }

  void malformed_files_are_refused() {
    QFETCH(QByteArray, bytes);
    QFETCH(QStringList, expected);
    const std::string file = path("bad.safetensors");
    write_bytes(file, std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
    for (ReadMode mode : {ReadMode::Mmap, ReadMode::Stream}) {
      const std::string message = open_error(file, mode);
      QVERIFY2(!message.empty(), mode_name(mode));
      QVERIFY2(message.find(file) == 0, message.c_str());  // names the file
      for (const auto& piece : expected)
        QVERIFY2(
            message.find(piece.toStdString()) != std::string::npos,
            qPrintable(
                QString("%1: \"%2\" not in: %3").arg(mode_name(mode), piece, message.c_str())));
    }
  }

  void missing_path_and_directory_are_refused() {
    for (ReadMode mode : {ReadMode::Mmap, ReadMode::Stream}) {
      QVERIFY(open_error(path("does-not-exist.safetensors"), mode).find("cannot open") !=
              std::string::npos);
      QVERIFY(open_error(dir_.path().toStdString(), mode).find("not a regular file") !=
              std::string::npos);
    }
  }

  void numel_never_overflows() {
    adala::TensorInfo info;
    info.name = "huge";
    info.shape = {int64_t(1) << 31, int64_t(1) << 31, 2, 0};
    try {
      (void)info.numel();
      QFAIL("numel() of a shape whose nonzero product overflows int64 must throw");
    } catch (const SafetensorsError& e) {
      QVERIFY2(std::string(e.what()).find("tensor \"huge\"") != std::string::npos, e.what());
    }
    info.shape = {3, 0, 5};
    QCOMPARE(info.numel(), int64_t(0));
    info.shape = {int64_t(1) << 31, int64_t(1) << 31};
    QCOMPARE(info.numel(), int64_t(1) << 62);
  }

  void unknown_tensor_name_is_named() {
    const std::string file = path("one.safetensors");
    write_safetensors(file, {{"only", torch::ones({2})}});
    SafetensorsReader r(file);
    QVERIFY(!r.contains("other"));
    try {
      r.load("other");
      QFAIL("expected SafetensorsError");
    } catch (const SafetensorsError& e) {
      QVERIFY2(std::string(e.what()).find("\"other\"") != std::string::npos, e.what());
    }
  }

  void inspectable_but_unloadable_dtype() {
    const std::string file = path("u32.safetensors");
    write_bytes(file, raw_file(q("{'u': {'dtype': 'U32', 'shape': [1], 'data_offsets': [0, 4]}}"),
                               std::string(4, '\0')));
    SafetensorsReader r(file);
    QCOMPARE(r.info("u").dtype, std::string("U32"));
    QVERIFY_THROWS_EXCEPTION(SafetensorsError, r.load("u"));
  }

  void writer_refuses_bad_input_and_is_atomic() {
    const std::string file = path("atomic.safetensors");
    write_safetensors(file, {{"x", torch::ones({3})}});
    QVERIFY_THROWS_EXCEPTION(SafetensorsError, write_safetensors(file, {{"x", torch::ones({1})},
                                                                        {"x", torch::ones({2})}}));
    QVERIFY_THROWS_EXCEPTION(
        SafetensorsError, write_safetensors(file, {{"c", torch::ones({2}, torch::kComplexFloat)}}));
    QVERIFY_THROWS_EXCEPTION(SafetensorsError,
                             write_safetensors(file, {{"__metadata__", torch::ones({1})}}));
    // The failed writes left the old file intact and no temporary behind.
    SafetensorsReader r(file);
    QVERIFY(torch::equal(r.load("x"), torch::ones({3})));
    QCOMPARE(int(QDir(dir_.path()).entryList({"atomic.safetensors*"}, QDir::Files).size()), 1);
    // Overwrite in place.
    write_safetensors(file, {{"y", torch::zeros({2})}});
    QVERIFY(SafetensorsReader(file).contains("y"));
    QVERIFY_THROWS_EXCEPTION(SafetensorsError, write_safetensors(path("no/such/dir/x.safetensors"),
                                                                 {{"x", torch::ones({1})}}));
  }
};

ADALA_TEST_GUILESS_MAIN(TestSafetensors)
}  // namespace test_safetensors

#include "test_safetensors.moc"
