// keep_freed_memory_for_reuse: a decode thread that allocates and frees a batch's worth of
// 224x224x3 float crops every step touches fresh pages every time under glibc's defaults
// (about 9,400 page faults a round, measured) and none once freed memory is kept for reuse.
#include <QtTest/QtTest>

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "engine/kernels/memory_reuse.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_memory_reuse {

namespace {

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Faults per round of the loader's pattern after the first round, on a thread of its own (its
// own malloc arena, as a decode thread has).
long faults_per_round() {
  constexpr size_t kCrop = 3 * 224 * 224 * sizeof(float);
  constexpr int kRounds = 12;
  long counted = 0;
  std::thread worker([&] {
    for (int round = 0; round < kRounds; ++round) {
      const long before = minor_faults();
      std::vector<void*> crops;
      for (int i = 0; i < 64; ++i) {
        void* p = std::malloc(kCrop);
        std::memset(p, i, kCrop);
        crops.push_back(p);
      }
      for (void* p : crops) std::free(p);
      if (round > 0) counted += minor_faults() - before;
    }
  });
  worker.join();
  return counted / (kRounds - 1);
}

}  // namespace

class TestMemoryReuse : public QObject {
  Q_OBJECT
 private slots:
  void freed_crops_are_reused_without_page_faults() {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
    QSKIP("glibc's malloc only (AddressSanitizer has its own)");
#endif
    adala::keep_freed_memory_for_reuse();
    const long faults = faults_per_round();
    // 64 crops of 602,112 bytes are 9,408 pages; reused memory faults on none of them.
    qInfo("page faults per round: %ld", faults);
    QVERIFY2(faults < 200, qPrintable(QString::number(faults)));
  }
};

ADALA_TEST_GUILESS_MAIN(TestMemoryReuse)
}  // namespace test_memory_reuse

#include "test_memory_reuse.moc"
