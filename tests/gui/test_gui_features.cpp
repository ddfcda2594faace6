// The Features tab on a run recorded by `adala run`: opening the run and selecting the tab
// shows the teacher / student PCA maps and the cosine map of item 0, and the displayed mean
// cosine is the engine's value for that image (also after picking another image with the spin
// box); the resolution sweep button runs the sweep in the background, plots teacher and student
// in the softmax / linear colours, and stores the points with the run.
#include <torch/torch.h>

#include "engine/infer/feature_comparison.h"
#include "engine/infer/inference_model.h"
#include "engine/infer/inspection_dataset.h"
#include "engine/infer/resolution_sweep_keys.h"
#include "engine/store/run_store.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "tests/gui/gui_test_support.h"
#include "tests/support/run_adala.h"
#include "widgets/inspect/feature_view.h"
#include "widgets/common/plot_style.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_features {

using namespace adala;
using namespace adala::gui;
using namespace adala::widgets;

class TestGuiFeatures : public QObject {
  Q_OBJECT

  QString dir_, db_;
  qint64 run_ = -1;
  std::string folder_;

  double engineMeanCosine(int item) const {
    const RunModelPaths paths = run_model_paths(folder_);
    InferenceModel teacher = load_inference_model(paths.teacher, torch::kCPU);
    InferenceModel student = load_inference_model(paths.student, torch::kCPU);
    const auto data = open_inspection_dataset(paths.config, student.model->config().in_chans);
    return compare_features(teacher, student, feature_image_from_dataset(*data, item).image)
        .patches.mean_cosine;
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir(QStringLiteral("features"));
    db_ = dir_ + QStringLiteral("/runs.sqlite");
    const QString config = gui_test::writeTinyExperiment(dir_, QStringLiteral("features"), 3, 6);
    const auto r =
        adala_test::run_adala({QStringLiteral("run"), config, QStringLiteral("--db"), db_});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    store::RunStore store(db_.toStdString(), store::OpenMode::ReadOnly);
    const auto runs = store.list_runs();
    QCOMPARE(runs.size(), size_t(1));
    run_ = runs.front().id;
    folder_ = runs.front().folder;
  }

  void the_view_shows_the_engines_mean_cosine_and_runs_the_sweep() {
    EngineController controller(db_);
    MainWindow window(&controller);
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openRun(run_));
    window.showFeatures();
    auto* tabs = window.findChild<QTabWidget*>();
    FeatureView* view = window.featureView();
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(view));
    QCOMPARE(tabs->tabText(tabs->indexOf(view)), QObject::tr("Features"));

    QTRY_VERIFY_WITH_TIMEOUT(view->hasMaps(), 120000);
    QCOMPARE(view->maps().itemIndex, 0);
    QCOMPARE(view->maps().datasetSize, 256);
    QCOMPARE(view->indexBox()->maximum(), 255);
    const double expected0 = engineMeanCosine(0);
    QVERIFY2(std::abs(view->maps().meanCosine - expected0) < 1e-9,
             qPrintable(QString("%1 vs %2").arg(view->maps().meanCosine).arg(expected0)));
    QVERIFY2(view->meanCosineText().contains(QString::number(expected0, 'f', 4)),
             qPrintable(view->meanCosineText()));
    QCOMPARE(view->maps().teacherPca.size(), QSize(7, 7));
    QCOMPARE(view->maps().studentPca.size(), QSize(7, 7));
    QCOMPARE(view->maps().cosine.size(), 49);
    QCOMPARE(view->maps().explainedVarianceRatio.size(), 3);
    QVERIFY(view->varianceText().contains(QStringLiteral("PC1")));

    // Another image through the spin box.
    view->indexBox()->setValue(5);
    QTRY_VERIFY_WITH_TIMEOUT(view->maps().itemIndex == 5, 120000);
    const double expected5 = engineMeanCosine(5);
    QVERIFY(std::abs(view->maps().meanCosine - expected5) < 1e-9);
    QVERIFY(view->meanCosineText().contains(QString::number(expected5, 'f', 4)));
    // The two images' mean cosines differ by more than the tolerance the view is checked to, so
    // the check above tells them apart.
    QVERIFY(std::abs(expected5 - expected0) > 1e-9);

    // The resolution sweep, in the background.
    QVERIFY(view->sweepButton()->isEnabled());
    view->scalesEdit()->setText(QStringLiteral("1,2"));
    view->sweepLimitBox()->setValue(16);
    QTest::mouseClick(view->sweepButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(view->sweep().points.size() == 2, 120000);
    QCOMPARE(view->sweep().points[1].resolution, 56);
    QCOMPARE(view->sweep().images, 16);
    QCustomPlot* plot = view->sweepPlot();
    QCOMPARE(plot->graphCount(), 2);
    QCOMPARE(plot->graph(0)->pen().color(), modeColor(QStringLiteral("softmax")));
    QCOMPARE(plot->graph(1)->pen().color(), modeColor(QStringLiteral("linear")));
    QCOMPARE(plot->graph(1)->data()->size(), 2);
    // The plot holds 100.0 * the point's fraction, the same product of the same double.
    ADALA_COMPARE_EXACT(plot->graph(1)->data()->at(1)->value,
                        100.0 * view->sweep().points[1].studentTop1);
    // Stored with the run, and read back when the run is opened again.
    store::RunStore store(db_.toStdString(), store::OpenMode::ReadOnly);
    int64_t images = 0;
    const auto stored = stored_resolution_sweep(store.evaluations(run_), &images);
    QCOMPARE(images, int64_t(16));
    // The worker stores the very doubles it hands the view (SQLite REAL round-trips them).
    ADALA_COMPARE_EXACT(stored.at(56).student_top1, view->sweep().points[1].studentTop1);
    ADALA_COMPARE_EXACT(stored.at(28).teacher_top1, view->sweep().points[0].teacherTop1);
    QVERIFY(window.openRun(run_));
    QCOMPARE(view->sweep().points.size(), 2);

    // Bad scales: a plain message, nothing stored over the good sweep.
    view->scalesEdit()->setText(QStringLiteral("0"));
    QTest::mouseClick(view->sweepButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(view->sweepButton()->isEnabled(), 30000);
    QCOMPARE(view->sweep().points.size(), 2);

    if (!qEnvironmentVariableIsEmpty("ADALA_SCREENSHOT_DIR"))
      window.grab().save(qEnvironmentVariable("ADALA_SCREENSHOT_DIR") +
                         QStringLiteral("/features-test.png"));
  }
};

ADALA_TEST_MAIN(TestGuiFeatures)
}  // namespace test_gui_features

#include "test_gui_features.moc"
