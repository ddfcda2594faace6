// The timm / DINOv2 transforms: RandomResizedCrop and centre-crop geometry against boxes worked
// out by hand, the antialiased resampling against ATen's, normalisation values and flips.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <deque>

#include "engine/data/image_transform.h"

using namespace adala;

namespace {

// A uniform() that replays a script, so the boxes can be worked out by hand.
std::function<double()> scripted(std::deque<double> values) {
  auto queue = std::make_shared<std::deque<double>>(std::move(values));
  return [queue] {
    if (queue->empty()) throw std::logic_error("script exhausted");
    const double v = queue->front();
    queue->pop_front();
    return v;
  };
}

const std::array<double, 2> kScale{0.08, 1.0};
const std::array<double, 2> kRatio{3.0 / 4.0, 4.0 / 3.0};

at::Tensor ramp(int64_t c, int64_t h, int64_t w) {
  return at::arange(c * h * w, at::kLong)
      .remainder(251)
      .to(at::kByte)
      .reshape({c, h, w})
      .contiguous();
}

}  // namespace

class TestImageTransforms : public QObject {
  Q_OBJECT
 private slots:
  void random_resized_crop_first_fitting_attempt() {
    // 100x200 (area 20000). Attempt 1: area 0.08 + 0.92 * 0.5 = 0.54 -> 10800, ratio
    // exp(mid of log(3/4), log(4/3)) = 1 -> 104 x 104, taller than 100: rejected (its two
    // position draws are still taken). Attempt 2: area 0.08 -> 1600, ratio 1 -> 40 x 40; top
    // floor(0.5 * 61) = 30, left floor(0.25 * 161) = 40.
    auto box = random_resized_crop_box(100, 200, kScale, kRatio,
                                       scripted({0.5, 0.5, 0.9, 0.9, 0.0, 0.5, 0.5, 0.25}));
    QCOMPARE(box, (CropBox{30, 40, 40, 40}));
  }

  void random_resized_crop_aspect_and_rounding() {
    // 300x300, area 0.08 + 0.92 * 0.25 = 0.31 -> 27900; ratio at u = 1: 4/3 -> width
    // round(sqrt(37200)) = round(192.87) = 193, height round(sqrt(20925)) = round(144.65) = 145;
    // top floor(0.999 * 156) = 155, left floor(0 * 108) = 0.
    auto box = random_resized_crop_box(300, 300, kScale, kRatio, scripted({0.25, 1.0, 0.999, 0.0}));
    QCOMPARE(box, (CropBox{155, 0, 145, 193}));
  }

  void random_resized_crop_falls_back_to_the_centre() {
    // 10x1000: every attempt at u = 0.99 wants about 115 x 86, taller than 10. Fallback: the
    // image is wider than 4/3, so height 10, width round(10 * 4/3) = 13, centred: left 493.
    auto box = random_resized_crop_box(10, 1000, kScale, kRatio, [] { return 0.99; });
    QCOMPARE(box, (CropBox{0, 493, 10, 13}));
    // 1000x10 (taller than 3/4): width 10, height round(10 / (3/4)) = 13, top 493.
    box = random_resized_crop_box(1000, 10, kScale, kRatio, [] { return 0.99; });
    QCOMPARE(box, (CropBox{493, 0, 13, 10}));
  }

  void eval_geometry_matches_timm() {
    // 300x400 at 224 / 0.875: shorter side 256, longer int(256 * 400 / 300) = 341; crop top
    // round(32 / 2) = 16, left round(117 / 2) = round(58.5) = 58 (half to even, as Python).
    auto g = eval_resize_crop_geometry(300, 400, 224, 0.875);
    QCOMPARE(g.resized_height, int64_t(256));
    QCOMPARE(g.resized_width, int64_t(341));
    QCOMPARE(g.crop, (CropBox{16, 58, 224, 224}));
    g = eval_resize_crop_geometry(500, 375, 224, 0.875);  // portrait
    QCOMPARE(g.resized_height, int64_t(341));
    QCOMPARE(g.resized_width, int64_t(256));
    QCOMPARE(g.crop, (CropBox{58, 16, 224, 224}));
    g = eval_resize_crop_geometry(28, 28, 28, 1.0);  // crop_pct 1: no margin
    QCOMPARE(g.crop, (CropBox{0, 0, 28, 28}));
    g = eval_resize_crop_geometry(64, 64, 56, 0.9);  // floor(56 / 0.9) = 62
    QCOMPARE(g.resized_height, int64_t(62));
    QCOMPARE(g.crop, (CropBox{3, 3, 56, 56}));
  }

  void resize_of_the_whole_box_at_scale_one_is_a_copy() {
    auto img = ramp(3, 9, 13);
    auto out = resize_box(img, 0, 0, 9, 13, 9, 13);
    QVERIFY(at::equal(out, img.to(at::kFloat)));
    // A sub-box at scale one is the crop itself.
    out = resize_box(img, 2, 3, 4, 5, 4, 5);
    QVERIFY(at::equal(out, img.narrow(1, 2, 4).narrow(2, 3, 5).to(at::kFloat)));
  }

  void resize_matches_atens_antialiased_bilinear() {
    for (auto [h, w, oh, ow] :
         std::vector<std::array<int64_t, 4>>{{37, 53, 16, 24}, {10, 7, 23, 19}, {64, 64, 28, 28}}) {
      auto img = ramp(3, h, w);
      auto ours = resize_box(img, 0, 0, double(h), double(w), oh, ow);
      auto ref = at::_upsample_bilinear2d_aa(img.to(at::kFloat).unsqueeze(0), {oh, ow}, false)[0];
      const double diff = (ours - ref).abs().max().item<double>();
      QVERIFY2(diff < 1e-3,
               qPrintable(
                   QString("%1x%2 -> %3x%4: max diff %5").arg(h).arg(w).arg(oh).arg(ow).arg(diff)));
    }
  }

  void eval_transform_is_the_crop_of_the_full_resize() {
    auto img = ramp(3, 30, 40);
    TransformSpec spec;
    spec.resolution = 16;
    spec.mean = {0.0};
    spec.std = {1.0};
    SplitMix64 rng(1);
    auto out = apply_transform(img, spec, false, rng);
    // floor(16 / 0.875) = 18: 18 x int(18 * 40 / 30) = 18 x 24, crop top 1, left 4.
    auto full = at::_upsample_bilinear2d_aa(img.to(at::kFloat).unsqueeze(0), {18, 24}, false)[0];
    auto ref = full.narrow(1, 1, 16).narrow(2, 4, 16) / 255.0;
    QVERIFY((out - ref).abs().max().item<double>() < 1e-5);
  }

  void normalisation_values() {
    // A flat image of value v: every output pixel is (v / 255 - mean) / std of its channel.
    auto img = at::empty({3, 8, 8}, at::kByte);
    img[0].fill_(0);
    img[1].fill_(128);
    img[2].fill_(255);
    TransformSpec spec;
    spec.resolution = 8;
    spec.crop_pct = 1.0;
    SplitMix64 rng(3);
    auto out = apply_transform(img, spec, false, rng);
    const double expected[3] = {(0.0 - 0.485) / 0.229, (128.0 / 255.0 - 0.456) / 0.224,
                                (1.0 - 0.406) / 0.225};
    for (int c = 0; c < 3; ++c) {
      QVERIFY(std::abs(out[c].min().item<double>() - expected[c]) < 1e-5);
      QVERIFY(std::abs(out[c].max().item<double>() - expected[c]) < 1e-5);
    }
    // "none" keeps Fashion-MNIST's convention: x / 255 exactly, as the idx reader.
    auto grey = ramp(1, 28, 28);
    TransformSpec none;
    none.preprocess = "none";
    none.resolution = 28;
    none.mean = {0.0};
    none.std = {1.0};
    QVERIFY(at::equal(apply_transform(grey, none, true, rng), grey.to(at::kFloat).div_(255.0)));
    none.mean = {0.5};
    none.std = {0.25};
    auto normed = apply_transform(grey, none, true, rng);
    QVERIFY((normed - (grey.to(at::kFloat) / 255.0 - 0.5) / 0.25).abs().max().item<double>() <
            1e-6);
  }

  void training_transform_draws_crop_and_flip_from_the_generator() {
    auto img = ramp(3, 40, 50);
    TransformSpec spec;
    spec.resolution = 12;
    spec.mean = {0.0};
    spec.std = {1.0};
    spec.hflip = 1.0;  // always flip
    auto a = sample_generator(9, 5, 2), b = sample_generator(9, 5, 2);
    auto out = apply_transform(img, spec, true, a);
    // The same draws by hand: the box from the generator, resized, then mirrored.
    const CropBox box =
        random_resized_crop_box(40, 50, spec.scale, spec.ratio, [&] { return b.uniform(); });
    b.uniform();  // the flip draw
    auto ref = resize_box(img, double(box.top), double(box.left), double(box.height),
                          double(box.width), 12, 12)
                   .flip({2}) /
               255.0;
    QVERIFY((out - ref).abs().max().item<double>() < 1e-6);
    QVERIFY(sample_generator(9, 5, 2).next() != sample_generator(9, 5, 3).next());
    QVERIFY(sample_generator(9, 5, 2).next() != sample_generator(9, 6, 2).next());
    QVERIFY(sample_generator(9, 5, 2).next() != sample_generator(8, 5, 2).next());
  }

  void bad_specs_are_refused() {
    SplitMix64 rng(0);
    TransformSpec none;
    none.preprocess = "none";
    none.resolution = 32;
    QVERIFY_EXCEPTION_THROWN(apply_transform(ramp(3, 28, 28), none, false, rng),
                             std::invalid_argument);
    TransformSpec spec;  // ImageNet mean has three entries: a grey image does not fit
    spec.resolution = 8;
    QVERIFY_EXCEPTION_THROWN(apply_transform(ramp(1, 28, 28), spec, false, rng),
                             std::invalid_argument);
  }
};

QTEST_GUILESS_MAIN(TestImageTransforms)
#include "test_image_transforms.moc"
