#include <QtTest/QtTest>

#include <dlfcn.h>

#include <future>
#include <thread>

#include "engine/runtime/device.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_device {

using adala::openblas_threads;
using adala::SingleThreadedBlas;

namespace {

void set_openblas_threads(int n) {
  using SetThreads = void (*)(int);
  auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set) set(n);
}

}  // namespace

class TestDevice : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    if (openblas_threads() < 0) QSKIP("LibTorch is not linked against OpenBLAS here");
    before_ = openblas_threads();
    set_openblas_threads(2);
  }
  void cleanup() {
    if (before_ > 0) set_openblas_threads(before_);
  }

  void nested_scopes_restore_once() {
    {
      const SingleThreadedBlas outer;
      {
        const SingleThreadedBlas inner;
        QCOMPARE(openblas_threads(), 1);
      }
      QCOMPARE(openblas_threads(), 1);
    }
    QCOMPARE(openblas_threads(), 2);
  }

  // A enters, B enters, A leaves while B still runs its kernel, then B leaves: OpenBLAS stays
  // single-threaded until the last scope closes and gets its pool back afterwards.
  void overlapping_scopes_on_two_threads() {
    std::promise<void> a_entered, b_entered, a_left, b_may_leave;
    int threads_seen_by_b_after_a_left = 0;
    std::thread a([&] {
      {
        const SingleThreadedBlas scope;
        a_entered.set_value();
        b_entered.get_future().wait();
      }
      a_left.set_value();
    });
    std::thread b([&] {
      a_entered.get_future().wait();
      {
        const SingleThreadedBlas scope;
        b_entered.set_value();
        a_left.get_future().wait();
        threads_seen_by_b_after_a_left = openblas_threads();
        b_may_leave.get_future().wait();
      }
    });
    a.join();
    const int threads_while_b_is_inside = openblas_threads();
    b_may_leave.set_value();
    b.join();
    QCOMPARE(threads_while_b_is_inside, 1);
    QCOMPARE(threads_seen_by_b_after_a_left, 1);
    QCOMPARE(openblas_threads(), 2);
  }

 private:
  int before_ = -1;
};

ADALA_TEST_GUILESS_MAIN(TestDevice)
}  // namespace test_device

#include "test_device.moc"
