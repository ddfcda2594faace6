// The timm / DINOv2 transforms: RandomResizedCrop and centre-crop geometry against boxes worked
// out by hand, the antialiased resampling against ATen's, normalisation values and flips.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <cmath>
#include <deque>

#include "engine/data/image_transform.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_image_transforms {

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

// A (C, H, W) uint8 image of independent draws: `binary` draws 0 or 255 only, the edges that
// make bicubic overshoot most.
at::Tensor noise(int64_t c, int64_t h, int64_t w, uint64_t seed, bool binary = false) {
  SplitMix64 g(seed);
  at::Tensor img = at::empty({c, h, w}, at::kByte);
  uint8_t* p = img.data_ptr<uint8_t>();
  for (int64_t i = 0; i < img.numel(); ++i)
    p[i] = binary ? uint8_t(g.coin() ? 255 : 0) : uint8_t(g.integer(0, 255));
  return img;
}

// The reference for resize_box, written from PIL's Resample.c independently of the engine's
// code: the filter kernels, then one output pixel of one pass at a time, all in double.
double ref_kernel(bool bicubic, double x) {
  x = std::fabs(x);
  if (!bicubic) return x < 1.0 ? 1.0 - x : 0.0;
  const double a = -0.5;  // Keys' cubic as PIL has it, expanded
  if (x < 1.0) return (a + 2.0) * x * x * x - (a + 3.0) * x * x + 1.0;
  if (x < 2.0) return a * x * x * x - 5.0 * a * x * x + 8.0 * a * x - 4.0 * a;
  return 0.0;
}

// Output pixel `o` of a pass along an axis of `in_size` pixels, resampling [start, start +
// length) to `out_size`: the kernel widened by the scale when shrinking, centred on the output
// pixel's centre, its taps cut to the image (C casts, towards zero, as PIL), weights normalised.
double ref_sample(const std::function<double(int64_t)>& in, int64_t in_size, double start,
                  double length, int64_t out_size, int64_t o, bool bicubic, bool clamp) {
  const double scale = length / double(out_size);
  const double widen = scale > 1.0 ? scale : 1.0;
  const double reach = (bicubic ? 2.0 : 1.0) * widen;
  const double centre = start + (double(o) + 0.5) * scale;
  const int64_t first = std::max<int64_t>(0, int64_t(centre - reach + 0.5));
  const int64_t last = std::min<int64_t>(in_size, int64_t(centre + reach + 0.5));
  double sum = 0.0, norm = 0.0;
  for (int64_t i = first; i < last; ++i) {
    const double weight = ref_kernel(bicubic, (double(i) + 0.5 - centre) / widen);
    sum += weight * in(i);
    norm += weight;
  }
  // PIL's test, exact on purpose: only a sum of weights that is exactly zero is not divided by.
  const double v = std::fpclassify(norm) != FP_ZERO ? sum / norm : 0.0;
  return clamp ? std::min(255.0, std::max(0.0, v)) : v;
}

// PIL's resample of a box in double: the horizontal pass over every row, then the vertical
// pass; `clamp`: each pass's output clipped to [0, 255] as PIL's 8-bit passes (less the
// rounding).
at::Tensor ref_resize(const at::Tensor& image, double top, double left, double box_height,
                      double box_width, int64_t out_height, int64_t out_width, bool bicubic,
                      bool clamp = true) {
  const int64_t c = image.size(0), h = image.size(1), w = image.size(2);
  const at::Tensor src = image.to(at::kDouble).contiguous();
  const auto s = src.accessor<double, 3>();
  at::Tensor mid = at::empty({c, h, out_width}, at::kDouble);
  auto m = mid.accessor<double, 3>();
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < out_width; ++x)
        m[ch][y][x] = ref_sample([&](int64_t i) { return s[ch][y][i]; }, w, left, box_width,
                                 out_width, x, bicubic, clamp);
  at::Tensor out = at::empty({c, out_height, out_width}, at::kDouble);
  auto r = out.accessor<double, 3>();
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t y = 0; y < out_height; ++y)
      for (int64_t x = 0; x < out_width; ++x)
        r[ch][y][x] = ref_sample([&](int64_t i) { return m[ch][i][x]; }, h, top, box_height,
                                 out_height, y, bicubic, clamp);
  return out;
}

double max_diff(const at::Tensor& a, const at::Tensor& b) {
  return (a.to(at::kDouble) - b.to(at::kDouble)).abs().max().item<double>();
}

struct ResampleCase {
  const char* name;
  int64_t c, h, w;
  double top, left, box_height, box_width;
  int64_t out_height, out_width;
};

const std::vector<ResampleCase>& resample_cases() {
  static const std::vector<ResampleCase> cases{
      {"odd sizes, rows shrink, columns grow", 3, 37, 23, 0, 0, 37, 23, 17, 29},
      {"large shrink (antialias)", 1, 200, 150, 0, 0, 200, 150, 9, 7},
      {"shrink by 2.5 and 3", 2, 40, 60, 0, 0, 40, 60, 16, 20},
      {"upscale", 3, 5, 7, 0, 0, 5, 7, 23, 19},
      {"one pixel high", 3, 1, 40, 0, 0, 1, 40, 1, 13},
      {"one pixel high, upscaled", 1, 1, 40, 0, 0, 1, 40, 3, 13},
      {"one pixel wide", 3, 40, 1, 0, 0, 40, 1, 13, 1},
      {"one pixel wide, upscaled", 1, 40, 1, 0, 0, 40, 1, 13, 4},
      {"fractional sub-box (a crop of a resize)", 3, 50, 60, 7.5, 11.25, 20.5, 30.75, 16, 16},
      {"sub-box at the far corner (taps cut)", 4, 50, 60, 30, 40, 20, 20, 7, 9},
      {"small sub-box upscaled", 3, 12, 14, 2.25, 3.5, 4, 5, 13, 17},
  };
  return cases;
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

  void kernels_at_known_offsets() {
    // Keys' cubic with a = -0.5: 1 at 0, 0 at the other integers, 9/16 at 1/2, -1/16 at 3/2.
    const std::vector<std::pair<double, double>> cubic{
        {0.0, 1.0},        {1.0, 0.0},        {-1.0, 0.0},       {2.0, 0.0},     {-2.0, 0.0},
        {2.5, 0.0},        {0.5, 0.5625},     {-0.5, 0.5625},    {1.5, -0.0625}, {-1.5, -0.0625},
        {0.25, 0.8671875}, {0.75, 0.2265625}, {1.25, -0.0703125}};
    // x a multiple of 1/4 and a = -0.5: every product and sum in the cubic is a short dyadic
    // fraction, exact in double whatever the evaluation order (or FMA); the supports are
    // constants.
    for (auto [x, expected] : cubic) {
      ADALA_COMPARE_EXACT(resample_kernel(Interpolation::Bicubic, x), expected);
      ADALA_COMPARE_EXACT(ref_kernel(true, x), expected);
    }
    ADALA_COMPARE_EXACT(resample_kernel(Interpolation::Bilinear, 0.25), 0.75);
    ADALA_COMPARE_EXACT(resample_kernel(Interpolation::Bilinear, -1.5), 0.0);
    ADALA_COMPARE_EXACT(resample_support(Interpolation::Bilinear), 1.0);
    ADALA_COMPARE_EXACT(resample_support(Interpolation::Bicubic), 2.0);
  }

  void names_of_the_filters_and_crop_modes() {
    QCOMPARE(std::string(to_string(Interpolation::Bilinear)), std::string("bilinear"));
    QCOMPARE(std::string(to_string(Interpolation::Bicubic)), std::string("bicubic"));
    QVERIFY(interpolation_from_string("bicubic") == Interpolation::Bicubic);
    QVERIFY(interpolation_from_string("bilinear") == Interpolation::Bilinear);
    QCOMPARE(std::string(to_string(CropMode::Center)), std::string("center"));
    QCOMPARE(std::string(to_string(CropMode::Squash)), std::string("squash"));
    QVERIFY(crop_mode_from_string("squash") == CropMode::Squash);
    QVERIFY(crop_mode_from_string("center") == CropMode::Center);
    try {
      interpolation_from_string("lanczos");
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()),
               QString("unknown interpolation \"lanczos\" (allowed: bilinear, bicubic)"));
    }
    try {
      crop_mode_from_string("border");
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QCOMPARE(QString(e.what()),
               QString("unknown crop mode \"border\" (allowed: center, squash)"));
    }
  }

  void two_pixel_ramp_upscaled_by_hand() {
    // 1x2 -> 1x4: output centres at 0.25, 0.75, 1.25, 1.75 source pixels. Bicubic, both taps
    // in the image: at 0.25 the kernel at 0.25 and 1.25 (0.8671875, -0.0703125, normalised
    // 37/34 and -3/34), at 0.75 at 0.75 and 0.25 (0.2265625, 0.8671875: 29/140, 111/140).
    auto img = at::empty({1, 1, 2}, at::kByte);
    img[0][0][0] = 100;
    img[0][0][1] = 202;
    auto out = resize_box(img, 0, 0, 1, 2, 1, 4, Interpolation::Bicubic);
    const double cubic[4] = {100 - 3.0 / 34 * 102, 100 + 29.0 / 140 * 102, 202 - 29.0 / 140 * 102,
                             202 + 3.0 / 34 * 102};  // 91, 121.13, 180.87, 211
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(out[0][0][i].item<double>() - cubic[i]) < 1e-4);
    // 0 -> 255: the ends overshoot to -22.5 and 277.5 and are clamped.
    img[0][0][0] = 0;
    img[0][0][1] = 255;
    out = resize_box(img, 0, 0, 1, 2, 1, 4, Interpolation::Bicubic);
    const double clamped[4] = {0.0, 255 * 29.0 / 140, 255 * 111.0 / 140, 255.0};
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(out[0][0][i].item<double>() - clamped[i]) < 1e-4);
    // Bilinear: the outer centres reach one tap only (the other is cut off), the inner two mix
    // 3:1.
    out = resize_box(img, 0, 0, 1, 2, 1, 4, Interpolation::Bilinear);
    const double linear[4] = {0.0, 63.75, 191.25, 255.0};
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(out[0][0][i].item<double>() - linear[i]) < 1e-4);
  }

  void a_constant_image_stays_constant() {
    auto img = at::empty({3, 13, 11}, at::kByte);
    img[0].fill_(0);
    img[1].fill_(77);
    img[2].fill_(255);
    for (auto interp : {Interpolation::Bilinear, Interpolation::Bicubic})
      for (auto [top, left, bh, bw, oh, ow] : std::vector<std::array<double, 6>>{
               {0, 0, 13, 11, 5, 29}, {0, 0, 13, 11, 31, 3}, {2.5, 1.25, 7, 8.5, 6, 9}}) {
        auto out = resize_box(img, top, left, bh, bw, int64_t(oh), int64_t(ow), interp);
        for (int c = 0; c < 3; ++c) {
          const double v = c == 0 ? 0.0 : c == 1 ? 77.0 : 255.0;
          QVERIFY2(std::abs(out[c].min().item<double>() - v) < 1e-4 &&
                       std::abs(out[c].max().item<double>() - v) < 1e-4,
                   qPrintable(QString("%1 channel %2").arg(to_string(interp)).arg(c)));
        }
      }
  }

  // resize_box (float) against the double reference of PIL's resample, both filters, on random
  // and on 0/255 images; the 0/255 ones overshoot under bicubic, so each pass's clamping counts.
  void resize_matches_the_double_reference_of_pil() {
    double worst[2] = {0.0, 0.0};
    bool clamping_seen = false, pass_clamping_seen = false;
    uint64_t seed = 11;
    for (const ResampleCase& k : resample_cases())
      for (bool binary : {false, true})
        for (auto interp : {Interpolation::Bilinear, Interpolation::Bicubic}) {
          const bool bicubic = interp == Interpolation::Bicubic;
          const at::Tensor img = noise(k.c, k.h, k.w, ++seed, binary);
          const at::Tensor ours = resize_box(img, k.top, k.left, k.box_height, k.box_width,
                                             k.out_height, k.out_width, interp);
          QCOMPARE(ours.sizes().vec(), (std::vector<int64_t>{k.c, k.out_height, k.out_width}));
          const at::Tensor ref = ref_resize(img, k.top, k.left, k.box_height, k.box_width,
                                            k.out_height, k.out_width, bicubic);
          const double diff = max_diff(ours, ref);
          worst[bicubic] = std::max(worst[bicubic], diff);
          QVERIFY2(diff < 1e-3, qPrintable(QString("%1 (%2, %3): max diff %4")
                                               .arg(k.name)
                                               .arg(to_string(interp))
                                               .arg(binary ? "0/255" : "random")
                                               .arg(diff)));
          QVERIFY(ours.min().item<double>() >= 0.0 && ours.max().item<double>() <= 255.0);
          if (!bicubic) continue;
          // Where the unclamped resample leaves [0, 255], ours follows the clamped one; and
          // clamping after each pass (PIL) is not clamping once at the end.
          const at::Tensor raw = ref_resize(img, k.top, k.left, k.box_height, k.box_width,
                                            k.out_height, k.out_width, true, false);
          if (max_diff(raw, ref) > 1.0) clamping_seen = true;
          if (max_diff(raw.clamp(0, 255), ref) > 1.0) pass_clamping_seen = true;
        }
    QVERIFY(clamping_seen);
    QVERIFY(pass_clamping_seen);
    qInfo("max |resize_box - double reference|: bilinear %.3g, bicubic %.3g grey levels", worst[0],
          worst[1]);
  }

  // An independent check of the reference itself: ATen's antialiased bicubic (a = -0.5, as
  // PIL's) on a smooth image, where no clamping happens.
  void bicubic_matches_atens_antialiased_bicubic() {
    for (auto [h, w, oh, ow] : std::vector<std::array<int64_t, 4>>{
             {37, 53, 16, 24}, {10, 7, 23, 19}, {64, 64, 28, 28}, {120, 90, 7, 5}}) {
      at::Tensor img = at::empty({3, h, w}, at::kByte);
      uint8_t* p = img.data_ptr<uint8_t>();
      for (int64_t c = 0; c < 3; ++c)
        for (int64_t y = 0; y < h; ++y)
          for (int64_t x = 0; x < w; ++x)
            p[(c * h + y) * w + x] =
                uint8_t(128 + 60 * std::sin(0.1 * double(y) + 0.07 * double(x) + double(c)));
      auto ours = resize_box(img, 0, 0, double(h), double(w), oh, ow, Interpolation::Bicubic);
      auto ref = at::_upsample_bicubic2d_aa(img.to(at::kFloat).unsqueeze(0), {oh, ow}, false)[0];
      const double diff = max_diff(ours, ref);
      QVERIFY2(diff < 1e-3,
               qPrintable(
                   QString("%1x%2 -> %3x%4: max diff %5").arg(h).arg(w).arg(oh).arg(ow).arg(diff)));
      QVERIFY(max_diff(ref_resize(img, 0, 0, double(h), double(w), oh, ow, true), ref) < 1e-3);
    }
  }

  void squash_geometry() {
    // Both sides to floor(16 / 0.875) = 18, then a centre crop at round(2 / 2) = 1.
    auto g = eval_resize_crop_geometry(40, 20, 16, 0.875, CropMode::Squash);
    QCOMPARE(g.resized_height, int64_t(18));
    QCOMPARE(g.resized_width, int64_t(18));
    QCOMPARE(g.crop, (CropBox{1, 1, 16, 16}));
    g = eval_resize_crop_geometry(40, 20, 16, 1.0, CropMode::Squash);  // the whole image
    QCOMPARE(g.resized_height, int64_t(16));
    QCOMPARE(g.resized_width, int64_t(16));
    QCOMPARE(g.crop, (CropBox{0, 0, 16, 16}));
    g = eval_resize_crop_geometry(40, 20, 16, 1.0, CropMode::Center);  // 32 x 16, rows 8..23
    QCOMPARE(g.resized_height, int64_t(32));
    QCOMPARE(g.crop, (CropBox{8, 0, 16, 16}));
  }

  void squash_evaluation_resizes_the_whole_image() {
    const at::Tensor img = noise(3, 40, 20, 5);
    TransformSpec spec;
    spec.resolution = 16;
    spec.crop_pct = 1.0;
    spec.mean = {0.0};
    spec.std = {1.0};
    spec.crop_mode = CropMode::Squash;
    spec.interpolation = Interpolation::Bicubic;
    SplitMix64 rng(2);
    const at::Tensor out = apply_transform(img, spec, false, rng) * 255.0;
    const at::Tensor whole = resize_box(img, 0, 0, 40, 20, 16, 16, Interpolation::Bicubic);
    QVERIFY(max_diff(out, whole) < 1e-4);
    QVERIFY(max_diff(out, ref_resize(img, 0, 0, 40, 20, 16, 16, true)) < 1e-3);
    // Not the bilinear resize, nor the centre crop.
    QVERIFY(max_diff(out, resize_box(img, 0, 0, 40, 20, 16, 16)) > 1.0);
    spec.crop_mode = CropMode::Center;
    QVERIFY(max_diff(apply_transform(img, spec, false, rng) * 255.0, whole) > 1.0);
    // crop_pct 0.875: the 18 x 18 squash, its centre 16 x 16.
    spec.crop_mode = CropMode::Squash;
    spec.crop_pct = 0.875;
    const at::Tensor cropped = apply_transform(img, spec, false, rng) * 255.0;
    const at::Tensor full = ref_resize(img, 0, 0, 40, 20, 18, 18, true);
    QVERIFY(max_diff(cropped, full.narrow(1, 1, 16).narrow(2, 1, 16)) < 1e-3);
  }

  void bicubic_centre_crop_evaluation() {
    // As eval_transform_is_the_crop_of_the_full_resize, bicubic: 30x40 -> 18 x 24, crop at (1, 4).
    const at::Tensor img = noise(3, 30, 40, 6, true);
    TransformSpec spec;
    spec.resolution = 16;
    spec.mean = {0.0};
    spec.std = {1.0};
    spec.interpolation = Interpolation::Bicubic;
    SplitMix64 rng(1);
    const at::Tensor out = apply_transform(img, spec, false, rng) * 255.0;
    const at::Tensor full = ref_resize(img, 0, 0, 30, 40, 18, 24, true);
    QVERIFY(max_diff(out, full.narrow(1, 1, 16).narrow(2, 4, 16)) < 1e-3);
    spec.interpolation = Interpolation::Bilinear;
    QVERIFY(max_diff(apply_transform(img, spec, false, rng) * 255.0, out) > 1.0);
  }

  void training_crop_resamples_with_the_spec_interpolation() {
    const at::Tensor img = noise(3, 40, 50, 7, true);
    TransformSpec spec;
    spec.resolution = 12;
    spec.mean = {0.0};
    spec.std = {1.0};
    spec.hflip = 0.0;
    spec.interpolation = Interpolation::Bicubic;
    auto a = sample_generator(3, 1, 0), b = sample_generator(3, 1, 0);
    const at::Tensor out = apply_transform(img, spec, true, a) * 255.0;
    const CropBox box =
        random_resized_crop_box(40, 50, spec.scale, spec.ratio, [&] { return b.uniform(); });
    const at::Tensor ref = ref_resize(img, double(box.top), double(box.left), double(box.height),
                                      double(box.width), 12, 12, true);
    QVERIFY(max_diff(out, ref) < 1e-3);
    const at::Tensor bilinear = resize_box(img, double(box.top), double(box.left),
                                           double(box.height), double(box.width), 12, 12);
    QVERIFY(max_diff(out, bilinear) > 1.0);
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

ADALA_TEST_GUILESS_MAIN(TestImageTransforms)
}  // namespace test_image_transforms

#include "test_image_transforms.moc"
