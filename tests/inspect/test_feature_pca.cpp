// The feature PCA behind `adala features` and the Features tab: components against an
// eigen-decomposition of the covariance (a different route to the same answer), the sign rule,
// the shared colour scale, and a student equal to its teacher (cosine 1, identical colours).
#include <torch/torch.h>

#include <QtTest/QtTest>

#include "engine/inspect/feature_pca.h"
#include "tests/support/test_suite.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_feature_pca {

using namespace adala;

namespace {

// N x D features with three dominant, well-separated directions plus noise.
at::Tensor synthetic_features(int64_t n, int64_t d, uint64_t seed) {
  torch::manual_seed(seed);
  const at::Tensor basis =
      std::get<0>(at::linalg_qr(torch::randn({d, 3}, torch::kDouble)));  // D x 3
  const at::Tensor scales = torch::tensor({5.0, 3.0, 1.5}, torch::kDouble);
  const at::Tensor coords = torch::randn({n, 3}, torch::kDouble) * scales;
  return (coords.matmul(basis.t()) + 0.05 * torch::randn({n, d}, torch::kDouble) + 2.0)
      .to(torch::kFloat);
}

}  // namespace

class TestFeaturePca : public QObject {
  Q_OBJECT

 private slots:
  void components_match_the_covariance_eigenvectors() {
    const at::Tensor x = synthetic_features(200, 16, 11);
    const FeaturePca pca = fit_feature_pca(x, 3);
    QCOMPARE(pca.components.size(0), int64_t(3));

    // Reference: eigh of the sample covariance, largest eigenvalues first.
    const at::Tensor xd = x.to(torch::kDouble);
    const at::Tensor centred = xd - xd.mean(0);
    const at::Tensor cov = centred.t().matmul(centred) / double(x.size(0) - 1);
    const auto [values, vectors] = at::linalg_eigh(cov);  // ascending
    const at::Tensor total = values.sum();
    for (int64_t k = 0; k < 3; ++k) {
      const int64_t i = values.size(0) - 1 - k;
      at::Tensor ref = vectors.select(1, i).clone();
      // The same sign rule, applied to the reference: largest-magnitude loading positive.
      const int64_t at_max = ref.abs().argmax().item<int64_t>();
      if (ref[at_max].item<double>() < 0) ref.neg_();
      const at::Tensor ours = pca.components[k];
      QVERIFY2(torch::allclose(ours, ref, 1e-6, 1e-8),
               qPrintable(QString("component %1 differs from the eigenvector").arg(k)));
      QVERIFY(std::abs(pca.explained_variance[size_t(k)] - values[i].item<double>()) <
              1e-8 * values[i].item<double>() + 1e-10);
      QVERIFY(std::abs(pca.explained_variance_ratio[size_t(k)] -
                       (values[i] / total).item<double>()) < 1e-9);
      // The projection is the centred data along the reference vector.
      const at::Tensor projected = project_features(pca, x).select(1, k);
      QVERIFY(torch::allclose(projected, centred.matmul(ref), 1e-6, 1e-8));
      // The sign rule itself.
      QVERIFY(ours[ours.abs().argmax()].item<double>() > 0);
    }
    QVERIFY(pca.explained_variance_ratio[0] > pca.explained_variance_ratio[1]);
    QVERIFY(pca.explained_variance_ratio[1] > pca.explained_variance_ratio[2]);
  }

  void the_sign_does_not_depend_on_the_data_sign() {
    const at::Tensor x = synthetic_features(64, 8, 5);
    const FeaturePca a = fit_feature_pca(x, 3), b = fit_feature_pca(-x, 3);
    // -x has the same directions: the same components after the sign rule.
    QVERIFY(torch::allclose(a.components, b.components, 1e-6, 1e-8));
  }

  void a_student_equal_to_its_teacher_has_cosine_one_and_the_same_colours() {
    const at::Tensor t = synthetic_features(6 * 7, 12, 3);
    const PatchFeatureComparison c = compare_patch_features(t, t.clone(), 6, 7);
    QCOMPARE(c.cosine.sizes(), (at::IntArrayRef{6, 7}));
    QVERIFY(torch::allclose(c.cosine, torch::ones({6, 7}), 0, 1e-6));
    QVERIFY(std::abs(c.mean_cosine - 1.0) < 1e-9);
    QVERIFY(torch::equal(c.teacher_rgb, c.student_rgb));
    QCOMPARE(c.teacher_rgb.sizes(), (at::IntArrayRef{6, 7, 3}));
    // The teacher's own range spans the whole colour scale on every channel.
    for (int64_t ch = 0; ch < 3; ++ch) {
      QCOMPARE(c.teacher_rgb.select(2, ch).min().item<int>(), 0);
      QCOMPARE(c.teacher_rgb.select(2, ch).max().item<int>(), 255);
    }
  }

  void the_student_is_coloured_on_the_teachers_scale() {
    const at::Tensor t = synthetic_features(5 * 5, 10, 8);
    // A student twice as far from the teacher's mean along every direction: its projections
    // double, so most of it clamps at the ends of the teacher's scale.
    const at::Tensor mean = t.mean(0);
    const at::Tensor s = mean + 2.0 * (t - mean);
    const PatchFeatureComparison c = compare_patch_features(t, s, 5, 5);
    const at::Tensor expected =
        ((c.student_projection - c.component_min) / (c.component_max - c.component_min))
            .clamp(0, 1)
            .mul(255)
            .round()
            .to(torch::kByte)
            .view({5, 5, 3});
    QVERIFY(torch::equal(c.student_rgb, expected));
    QVERIFY(!torch::equal(c.student_rgb, c.teacher_rgb));
    // Per-patch cosine against a direct computation.
    const at::Tensor cos = (t * s).sum(1) / (t.norm(2, 1) * s.norm(2, 1));
    QVERIFY(torch::allclose(c.cosine.flatten(), cos, 1e-5, 1e-6));
    QVERIFY(std::abs(c.mean_cosine - cos.mean().item<double>()) < 1e-5);
  }

  void bad_shapes_are_refused() {
    const at::Tensor t = torch::randn({12, 4});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             compare_patch_features(t, torch::randn({12, 5}), 3, 4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compare_patch_features(t, t, 4, 4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fit_feature_pca(torch::randn({0, 4})));
  }

  void patch_features_drop_the_prefix_tokens() {
    ViTConfig cfg = vit_preset("fmnist_micro");
    cfg.num_register_tokens = 2;
    VisionTransformer model(cfg);
    model->eval();
    const at::Tensor image = torch::rand({1, cfg.in_chans, cfg.img_size, cfg.img_size});
    const PatchFeatures f = final_patch_features(model, image);
    const int64_t g = cfg.img_size / cfg.patch_size;
    QCOMPARE(f.grid_height, g);
    QCOMPARE(f.features.sizes(), (at::IntArrayRef{g * g, cfg.embed_dim}));
    torch::NoGradGuard no_grad;
    const at::Tensor all = model->forward_features(image)[0];
    QVERIFY(torch::equal(f.features, all.narrow(0, 3, g * g)));
  }
};

ADALA_TEST_APPLESS_MAIN(TestFeaturePca)
}  // namespace test_feature_pca

#include "test_feature_pca.moc"
