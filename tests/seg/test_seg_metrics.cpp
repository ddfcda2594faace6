// Confusion-matrix metrics against values computed by hand.
#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include <cmath>

#include "engine/seg/classes_per_image.h"
#include "engine/seg/segmentation_metrics.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_seg_metrics {

using namespace adala;

namespace {
at::Tensor longs(std::vector<int64_t> v) { return at::tensor(v, at::kLong); }
}  // namespace

class SegMetricsTest : public QObject {
  Q_OBJECT
 private slots:
  void hand_computed_matrix() {
    // truth:      0  0  1  1  2  2  255  1
    // prediction: 0  1  1  1  0  2  2    5   (5: outside the classes -> FN of class 1)
    ConfusionMatrix m(3);
    m.add(longs({0, 1, 1, 1, 0, 2, 2, 5}), longs({0, 0, 1, 1, 2, 2, 255, 1}));
    QCOMPARE(m.labelled_pixels(), int64_t(7));  // the ignored pixel is not counted
    QCOMPARE(m.count(0, 0), int64_t(1));
    QCOMPARE(m.count(0, 1), int64_t(1));
    QCOMPARE(m.count(1, 1), int64_t(2));
    QCOMPARE(m.count(2, 0), int64_t(1));
    QCOMPARE(m.count(2, 2), int64_t(1));
    QCOMPARE(m.count(2, 1), int64_t(0));
    // TP/FP/FN: c0 1/1/1, c1 2/1/1, c2 1/0/1
    QCOMPARE(m.true_positives(1), int64_t(2));
    QCOMPARE(m.false_positives(0), int64_t(1));
    QCOMPARE(m.false_negatives(1), int64_t(1));
    QCOMPARE(m.false_negatives(2), int64_t(1));
    auto iou = m.per_class_iou();
    QCOMPARE(iou.size(), size_t(3));
    QVERIFY(std::fabs(*iou[0] - 1.0 / 3.0) < 1e-12);
    QVERIFY(std::fabs(*iou[1] - 0.5) < 1e-12);
    QVERIFY(std::fabs(*iou[2] - 0.5) < 1e-12);
    QVERIFY(std::fabs(m.mean_iou() - (1.0 / 3.0 + 0.5 + 0.5) / 3.0) < 1e-12);
    QVERIFY(std::fabs(m.pixel_accuracy() - 4.0 / 7.0) < 1e-12);
  }

  // Background 0: finding the objects (foreground IoU) apart from naming them (class accuracy).
  void foreground_split_separates_finding_from_naming() {
    // truth:      0  0  1  1  2  2  2  0  1
    // prediction: 0  1  1  2  2  0  2  0  7   (7: outside the classes, left out)
    ConfusionMatrix m(3);
    m.add(longs({0, 1, 1, 2, 2, 0, 2, 0, 7}), longs({0, 0, 1, 1, 2, 2, 2, 0, 1}));
    // Foreground in both: (1,1) (1,2) (2,2) (2,2) = 4, three of the right class; in one only:
    // truth 0 -> 1 and truth 2 -> 0.
    const ForegroundSplit split = foreground_split(m, 0);
    QVERIFY(std::fabs(split.foreground_iou - 4.0 / 6.0) < 1e-12);
    QVERIFY(std::fabs(split.class_accuracy - 3.0 / 4.0) < 1e-12);
    // Another background: class 2 (foreground 0 and 1).
    const ForegroundSplit other = foreground_split(m, 2);
    // Both foreground: (0,0) x2, (0,1), (1,1) = 4, three right; one only: (1,2) (2,0).
    QVERIFY(std::fabs(other.foreground_iou - 4.0 / 6.0) < 1e-12);
    QVERIFY(std::fabs(other.class_accuracy - 3.0 / 4.0) < 1e-12);
    // Nothing but background: no foreground to find or name.
    ConfusionMatrix empty(3);
    empty.add(longs({0, 0}), longs({0, 0}));
    QVERIFY(std::isnan(foreground_split(empty, 0).foreground_iou));
    QVERIFY(std::isnan(foreground_split(empty, 0).class_accuracy));
  }

  void absent_classes_are_left_out_of_the_mean() {
    // 4 classes, class 3 never occurs and is never predicted; class 2 is only predicted.
    ConfusionMatrix m(4);
    m.add(longs({0, 0, 2, 1, 1}), longs({0, 0, 0, 1, 1}));
    auto iou = m.per_class_iou();
    QVERIFY(!iou[3].has_value());                     // TP + FP + FN = 0
    QVERIFY(iou[2].has_value());                      // predicted only: IoU 0, counted
    ADALA_COMPARE_EXACT(*iou[2], 0.0);                // TP 0: 0 / (FP + FN) is exactly 0
    QVERIFY(std::fabs(*iou[0] - 2.0 / 3.0) < 1e-12);  // TP 2, FN 1
    QVERIFY(std::fabs(*iou[1] - 1.0) < 1e-12);
    QVERIFY(std::fabs(m.mean_iou() - (2.0 / 3.0 + 1.0 + 0.0) / 3.0) < 1e-12);
    QVERIFY(std::fabs(m.pixel_accuracy() - 0.8) < 1e-12);
  }

  void accumulates_over_a_split() {
    // Two 2-D batches added one by one equal the concatenation; merge equals add.
    auto t1 = longs({0, 1, 2, 2, 1, 0}).view({2, 3}), p1 = longs({0, 2, 2, 1, 1, 0}).view({2, 3});
    auto t2 = longs({2, 2, 255, 0}).view({2, 2}), p2 = longs({2, 0, 1, 0}).view({2, 2});
    ConfusionMatrix a(3), b(3), c(3), d(3);
    a.add(p1, t1);
    a.add(p2, t2);
    b.add(at::cat({p1.flatten(), p2.flatten()}), at::cat({t1.flatten(), t2.flatten()}));
    c.add(p1, t1);
    d.add(p2, t2);
    c.merge(d);
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        QCOMPARE(a.count(i, j), b.count(i, j));
        QCOMPARE(c.count(i, j), b.count(i, j));
      }
    QCOMPARE(a.labelled_pixels(), int64_t(9));
    // TP: 4 in the first batch, 2 in the second -> 6 of 9 labelled pixels
    QVERIFY(std::fabs(a.pixel_accuracy() - 6.0 / 9.0) < 1e-12);
    QVERIFY(std::fabs(a.mean_iou() - b.mean_iou()) < 1e-15);
  }

  void empty_and_bad_input() {
    ConfusionMatrix m(2);
    QVERIFY(std::isnan(m.mean_iou()));
    QVERIFY(std::isnan(m.pixel_accuracy()));
    m.add(longs({0, 1}), longs({255, 255}));  // all ignored
    QCOMPARE(m.labelled_pixels(), int64_t(0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.add(longs({0}), longs({7})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.add(longs({0, 1}), longs({0})));
  }

  // Images grouped by the object classes their truth shows; each group's matrix is that of its
  // images alone, and the groups together are the whole split.
  void groups_images_by_classes_present() {
    // Five 2x3 truths (background 0, ignore 255):
    //   0: background only               -> 0 classes
    //   1: class 2 twice                 -> 1
    //   2: classes 1 and 3, one ignored  -> 2
    //   3: classes 1, 2, 3               -> 3
    //   4: classes 1, 2, 3, 4            -> 4, in the "3 or more" group
    auto truth = longs({0, 0, 0, 0,   0, 0,  //
                        0, 2, 2, 0,   0, 0,  //
                        1, 1, 3, 255, 0, 0,  //
                        1, 2, 3, 0,   0, 0,  //
                        1, 2, 3, 4,   0, 0})
                     .view({5, 2, 3});
    auto prediction = truth.clone().clamp_max(4);
    prediction[1][0][1] = 1;  // one pixel of class 2 called 1
    prediction[4][1][0] = 2;  // class 4 called 2
    ClassesPerImageBreakdown b(5, /*background=*/0);
    QCOMPARE(b.classes_in(truth[2]), int64_t(2));
    QCOMPARE(b.classes_in(truth[4]), int64_t(4));
    QCOMPARE(ClassesPerImageBreakdown(5, -1).classes_in(truth[1]), int64_t(2));  // 0 counts too
    b.add(prediction.narrow(0, 0, 2), truth.narrow(0, 0, 2));                    // in two batches
    b.add(prediction.narrow(0, 2, 3), truth.narrow(0, 2, 3));
    const auto groups = b.groups();
    QCOMPARE(groups.size(), size_t(4));
    const std::vector<int64_t> classes{0, 1, 2, 3}, images{1, 1, 1, 2};
    ConfusionMatrix all(5), merged(5);
    all.add(prediction, truth);
    for (size_t g = 0; g < groups.size(); ++g) {
      QCOMPARE(groups[g].classes, classes[g]);
      QCOMPARE(groups[g].images, images[g]);
      merged.merge(groups[g].confusion);
    }
    for (int64_t t = 0; t < 5; ++t)
      for (int64_t p = 0; p < 5; ++p) QCOMPARE(merged.count(t, p), all.count(t, p));
    // Image 1 alone: class 0 4/4 right, class 2 one of two pixels called 1.
    // IoU: c0 4/4, c1 0/(0+1+0), c2 1/(1+0+1) -> mean (1 + 0 + 0.5) / 3
    QVERIFY(std::fabs(groups[1].confusion.mean_iou() - 1.5 / 3.0) < 1e-12);
    // The "3 or more" group: images 3 and 4 together.
    ConfusionMatrix last(5);
    last.add(prediction.narrow(0, 3, 2), truth.narrow(0, 3, 2));
    QVERIFY(std::fabs(groups[3].confusion.mean_iou() - last.mean_iou()) < 1e-15);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, b.add(prediction[0], truth[0]));  // not (B,H,W)
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             b.add(prediction.narrow(0, 0, 2), truth.narrow(0, 0, 3)));
  }
};

ADALA_TEST_GUILESS_MAIN(SegMetricsTest)
}  // namespace test_seg_metrics

#include "test_seg_metrics.moc"
