// The fused linear-attention kernel's register-tiled products (small_gemm.h) against at::mm in
// double precision: every row and column tail of the 6 x 16 tiles, leftover columns, long and
// empty inner dimensions, padded strides, accumulation, the epilogue, non-temporal stores.
#include <torch/torch.h>

#include <cmath>

#include <QtTest/QtTest>

#include "engine/kernels/small_gemm.h"
#include "tests/support/relative_error.h"
#include "tests/support/test_suite.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_small_gemm {

using namespace adala;
using adala_test::rel_error;

namespace {

// The largest error of any element relative to the size of the terms summed into it
// (magnitude: the same computation on absolute values), so that a sum that cancels to almost
// nothing is judged by float32's rounding of its terms, not by its own tiny size.
double error_against_magnitude(const torch::Tensor& a, const torch::Tensor& ref,
                               const torch::Tensor& magnitude) {
  const auto diff = (a.to(torch::kDouble) - ref.to(torch::kDouble)).abs();
  return (diff / (magnitude.to(torch::kDouble) + 1e-30)).max().item<double>();
}

// A row-major float matrix with `pad` extra floats at the end of each row (NaN there, so a
// read of the padding shows in the result and a write to it in the padding check).
struct Padded {
  torch::Tensor store;
  int64_t rows, cols;
  Padded(int64_t r, int64_t c, int64_t pad) : rows(r), cols(c) {
    store = torch::full({r, c + pad}, std::nan(""));
    store.narrow(1, 0, c).copy_(torch::randn({r, c}));
  }
  torch::Tensor values() const { return store.narrow(1, 0, cols); }
  torch::Tensor padding() const { return store.narrow(1, cols, store.size(1) - cols); }
  float* data() const { return store.data_ptr<float>(); }
  int64_t stride() const { return store.size(1); }
};

enum class Epilogue { None, Divide, ThroughPhi, All };

QString case_text(const char* what, int64_t m, int64_t n, int64_t k, bool accumulate, int part) {
  return QString("%1 m %2 n %3 k %4 accumulate %5 epilogue %6")
      .arg(what)
      .arg(m)
      .arg(n)
      .arg(k)
      .arg(accumulate)
      .arg(part);
}

}  // namespace

class TestSmallGemm : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    torch::manual_seed(7);
    qInfo("products through %s",
          small_gemm_vectorised() ? "the AVX2 register tiles" : "row_major_gemm");
  }

  void nn_matches_mm_in_double() {
    for (const int64_t m : {1, 5, 6, 7, 13, 256})
      for (const int64_t n : {1, 8, 16, 24, 65, 72})
        for (const int64_t k : {0, 1, 64, 300})
          for (const bool accumulate : {false, true})
            for (const auto part :
                 {Epilogue::None, Epilogue::Divide, Epilogue::ThroughPhi, Epilogue::All}) {
              Padded a(m, k, 3), b(k, n, 5), c(m, n, 2);
              const auto c_before = c.values().clone();
              const auto row_scale = torch::rand({m}) + 0.5;
              const auto col_add = torch::randn({n});
              Padded phi(m, n, 1);
              phi.values().copy_(torch::rand({m, n}) * 2);  // both sides of phi' = min(phi, 1)
              ProductEpilogue<float> e;
              const auto ad = a.values().to(torch::kDouble), bd = b.values().to(torch::kDouble);
              auto expected = torch::mm(ad, bd), magnitude = torch::mm(ad.abs(), bd.abs());
              if (part == Epilogue::Divide || part == Epilogue::All) {
                e.row_scale = row_scale.data_ptr<float>();
                expected = expected * row_scale.to(torch::kDouble).unsqueeze(1);
                magnitude = magnitude * row_scale.to(torch::kDouble).unsqueeze(1);
              }
              if (part == Epilogue::ThroughPhi || part == Epilogue::All) {
                e.col_add = col_add.data_ptr<float>();
                e.phi = phi.data();
                e.phi_stride = phi.stride();
                const auto derivative = phi.values().to(torch::kDouble).clamp_max(1.0);
                expected = (expected + col_add.to(torch::kDouble)) * derivative;
                magnitude = (magnitude + col_add.to(torch::kDouble).abs()) * derivative;
              }
              if (accumulate) {
                expected = expected + c_before.to(torch::kDouble);
                magnitude = magnitude + c_before.to(torch::kDouble).abs();
              }
              small_gemm_nn(m, n, k, a.data(), a.stride(), b.data(), b.stride(), c.data(),
                            c.stride(), accumulate, false, e);
              const auto what = case_text("nn", m, n, k, accumulate, int(part));
              QVERIFY2(error_against_magnitude(c.values(), expected, magnitude) < 1e-5,
                       qPrintable(what));
              QVERIFY2(torch::isnan(c.padding()).all().item<bool>(), qPrintable(what));
            }
  }

  void tn_matches_mm_in_double() {
    for (const int64_t m : {1, 4, 5, 6, 7, 13, 64, 65})
      for (const int64_t n : {1, 8, 16, 24, 65})
        for (const int64_t k : {0, 1, 63, 64, 65, 256, 300})
          for (const bool accumulate : {false, true}) {
            Padded a(k, m, 3), b(k, n, 5), c(m, n, 2);
            const auto c_before = c.values().clone();
            const auto ad = a.values().to(torch::kDouble), bd = b.values().to(torch::kDouble);
            auto expected = torch::mm(ad.t(), bd), magnitude = torch::mm(ad.t().abs(), bd.abs());
            if (accumulate) {
              expected = expected + c_before.to(torch::kDouble);
              magnitude = magnitude + c_before.to(torch::kDouble).abs();
            }
            small_gemm_tn(m, n, k, a.data(), a.stride(), b.data(), b.stride(), c.data(), c.stride(),
                          accumulate);
            const auto what = case_text("tn", m, n, k, accumulate, 0);
            QVERIFY2(error_against_magnitude(c.values(), expected, magnitude) < 1e-5,
                     qPrintable(what));
            QVERIFY2(torch::isnan(c.padding()).all().item<bool>(), qPrintable(what));
          }
  }

  // Non-temporal stores give the same bits as ordinary ones: C 32-byte aligned with a row
  // stride of 80 floats (streamed), and one float off (ordinary stores); 72 columns are four
  // 16-column tiles and one of 8, 67 leave 3 columns to the dot-product path.
  void streamed_products_equal_stored_ones() {
    const int64_t m = 29, k = 64, stride = 80;
    for (const int64_t n : {72, 67})
      for (const int64_t offset : {0, 1}) {
        Padded a(m, k, 0), b(k, n, 0);
        const auto row_scale = torch::rand({m}) + 0.5;
        ProductEpilogue<float> e;
        e.row_scale = row_scale.data_ptr<float>();
        // 32-byte aligned storage: LibTorch's CPU allocator aligns to 64 bytes.
        auto plain = torch::full({m * stride + 8}, std::nan(""));
        auto streamed = plain.clone();
        QCOMPARE(reinterpret_cast<uintptr_t>(streamed.data_ptr<float>()) % 32, uintptr_t(0));
        small_gemm_nn(m, n, k, a.data(), k, b.data(), n, plain.data_ptr<float>() + offset, stride,
                      false, false, e);
        small_gemm_nn(m, n, k, a.data(), k, b.data(), n, streamed.data_ptr<float>() + offset,
                      stride, false, true, e);
        QVERIFY(torch::equal(plain.view(torch::kInt), streamed.view(torch::kInt)));
        auto rows = streamed.narrow(0, offset, m * stride).view({m, stride});
        QVERIFY(torch::isnan(rows.narrow(1, n, stride - n)).all().item<bool>());
        const auto expected =
            torch::mm(a.values().to(torch::kDouble), b.values().to(torch::kDouble)) *
            row_scale.to(torch::kDouble).unsqueeze(1);
        QVERIFY(rel_error(rows.narrow(1, 0, n), expected) < 1e-6);
      }
  }

  // A NaN in phi, or in an operand, reaches the output (as std::min(phi, 1) would pass it on)
  // rather than being clipped to 1: the non-finite checks downstream must see it.
  void nan_reaches_the_output() {
    const int64_t m = 7, n = 17, k = 9;
    Padded a(m, k, 0), b(k, n, 0), c(m, n, 0);
    Padded phi(m, n, 0);
    phi.values().copy_(torch::rand({m, n}) + 2);  // phi' = 1 everywhere
    phi.values()[2][3] = std::nan("");
    phi.values()[4][16] = std::nan("");  // a leftover column
    const auto col_add = torch::zeros({n});
    ProductEpilogue<float> e;
    e.col_add = col_add.data_ptr<float>();
    e.phi = phi.data();
    e.phi_stride = n;
    small_gemm_nn(m, n, k, a.data(), k, b.data(), n, c.data(), n, false, false, e);
    auto nan_at = torch::zeros({m, n}, torch::kBool);
    nan_at[2][3] = true;
    nan_at[4][16] = true;
    QVERIFY(torch::equal(torch::isnan(c.values()), nan_at));
    QVERIFY(rel_error(c.values().masked_fill(nan_at, 0),
                      torch::mm(a.values(), b.values()).masked_fill(nan_at, 0)) < 1e-6);
    // tn: C2 (k x n) = A^T B over A's m rows; C2[0][j] sums A[p][0] B[p][j] over p.
    a.values()[1][0] = std::nan("");
    Padded c2(k, n, 0);
    small_gemm_tn(k, n, m, a.data(), k, b.data(), n, c2.data(), n, false);
    QVERIFY(torch::isnan(c2.values()[0]).all().item<bool>());
    QVERIFY(!torch::isnan(c2.values().narrow(0, 1, k - 1)).any().item<bool>());
  }
};

ADALA_TEST_APPLESS_MAIN(TestSmallGemm)
}  // namespace test_small_gemm

#include "test_small_gemm.moc"
