// The batch loader: step s's batch depends only on (seed, s), whatever the number of decode
// threads, the prefetch depth or the order of the requests; bad images are skipped
// deterministically or named in the error.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <numeric>
#include <random>
#include <set>

#include "engine/data/batch_loader.h"
#include "engine/data/image_transform.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_batch_loader {

using namespace adala;

namespace {

// Images of varying size whose pixels depend on the index; `bad` indices throw.
class SyntheticDataset : public Dataset {
 public:
  SyntheticDataset(int64_t n, std::set<int64_t> bad = {}) : n_(n), bad_(std::move(bad)) {}
  int64_t size() const override { return n_; }
  Sample get(int64_t index) const override {
    if (bad_.count(index))
      throw BadImageError(item_name(index), "cannot decode (corrupt or not an image)");
    const int64_t h = 20 + index % 7, w = 24 + (index * 3) % 11;
    Sample s;
    s.image = at::arange(3 * h * w, at::kLong)
                  .mul(index + 1)
                  .remainder(256)
                  .to(at::kByte)
                  .reshape({3, h, w});
    s.label = index % 5;
    return s;
  }
  std::string item_name(int64_t index) const override {
    return "img/" + std::to_string(index) + ".jpg";
  }
  int64_t channels() const override { return 3; }
  std::vector<std::string> class_names() const override { return {"a", "b", "c", "d", "e"}; }
  std::string describe() const override { return "synthetic"; }

 private:
  int64_t n_;
  std::set<int64_t> bad_;
};

// A shuffled order per epoch, as the stages' sampler.
BatchIndices shuffled(int64_t n, int64_t batch) {
  return [n, batch](int64_t step) {
    const int64_t per_epoch = n / batch;
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(uint64_t(step / per_epoch) + 17);
    std::shuffle(order.begin(), order.end(), rng);
    const int64_t start = (step % per_epoch) * batch;
    return std::vector<int64_t>(order.begin() + start, order.begin() + start + batch);
  };
}

SampleTransform training_transform() {
  TransformSpec spec;
  spec.resolution = 16;
  return [spec](const at::Tensor& image, SplitMix64& rng) {
    return apply_transform(image, spec, true, rng);
  };
}

std::vector<Batch> run(int64_t threads, int64_t prefetch, int64_t steps,
                       std::shared_ptr<Dataset> data, bool skip = false) {
  LoaderOptions o;
  o.threads = threads;
  o.prefetch = prefetch;
  o.seed = 42;
  o.end_step = steps;
  o.skip_bad_images = skip;
  BatchLoader loader(data, training_transform(), shuffled(data->size(), 8), o);
  std::vector<Batch> out;
  for (int64_t s = 0; s < steps; ++s) out.push_back(loader.batch(s));
  return out;
}

bool same(const Batch& a, const Batch& b) {
  return a.step == b.step && at::equal(a.images, b.images) && at::equal(a.labels, b.labels) &&
         a.indices == b.indices;
}

}  // namespace

class TestBatchLoader : public QObject {
  Q_OBJECT
 private slots:
  void batches_are_bit_identical_for_1_and_4_threads() {
    auto data = std::make_shared<SyntheticDataset>(64);
    const auto inline_ = run(0, 0, 12, data);
    const auto one = run(1, 2, 12, data);
    const auto four = run(4, 3, 12, data);
    for (size_t s = 0; s < one.size(); ++s) {
      QVERIFY2(same(one[s], four[s]), qPrintable(QString("step %1").arg(s)));
      QVERIFY2(same(one[s], inline_[s]), qPrintable(QString("step %1").arg(s)));
    }
    QCOMPARE(one[0].images.sizes().vec(), (std::vector<int64_t>{8, 3, 16, 16}));
    QCOMPARE(one[0].images.scalar_type(), at::kFloat);
    // Labels are those of the items, in batch order.
    for (int64_t i = 0; i < 8; ++i)
      QCOMPARE(one[3].labels[i].item<int64_t>(), one[3].indices[size_t(i)] % 5);
    // Different steps (same images in a later epoch, too) get different crops.
    QVERIFY(!at::equal(one[0].images, one[8].images));
    for (const auto& b : one) QVERIFY(b.wait_seconds >= 0.0);
  }

  // Batch tensors are reused once nobody holds them: one the consumer still holds, or a view
  // of one, keeps its values while later steps are decoded; dropped ones are filled again.
  void held_batches_are_never_overwritten() {
    auto data = std::make_shared<SyntheticDataset>(64);
    LoaderOptions o;
    o.threads = 2;
    o.prefetch = 1;
    o.seed = 42;  // as run()
    BatchLoader loader(data, training_transform(), shuffled(64, 8), o);
    const at::Tensor held = loader.batch(0).images;
    const at::Tensor held_copy = held.clone();
    const at::Tensor view = loader.batch(1).images[3];
    const at::Tensor view_copy = view.clone();
    std::set<const void*> buffers;
    for (int64_t step = 2; step < 24; ++step) buffers.insert(loader.batch(step).images.data_ptr());
    QVERIFY(at::equal(held, held_copy));
    QVERIFY(at::equal(view, view_copy));
    QVERIFY(!buffers.count(held.data_ptr()));
    // 22 batches came from a handful of reused buffers, not 22 fresh ones.
    QVERIFY2(buffers.size() <= 6, qPrintable(QString::number(buffers.size())));
    // And reused buffers hold exactly what fresh ones would (every batch kept: none reused).
    const std::vector<Batch> fresh = run(0, 0, 24, data);
    BatchLoader reused(data, training_transform(), shuffled(64, 8), o);
    for (int64_t step = 0; step < 24; ++step)
      QVERIFY2(at::equal(reused.batch(step).images, fresh[size_t(step)].images),
               qPrintable(QString("step %1").arg(step)));
    QVERIFY(at::equal(fresh[0].images, held_copy));
  }

  void a_step_asked_for_out_of_order_is_the_same_batch() {
    auto data = std::make_shared<SyntheticDataset>(64);
    const auto sequential = run(2, 2, 10, data);
    LoaderOptions o;
    o.threads = 3;
    o.prefetch = 2;
    o.seed = 42;
    BatchLoader loader(data, training_transform(), shuffled(64, 8), o);
    for (int64_t s : {7, 3, 4, 9, 0, 0})  // a resume at 7, a jump back, a repeat
      QVERIFY2(same(loader.batch(s), sequential[size_t(s)]), qPrintable(QString("step %1").arg(s)));
  }

  void the_seed_changes_the_augmentation() {
    auto data = std::make_shared<SyntheticDataset>(16);
    LoaderOptions a, b;
    a.seed = 1;
    b.seed = 2;
    auto fixed = [](int64_t) { return std::vector<int64_t>{0, 1, 2, 3}; };
    BatchLoader la(data, training_transform(), fixed, a), lb(data, training_transform(), fixed, b);
    QVERIFY(!at::equal(la.batch(0).images, lb.batch(0).images));
  }

  void a_bad_image_is_named_or_skipped_and_counted() {
    auto data = std::make_shared<SyntheticDataset>(64, std::set<int64_t>{5, 6, 40});
    for (int64_t threads : {0, 2}) {
      QString message;
      try {
        run(threads, 2, 8, data);
      } catch (const BadImageError& e) {
        message = e.what();
      }
      QVERIFY2(message.startsWith("img/5.jpg: ") || message.startsWith("img/6.jpg: ") ||
                   message.startsWith("img/40.jpg: "),
               qPrintable(message));
    }
    const auto skipped = run(0, 0, 8, data, true);
    const auto skipped4 = run(4, 2, 8, data, true);
    std::set<int64_t> used;
    for (size_t s = 0; s < skipped.size(); ++s) {
      QVERIFY(same(skipped[s], skipped4[s]));
      used.insert(skipped[s].indices.begin(), skipped[s].indices.end());
    }
    // A bad index is replaced by the next good one: 5 and 6 by 7, 40 by 41.
    QVERIFY(!used.count(5) && !used.count(6) && !used.count(40));
    LoaderOptions o;
    o.skip_bad_images = true;
    BatchLoader loader(
        data, training_transform(),
        [](int64_t) {
          return std::vector<int64_t>{4, 5, 6, 40};
        },
        o);
    QCOMPARE(loader.batch(0).indices, (std::vector<int64_t>{4, 7, 7, 41}));
    QCOMPARE(loader.bad_images_skipped(), int64_t(3));
    QCOMPARE(loader.bad_image_names(),
             (std::vector<std::string>{"img/5.jpg", "img/6.jpg", "img/40.jpg"}));
  }

  void a_transform_error_names_the_item() {
    auto data = std::make_shared<SyntheticDataset>(8);
    TransformSpec none;
    none.preprocess = "none";
    none.resolution = 20;
    LoaderOptions o;
    o.threads = 2;
    BatchLoader loader(
        data,
        [none](const at::Tensor& x, SplitMix64& r) { return apply_transform(x, none, true, r); },
        [](int64_t) { return std::vector<int64_t>{0}; }, o);
    QString message;
    try {
      loader.batch(0);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    QVERIFY2(message.startsWith("img/0.jpg: image is 20x24"), qPrintable(message));
  }
};

ADALA_TEST_GUILESS_MAIN(TestBatchLoader)
}  // namespace test_batch_loader

#include "test_batch_loader.moc"
