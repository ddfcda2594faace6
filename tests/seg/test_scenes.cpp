// Synthetic segmentation scenes: deterministic per (seed, index), masks agree with the
// pasted garments, occlusion order, any resolution, procedural textures.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <set>

#include "engine/data/fashion_mnist.h"
#include "engine/data/procedural_texture.h"
#include "engine/data/segmentation_classes.h"
#include "engine/data/segmentation_scenes.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_scenes {

using namespace adala;

namespace {

ImageDataset garment_pool() {
  static ImageDataset pool = load_fashion_mnist(default_fashion_mnist_root(), "test", 200);
  return pool;
}

SceneOptions small_options() {
  SceneOptions o;
  o.image_size = 64;
  return o;
}

}  // namespace

class ScenesTest : public QObject {
  Q_OBJECT
 private slots:
  void same_seed_same_scene() {
    SceneGenerator a(garment_pool(), small_options(), 42), b(garment_pool(), small_options(), 42);
    for (int64_t i : {0, 1, 17}) {
      auto sa = a.scene(i), sb = b.scene(i);
      QVERIFY(at::equal(sa.image, sb.image));
      QVERIFY(at::equal(sa.mask, sb.mask));
    }
    // A data set equals its scenes one by one, whatever the first index.
    auto d = a.generate(3, 5);
    QCOMPARE(d.images.sizes(), (at::IntArrayRef{3, 3, 64, 64}));
    QCOMPARE(d.masks.scalar_type(), at::kByte);
    QVERIFY(at::equal(d.images[1], a.scene(6).image));
    QVERIFY(at::equal(d.masks[2], b.scene(7).mask));
    QCOMPARE(QString::fromStdString(d.ids[0]), QString("000005"));
    QCOMPARE(d.num_classes(), kSceneClassCount);
    // The compact copy: each value rounded to 1/255, read back as float within half a step.
    auto compact = a.generate(3, 5, at::kByte);
    QCOMPARE(compact.images.scalar_type(), at::kByte);
    QVERIFY(at::equal(compact.masks, d.masks));
    QVERIFY(at::equal(compact.images, d.images.mul(255.0).round().to(at::kByte)));
    const auto back = float_images(compact.images);
    QCOMPARE(back.scalar_type(), at::kFloat);
    QVERIFY((back - d.images).abs().max().item<float>() <= 0.5f / 255.f + 1e-6f);
    QVERIFY(float_images(d.images).is_same(d.images));  // float stays as it is
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, a.generate(1, 0, at::kLong));
  }

  void different_seed_or_index_differs() {
    SceneGenerator a(garment_pool(), small_options(), 1), b(garment_pool(), small_options(), 2);
    QVERIFY(!at::equal(a.scene(0).image, b.scene(0).image));
    QVERIFY(!at::equal(a.scene(0).mask, b.scene(0).mask));
    QVERIFY(!at::equal(a.scene(0).image, a.scene(1).image));
  }

  void scenes_hold_several_garment_classes() {
    SceneOptions o = small_options();
    o.min_garments = 2;
    o.max_garments = 4;
    SceneGenerator g(garment_pool(), o, 7);
    auto d = g.generate(20);
    std::set<int64_t> seen;
    auto flat = d.masks.flatten().to(at::kLong);
    for (int64_t c = 0; c < kSceneClassCount; ++c)
      if (flat.eq(c).any().item<bool>()) seen.insert(c);
    QVERIFY(seen.count(0));
    QVERIFY2(seen.size() >= 8, "20 scenes should cover most garment classes");
    QVERIFY(flat.max().item<int64_t>() <= 10);
    QVERIFY(d.images.min().item<float>() >= 0.f && d.images.max().item<float>() <= 1.f);
    // Every scene has some garment pixels and some background.
    for (int64_t i = 0; i < 20; ++i) {
      auto m = d.masks[i];
      QVERIFY(m.gt(0).any().item<bool>());
      QVERIFY(m.eq(0).any().item<bool>());
    }
  }

  void mask_equals_thresholded_garment_at_its_place() {
    SceneGenerator g(garment_pool(), small_options(), 3);
    SceneLayout l;
    l.background.kind = TextureKind::Plain;
    l.background.color_a = {0.1f, 0.2f, 0.3f};
    GarmentPlacement p;
    p.source = 11;
    p.x = 0.2;
    p.y = 0.35;
    p.size = 0.5;
    p.tint = {1.f, 0.5f, 0.25f};
    l.garments.push_back(p);
    auto s = g.render(l, 64);
    const auto box = g.garment_box(p, 64);  // left, top, side
    QCOMPARE(box[0], int64_t(13));          // round(0.2 * 64)
    QCOMPARE(box[1], int64_t(22));          // round(0.35 * 64)
    QCOMPARE(box[2], int64_t(32));
    auto px = g.garment_pixels(p, 64);
    QCOMPARE(px.sizes(), (at::IntArrayRef{32, 32}));
    const int64_t label = g.garments().labels[11].item<int64_t>();
    auto on = px.gt(0.2f);
    QVERIFY(on.any().item<bool>());
    // Inside the box: the class where the garment is on, background elsewhere.
    auto inside = s.mask.narrow(0, box[1], 32).narrow(1, box[0], 32);
    QVERIFY(at::equal(inside, on.to(at::kByte) * uint8_t(label + 1)));
    // Outside the box: background only.
    QCOMPARE(s.mask.gt(0).sum().item<int64_t>(), on.sum().item<int64_t>());
    // Pixels: the tinted garment where on, the plain colour elsewhere.
    auto img = s.image.narrow(1, box[1], 32).narrow(2, box[0], 32);
    auto tint = at::tensor({1.f, 0.5f, 0.25f}).view({3, 1, 1});
    auto bg = at::tensor({0.1f, 0.2f, 0.3f}).view({3, 1, 1}).expand({3, 32, 32});
    auto expected = at::where(on.unsqueeze(0), px.unsqueeze(0) * tint, bg);
    QVERIFY(at::allclose(img, expected, 0, 1e-6));
    QVERIFY(at::allclose(s.image[2].narrow(0, 0, 20), at::full({20, 64}, 0.3f)));
    // At 28 px the garment is the source image itself.
    GarmentPlacement native = p;
    native.size = 28.0 / 64.0;
    QVERIFY(at::allclose(g.garment_pixels(native, 64), g.garments().images[11][0]));
  }

  void later_garments_occlude_earlier_ones() {
    SceneGenerator g(garment_pool(), small_options(), 3);
    // Two different-class garments on the same spot: the second one wins where it is on.
    int64_t first = 0, second = 1;
    while (g.garments().labels[second].item<int64_t>() ==
           g.garments().labels[first].item<int64_t>())
      ++second;
    SceneLayout l;
    GarmentPlacement a, b;
    a.source = first;
    b.source = second;
    a.x = b.x = 0.1;
    a.y = b.y = 0.1;
    a.size = b.size = 0.6;
    l.garments = {a, b};
    auto s = g.render(l, 64);
    auto box = g.garment_box(a, 64);
    auto on_a = g.garment_pixels(a, 64).gt(0.2f), on_b = g.garment_pixels(b, 64).gt(0.2f);
    auto m = s.mask.narrow(0, box[1], box[2]).narrow(1, box[0], box[2]).to(at::kLong);
    const int64_t ca = g.garments().labels[first].item<int64_t>() + 1;
    const int64_t cb = g.garments().labels[second].item<int64_t>() + 1;
    QVERIFY(m.masked_select(on_b).eq(cb).all().item<bool>());
    QVERIFY(m.masked_select(on_a.logical_and(on_b.logical_not())).eq(ca).all().item<bool>());
    QVERIFY(m.masked_select(on_a.logical_or(on_b).logical_not()).eq(0).all().item<bool>());
  }

  void any_resolution() {
    SceneGenerator g(garment_pool(), small_options(), 5);
    auto layout = g.layout(4);
    auto small = g.render(layout, 112), big = g.render(layout, 1024);
    QCOMPARE(big.image.sizes(), (at::IntArrayRef{3, 1024, 1024}));
    QCOMPARE(big.mask.sizes(), (at::IntArrayRef{1024, 1024}));
    // The same scene: shrinking the big mask by nearest neighbour mostly gives the small one.
    auto idx = ((at::arange(112, at::kFloat) + 0.5f) * (1024.0f / 112.0f)).floor().to(at::kLong);
    auto down = big.mask.index_select(0, idx).index_select(1, idx);
    const double agree = down.eq(small.mask).to(at::kFloat).mean().item<double>();
    QVERIFY2(agree > 0.9, qPrintable(QString("agreement %1").arg(agree)));
  }

  void textures_are_deterministic_and_distinct() {
    for (int k = 0; k < 5; ++k) {
      TextureSpec s;
      s.kind = static_cast<TextureKind>(k);
      s.color_a = {0.f, 0.2f, 0.4f};
      s.color_b = {0.6f, 0.4f, 0.2f};
      s.angle = 0.3;
      s.period = 0.2;
      s.noise_seed = 99;
      auto t = render_texture(s, 40, 48);
      QCOMPARE(t.sizes(), (at::IntArrayRef{3, 40, 48}));
      QVERIFY(at::equal(t, render_texture(s, 40, 48)));
      QVERIFY(t.min().item<float>() >= -1e-6f && t.max().item<float>() <= 0.6f + 1e-6f);
      const double spread = (t[0].max() - t[0].min()).item<double>();
      if (s.kind == TextureKind::Plain)  // one colour expanded over the image: exactly no spread
        ADALA_COMPARE_EXACT(spread, 0.0);
      else
        QVERIFY2(spread > 0.1, to_string(s.kind));  // patterned: the two colours both show
    }
    // Checker cells alternate exactly.
    TextureSpec c;
    c.kind = TextureKind::Checker;
    c.color_a = {0.f, 0.f, 0.f};
    c.color_b = {1.f, 1.f, 1.f};
    c.period = 0.25;
    auto t = render_texture(c, 8, 8)[0];
    // The weight is remainder(whole number of cells, 2), exactly 0 or 1 (pixel centres are a
    // quarter of a cell or more from a cell edge), and blending black and white by it is exact.
    ADALA_COMPARE_EXACT(t[0][0].item<float>(), 0.f);
    ADALA_COMPARE_EXACT(t[0][2].item<float>(), 1.f);
    ADALA_COMPARE_EXACT(t[2][2].item<float>(), 0.f);
    ADALA_COMPARE_EXACT(t[2][0].item<float>(), 1.f);
  }

  void options_are_checked() {
    SceneOptions o;
    o.max_garments = 1;
    o.min_garments = 3;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, o.validate());
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        make_scene_generator(default_fashion_mnist_root(), "test", SceneOptions{}, 0, 10));
    // Training and validation scenes come from different garment pools and layouts.
    auto tr =
        make_scene_generator(default_fashion_mnist_root(), "training", small_options(), 0, 100);
    auto va =
        make_scene_generator(default_fashion_mnist_root(), "validation", small_options(), 0, 100);
    QVERIFY(!at::equal(tr.scene(0).mask, va.scene(0).mask));
    QVERIFY(!at::equal(tr.garments().images, va.garments().images));
  }

  void palette() {
    auto classes = fashion_scene_classes();
    QCOMPARE(int64_t(classes.size()), kSceneClassCount);
    QCOMPARE(QString::fromStdString(classes[0].name), QString("background"));
    QCOMPARE(QString::fromStdString(classes[0].hex()), QString("#202020"));
    QCOMPARE(QString::fromStdString(classes[1].name), QString("T-shirt/top"));
    QCOMPARE(QString::fromStdString(classes[10].name), QString("Ankle boot"));
    std::set<std::string> colours;
    for (const auto& c : classes) colours.insert(c.hex());
    QCOMPARE(colours.size(), classes.size());
    auto many = numbered_classes(150);
    std::set<std::string> distinct;
    for (const auto& c : many) distinct.insert(c.hex());
    QVERIFY(distinct.size() >= 140);
  }
};

ADALA_TEST_GUILESS_MAIN(ScenesTest)
}  // namespace test_scenes

#include "test_scenes.moc"
