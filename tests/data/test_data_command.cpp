// `adala data export-fashion-mnist`: the files it writes and its usage errors.
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

#include "tests/support/run_adala.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_data_command {

namespace {

using Result = adala_test::AdalaResult;
using adala_test::run_adala;

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

class TestDataCommand : public QObject {
  Q_OBJECT
 private slots:
  void export_writes_class_folders_and_the_list() {
    if (!std::filesystem::exists("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"))
      QSKIP("dataset-fashion-mnist not installed");
    const std::string out = ADALA_TEST_TMP "/data_command";
    std::filesystem::remove_all(out);
    const Result r = run_adala({"data", "export-fashion-mnist", QString::fromStdString(out),
                                "--split", "test", "--limit", "4"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.out, QString("test: 4 images, list %1/test.tsv\n").arg(QString::fromStdString(out)));
    // The first four test labels of Fashion-MNIST: 9, 2, 1, 1.
    QCOMPARE(lines(out + "/test.tsv"),
             (std::vector<std::string>{"test/9_Ankle_boot/0.png\t9", "test/2_Pullover/1.png\t2",
                                       "test/1_Trouser/2.png\t1", "test/1_Trouser/3.png\t1"}));
    QVERIFY(std::filesystem::exists(out + "/test/9_Ankle_boot/0.png"));
    QVERIFY(
        std::filesystem::is_directory(out + "/test/0_T-shirt_top"));  // every class has its folder
    QVERIFY(!std::filesystem::exists(out + "/train.tsv"));
  }

  void usage_errors() {
    Result r = run_adala({"data", "export-fashion-mnist", "/tmp/x", "--split", "val"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--split: val not in {train,test,both}"), qPrintable(r.err));
    r = run_adala({"data", "import"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("unknown data command \"import\""), qPrintable(r.err));
    r = run_adala(
        {"data", "export-fashion-mnist", "/tmp/x", "--root", ADALA_TEST_TMP "/no-idx-here"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("Fashion-MNIST file not found: expected " ADALA_TEST_TMP
                            "/no-idx-here/train-images-idx3-ubyte.gz"),
             qPrintable(r.err));
  }
};

ADALA_TEST_GUILESS_MAIN(TestDataCommand)
}  // namespace test_data_command

#include "test_data_command.moc"
