// The attention inspector in the real window: clicking a patch makes it the query, and the
// softmax, linear and difference maps show exactly the rows the engine computes directly
// (checked pixel by pixel through OpenCV's colour map); arrow keys and the block slider move
// the query and the block; a 1024 x 1024 image stays interactive; per-pane, log and fixed
// colour scales; a non-square photo at a square input size is letterboxed, not squashed.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <QDialog>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/inspect/attention_probe.h"
#include "engine/model/load_weights.h"
#include "engine/model/linear_eps_scope.h"
#include "engine/runtime/precision.h"
#include "engine/io/text_file.h"
#include "engine/data/fashion_mnist.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/inspect/attention_grid_view.h"
#include "widgets/inspect/attention_inspector.h"
#include "widgets/common/colour_scale.h"
#include "widgets/common/figure_export.h"
#include "widgets/common/image_pane.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_inspector {

using namespace adala;
using adala::gui::EngineController;
using adala::gui::MainWindow;
using adala::widgets::AttentionInspector;
using adala::widgets::ScaleMode;

namespace {

// A model whose two attention paths differ visibly (a trained linear branch would too).
std::string makeCheckpoint(const QString& dir, const char* name, AttentionMode mode) {
  torch::manual_seed(11);
  VisionTransformer model(vit_preset("fmnist_micro"));
  {
    torch::NoGradGuard no_grad;
    model->pos_embed.mul_(25.0);
    for (int64_t b = 0; b < model->depth(); ++b) {
      auto& w = model->block(b)->attn->linear->qkv->weight;
      w.add_(torch::randn_like(w) * 0.3);
      model->block(b)->attn->qkv->weight.mul_(4.0);
    }
  }
  model->set_attention_mode(mode);
  const std::string path = (dir + "/" + name).toStdString();
  save_weights(model, path);
  return path;
}

// The colour OpenCV's map gives a value on the inspector's scale [0, vmax].
QColor expectedColour(double value, double vmax) {
  cv::Mat level(1, 1, CV_8UC1, cv::Scalar(widgets::colormapLevel(value, 0.0, vmax)));
  cv::Mat bgr;
  cv::applyColorMap(level, bgr, cv::COLORMAP_VIRIDIS);
  const auto c = bgr.at<cv::Vec3b>(0, 0);
  return QColor(c[2], c[1], c[0]);
}

// The inspector's rows come from its worker's probe, the expected ones from a probe built here:
// the same forward pass on the same image, loaded and normalised by another route (the worker's
// dataset, cv::Mat and broadcast tensors), so they agree up to float32 rounding. kRowTolerance is
// the relative bound on each weight: tens of float32 ulps (1.2e-7 each).
constexpr double kRowTolerance = 1e-5;

// KL(p || q) when every weight moves by at most kRowTolerance relative: |dKL| <= e (KL + 4)
// (sum p |log(p / q)| <= KL + 2, and sum p |e_p - e_q| <= 2e).
double klTolerance(double kl) { return kRowTolerance * (std::abs(kl) + 4.0); }

// The mean over n weights of (p - q)^2 when every weight moves by at most e = kRowTolerance
// relative: |dMSE| <= 2e mean(|p - q| (p + q)) + e^2 mean((p + q)^2), and mean((p + q)^2) <= 4 / n
// (weights <= 1 summing to 1), so Cauchy-Schwarz gives 4e sqrt(MSE / n) + 4e^2 / n.
double mseTolerance(double mse, size_t n) {
  const double e = kRowTolerance, count = double(std::max<size_t>(n, 1));
  return 4.0 * e * std::sqrt(std::abs(mse) / count) + 4.0 * e * e / count;
}

bool close(const QColor& a, const QColor& b) {
  return std::abs(a.red() - b.red()) <= 1 && std::abs(a.green() - b.green()) <= 1 &&
         std::abs(a.blue() - b.blue()) <= 1;
}

}  // namespace

class TestGuiInspector : public QObject {
  Q_OBJECT

  QString dir_;
  std::unique_ptr<EngineController> controller_;
  std::unique_ptr<MainWindow> window_;
  AttentionInspector* inspector_ = nullptr;

  // The maps against rows from a probe built here, straight from the engine.
  void checkMapsAgainstEngine(const AttentionProbe& probe) {
    const auto& shown = inspector_->rows();
    QCOMPARE(shown.block, inspector_->block());
    QCOMPARE(shown.query, inspector_->query());
    const auto rows = probe.rows(inspector_->block(), inspector_->head(), inspector_->query());
    QCOMPARE(shown.softmax.size(), qsizetype(rows.softmax.size()));
    for (size_t i = 0; i < rows.softmax.size(); ++i) {
      ADALA_COMPARE_NEAR(shown.softmax[qsizetype(i)], rows.softmax[i],
                         kRowTolerance * std::abs(rows.softmax[i]));
      ADALA_COMPARE_NEAR(shown.linear[qsizetype(i)], rows.linear[i],
                         kRowTolerance * std::abs(rows.linear[i]));
    }
    ADALA_COMPARE_NEAR(shown.kl, rows.kl, klTolerance(rows.kl));
    ADALA_COMPARE_NEAR(shown.mse, rows.mse, mseTolerance(rows.mse, rows.softmax.size()));
    const int prefix = static_cast<int>(probe.num_prefix_tokens());
    double vmax = 0.0;
    for (size_t i = size_t(prefix); i < rows.softmax.size(); ++i)
      vmax = std::max({vmax, double(rows.softmax[i]), double(rows.linear[i])});
    // The largest of the shown weights, each within kRowTolerance relative of the engine's.
    ADALA_COMPARE_NEAR(inspector_->scaleMax(), vmax, kRowTolerance * vmax);
    const QImage soft = inspector_->paneImage(AttentionInspector::SoftmaxPane);
    const QImage lin = inspector_->paneImage(AttentionInspector::LinearPane);
    const QImage diff = inspector_->paneImage(AttentionInspector::DifferencePane);
    int checked = 0;
    for (int r = 0; r < probe.grid_height(); ++r)
      for (int c = 0; c < probe.grid_width(); ++c) {
        const auto t = size_t(probe.patch_token(r, c));
        const QPoint centre = inspector_->cellRect(r, c).center();
        const QColor want[3] = {
            expectedColour(rows.softmax[t], vmax), expectedColour(rows.linear[t], vmax),
            expectedColour(std::abs(double(rows.linear[t]) - double(rows.softmax[t])), vmax)};
        const QColor got[3] = {soft.pixelColor(centre), lin.pixelColor(centre),
                               diff.pixelColor(centre)};
        for (int k = 0; k < 3; ++k)
          QVERIFY2(close(got[k], want[k]), qPrintable(QString("map %1 patch (%2,%3): %4 vs %5")
                                                          .arg(k)
                                                          .arg(r)
                                                          .arg(c)
                                                          .arg(got[k].name(), want[k].name())));
        ++checked;
      }
    QCOMPARE(checked, int(probe.grid_height() * probe.grid_width()));
  }

  // Clicks the screen pixel over patch (row, col); returns the token under that pixel (at
  // 1024 x 1024 a 4-pixel patch is smaller than a screen pixel, so it may be a neighbour).
  int clickPatch(int row, int col) {
    auto* pane = inspector_->pane(AttentionInspector::SoftmaxPane);
    const QPoint at = pane->toWidget(QPointF(inspector_->cellRect(row, col).center())).toPoint();
    QTest::mouseClick(pane, Qt::LeftButton, {}, at);
    const QPointF ip = pane->toImage(QPointF(at));
    const int cell = inspector_->cellRect(0, 0).width();
    const auto& image = inspector_->probeImage();
    return image.prefixTokens + int(ip.y()) / cell * image.gridWidth + int(ip.x()) / cell;
  }

  // Opens checkpoint `path` as `name` on Fashion-MNIST's test image 3 at the model's own input
  // size; `ready` and `maps` see its probe and its maps arrive.
  void openOnTestImage3(const QString& name, const std::string& path, QSignalSpy& ready,
                        QSignalSpy& maps) {
    inspector_->setInputSize(0);
    inspector_->setDataset(QString());
    inspector_->setDatasetItem(3);
    inspector_->addCheckpoint(name, QString::fromStdString(path), true);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
  }

  // The three maps colour_scales reads (softmax, linear, |linear - softmax|) and their maxima
  // over the patch tokens.
  struct ShownMaps {
    ShownMaps(const widgets::AttentionRows& shownRows, const widgets::InspectorImage& image)
        : rows(shownRows), prefix(image.prefixTokens), gridWidth(image.gridWidth) {
      diff.resize(rows.softmax.size());
      for (qsizetype i = 0; i < diff.size(); ++i)
        diff[i] = std::abs(rows.linear[i] - rows.softmax[i]);
      for (int k = 0; k < 3; ++k)
        maxima[k] = *std::max_element(values(k).begin() + prefix, values(k).end());
    }
    const QVector<float>& values(int k) const {
      return k == 0 ? rows.softmax : k == 1 ? rows.linear : diff;
    }
    QPoint argmax(int k) const { return argmaxCell(values(k), prefix, gridWidth); }

    const widgets::AttentionRows& rows;
    int prefix, gridWidth;
    QVector<float> diff;
    double maxima[3];
  };

  static constexpr AttentionInspector::Pane kScalePanes[3] = {AttentionInspector::SoftmaxPane,
                                                              AttentionInspector::LinearPane,
                                                              AttentionInspector::DifferencePane};

  // The grid cell holding the largest value of a map (prefix tokens skipped).
  static QPoint argmaxCell(const QVector<float>& row, int prefix, int gridWidth) {
    const auto it = std::max_element(row.begin() + prefix, row.end());
    const int p = int(it - row.begin()) - prefix;
    return {p % gridWidth, p / gridWidth};
  }

  QColor colourAt(int k, QPoint cell) const {
    return inspector_->paneImage(kScalePanes[k])
        .pixelColor(inspector_->cellRect(cell.y(), cell.x()).center());
  }

  static QColor topColour() { return widgets::colormapColor(widgets::Colormap::Viridis, 255); }

  // Shared: the map with the smaller maximum does not reach the top colour.
  void checkSharedScale(const ShownMaps& m) {
    const double* maxima = m.maxima;
    const int weaker = maxima[1] < maxima[0] ? 1 : 0;
    QVERIFY2(maxima[weaker] < 0.99 * std::max(maxima[0], maxima[1]),
             qPrintable(QString("maxima %1 %2").arg(maxima[0]).arg(maxima[1])));
    QVERIFY(!close(colourAt(weaker, m.argmax(weaker)), topColour()));
    QVERIFY(!close(colourAt(2, m.argmax(2)), topColour()));
    // The larger maximum of the shown weights: the same floats, the same max.
    ADALA_COMPARE_EXACT(inspector_->paneScale(kScalePanes[weaker]).vmax,
                        std::max(maxima[0], maxima[1]));
  }

  // Per pane: every map's brightest cell is the colour map's top colour, and each pane's
  // strip is labelled with its own maximum.
  void checkPerPaneScales(const ShownMaps& m) {
    inspector_->setScaleMode(ScaleMode::PerPane);
    QCOMPARE(inspector_->scaleMode(), ScaleMode::PerPane);
    for (int k = 0; k < 3; ++k) {
      if (k < 2) {
        // The maximum of the shown weights: the same floats, the same max.
        ADALA_COMPARE_EXACT(inspector_->paneScale(kScalePanes[k]).vmax, m.maxima[k]);
      } else {
        // The difference: the inspector keeps |linear - softmax| in double, the test's diff
        // rounds it to float (at most half a float32 ulp, 2^-24 relative).
        ADALA_COMPARE_NEAR(inspector_->paneScale(kScalePanes[k]).vmax, m.maxima[k],
                           0x1p-23 * m.maxima[k]);
      }
      QVERIFY2(close(colourAt(k, m.argmax(k)), topColour()),
               qPrintable(QString("pane %1: %2").arg(k).arg(colourAt(k, m.argmax(k)).name())));
      const auto ticks = inspector_->pane(kScalePanes[k])->scaleStripTicks();
      QCOMPARE(ticks.size(), 5);
      QCOMPARE(ticks.last().label, QString::number(m.maxima[k], 'g', 3));
      QCOMPARE(ticks.first().label, QString("0"));
    }
  }

  // The exponent of a decade label "10⁻³".
  static int decadeExponent(const QString& label) {
    QString digits = label.mid(2);
    const bool negative = digits.startsWith(QString::fromUtf8("⁻"));
    if (negative) digits = digits.mid(1);
    int e = 0;
    for (QChar c : digits) e = e * 10 + int(QString::fromUtf8("⁰¹²³⁴⁵⁶⁷⁸⁹").indexOf(c));
    return negative ? -e : e;
  }

  // Log: from max / 1e4 to max, every label a decade at its place on the strip, every cell
  // coloured by log10 of its weight.
  void checkLogScale(const ShownMaps& m) {
    QTest::keyClick(inspector_, Qt::Key_S);  // per pane -> log
    QCOMPARE(inspector_->scaleMode(), ScaleMode::Log);
    const double vmax = std::max(m.maxima[0], m.maxima[1]);
    const auto logScale = inspector_->paneScale(AttentionInspector::LinearPane);
    QVERIFY(logScale.log);
    // The shared maximum, and it divided by kLogDynamicRange (1e4): the same division.
    ADALA_COMPARE_EXACT(logScale.vmax, vmax);
    ADALA_COMPARE_EXACT(logScale.vmin, vmax / 1e4);
    const auto ticks = inspector_->pane(AttentionInspector::LinearPane)->scaleStripTicks();
    QVERIFY(ticks.size() >= 4);
    const QRegularExpression decade(QString::fromUtf8("^10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$"));
    for (const auto& t : ticks) {
      QVERIFY2(decade.match(t.label).hasMatch(), qPrintable(t.label));
      const int e = decadeExponent(t.label);
      QVERIFY(std::abs(t.position - (e - std::log10(vmax / 1e4)) / 4.0) < 1e-9);
    }
    for (int r = 0; r < 7; ++r)
      for (int c = 0; c < 7; ++c) {
        const double v = m.rows.linear[m.prefix + r * m.gridWidth + c];
        const int level = int(std::lround(
            std::clamp((std::log10(std::max(v, vmax / 1e4)) - std::log10(vmax / 1e4)) / 4.0, 0.0,
                       1.0) *
            255));
        QVERIFY(close(colourAt(1, QPoint(c, r)),
                      widgets::colormapColor(widgets::Colormap::Viridis, level)));
      }
  }

  // Fixed: refused unless two finite numbers with min < max, with a message that says why;
  // a refused range leaves the maps as they were.
  void checkFixedRange(const ShownMaps& m) {
    const double vmax = std::max(m.maxima[0], m.maxima[1]);
    const QImage logImage = inspector_->paneImage(AttentionInspector::LinearPane);
    QVERIFY(inspector_->setFixedRange("0.5..0.1").contains("below its maximum"));
    QVERIFY(inspector_->setFixedRange("0.1..0.1").contains("below its maximum"));
    QVERIFY(inspector_->setFixedRange("nan..1").contains("finite"));
    QVERIFY(inspector_->setFixedRange("0..inf").contains("finite"));
    QVERIFY(inspector_->setFixedRange("zero to one").contains("two numbers"));
    QCOMPARE(inspector_->paneImage(AttentionInspector::LinearPane), logImage);
    QVERIFY(inspector_->setFixedRange(QString("0..%1").arg(vmax / 2, 0, 'g', 17)).isEmpty());
    QCOMPARE(inspector_->scaleMode(), ScaleMode::Fixed);
    // Typed with 17 significant digits, which a double reads back to the same bits.
    ADALA_COMPARE_EXACT(inspector_->paneScale(AttentionInspector::SoftmaxPane).vmax, vmax / 2);
    for (int r = 0; r < 7; ++r)
      for (int c = 0; c < 7; ++c) {
        const double v = m.rows.softmax[m.prefix + r * m.gridWidth + c];
        QVERIFY(close(colourAt(0, QPoint(c, r)), expectedColour(v, vmax / 2)));
      }
    QTest::keyClick(inspector_, Qt::Key_S);  // fixed -> shared
    QCOMPARE(inspector_->scaleMode(), ScaleMode::Shared);
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("inspector");
    controller_ = std::make_unique<EngineController>(dir_ + "/runs.sqlite");
    window_ = std::make_unique<MainWindow>(controller_.get());
    window_->resize(1500, 950);
    window_->show();
    window_->showTab(MainWindow::InspectorTab);
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    inspector_ = window_->inspector();
  }

  void cleanupTestCase() {
    window_.reset();
    controller_.reset();
  }

  void clicking_a_patch_sets_the_query_and_the_maps() {
    const std::string path = makeCheckpoint(dir_, "teacher.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    inspector_->setDatasetItem(7);
    inspector_->addCheckpoint("teacher", QString::fromStdString(path), true);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
    inspector_->setOpacity(1.0);  // the overlay alone, so pixels are the colour map's

    // The same model and image, straight through the engine.
    auto model = load_model(path, torch::kCPU);
    auto test = load_fashion_mnist(default_fashion_mnist_root(), "test", 8);
    AttentionProbe probe(model, test.images[7].unsqueeze(0));
    QCOMPARE(inspector_->probeImage().gridHeight, 7);
    QCOMPARE(inspector_->probeImage().prefixTokens, 1);
    checkMapsAgainstEngine(probe);  // the default query (centre patch)

    const QImage before = inspector_->paneImage(AttentionInspector::SoftmaxPane);
    maps.clear();
    QCOMPARE(clickPatch(2, 5), int(probe.patch_token(2, 5)));
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->query(), int(probe.patch_token(2, 5)));
    QVERIFY(inspector_->paneImage(AttentionInspector::SoftmaxPane) != before);
    checkMapsAgainstEngine(probe);

    // Arrow keys move the query patch.
    maps.clear();
    QTest::keyClick(inspector_, Qt::Key_Down);
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->query(), int(probe.patch_token(3, 5)));
    maps.clear();
    QTest::keyClick(inspector_, Qt::Key_Left);
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->query(), int(probe.patch_token(3, 4)));
    checkMapsAgainstEngine(probe);

    // The slider changes the block; the head table follows the head.
    maps.clear();
    inspector_->findChild<QSlider*>()->setValue(1);
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->block(), 1);
    checkMapsAgainstEngine(probe);
    maps.clear();
    QTest::keyClick(inspector_, Qt::Key_H);
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->head(), 1);
    checkMapsAgainstEngine(probe);
    QCOMPARE(inspector_->rows().headKl.size(), 2);
    const double headKl = probe.rows(1, 1, inspector_->query()).kl;
    ADALA_COMPARE_NEAR(inspector_->rows().headKl[1], headKl, klTolerance(headKl));
  }

  // A file without adala.pretrained_cfg: the status line names what was assumed; mean and std
  // typed in the inspector replace the assumed ones, and the maps are the engine's on the image
  // normalised with them.
  void normalisation_overrides_and_the_assumed_line() {
    const std::string path = makeCheckpoint(dir_, "plain.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    openOnTestImage3("plain", path, ready, maps);
    if (QTest::currentTestFailed()) return;
    QString status = inspector_->statusLabel()->text();
    QVERIFY2(status.contains("plain.safetensors has no adala.pretrained_cfg: assumed "
                             "interpolation bilinear, crop-mode center, crop-pct 0.875, mean 0, "
                             "std 1"),
             qPrintable(status));
    ready.clear();
    maps.clear();
    QTest::keyClicks(inspector_->meanEdit(), "0.5");
    QTest::keyClicks(inspector_->stdEdit(), "0.25");
    QTest::keyClick(inspector_->stdEdit(), Qt::Key_Return);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
    status = inspector_->statusLabel()->text();
    QVERIFY2(status.contains("assumed interpolation bilinear, crop-mode center, crop-pct 0.875 ("),
             qPrintable(status));
    auto model = load_model(path, torch::kCPU);
    auto test = load_fashion_mnist(default_fashion_mnist_root(), "test", 4);
    inspector_->setOpacity(1.0);
    checkMapsAgainstEngine(AttentionProbe(model, (test.images[3].unsqueeze(0) - 0.5) / 0.25));
    inspector_->meanEdit()->clear();
    inspector_->stdEdit()->clear();
  }

  // bf16 autocast: the maps are the engine's probe under the same autocast, and not the float32
  // ones (so the choice reaches the forward pass).
  void bf16_forward_pass() {
    const std::string path =
        makeCheckpoint(dir_, "bf16_teacher.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    inspector_->setInputSize(0);
    inspector_->setDataset(QString());
    inspector_->setDatasetItem(7);
    inspector_->setPrecision("bf16");
    inspector_->addCheckpoint("bf16 teacher", QString::fromStdString(path), true);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->probeImage().precision, QString("bf16"));
    auto model = load_model(path, torch::kCPU);
    auto test = load_fashion_mnist(default_fashion_mnist_root(), "test", 8);
    const auto bf16 = [&] {
      const LinearEpsScope eps(*model, Precision::BF16);  // as predict and training use
      const AutocastScope autocast(torch::kCPU, Precision::BF16);
      return std::make_unique<AttentionProbe>(model, test.images[7].unsqueeze(0));
    }();
    inspector_->setOpacity(1.0);
    checkMapsAgainstEngine(*bf16);
    const AttentionProbe fp32(model, test.images[7].unsqueeze(0));
    const auto rows = fp32.rows(inspector_->block(), inspector_->head(), inspector_->query());
    QVERIFY(std::vector<float>(inspector_->rows().softmax.begin(),
                               inspector_->rows().softmax.end()) != rows.softmax);
    inspector_->setPrecision("fp32");
  }

  void dataset_items_come_from_folders_and_from_a_runs_config() {
    // Class folders of 28 x 28 grey PNGs, each image different.
    const QString folder = dir_ + "/classes";
    cv::RNG rng(5);
    for (const char* cls : {"boots", "shirts"})
      for (int i = 0; i < 3; ++i) {
        cv::Mat m(28, 28, CV_8UC1);
        rng.fill(m, cv::RNG::UNIFORM, 0, 255);
        const std::string path = QString("%1/%2/%3.png").arg(folder, cls).arg(i).toStdString();
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        QVERIFY(cv::imwrite(path, m));
      }
    const std::string path =
        makeCheckpoint(dir_, "folder_teacher.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    inspector_->setInputSize(0);
    inspector_->setDataset(folder);
    inspector_->setDatasetItem(4);
    inspector_->addCheckpoint("folder teacher", QString::fromStdString(path), true);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->probeImage().datasetSize, 6);
    QVERIFY2(inspector_->probeImage().description.endsWith("1.png (shirts)"),
             qPrintable(inspector_->probeImage().description));
    // The maps are those of that very file.
    const cv::Mat file = cv::imread((folder + "/shirts/1.png").toStdString(), cv::IMREAD_GRAYSCALE);
    const at::Tensor input =
        torch::from_blob(file.data, {1, 1, 28, 28}, torch::kByte).to(torch::kFloat).div(255.0);
    inspector_->setOpacity(1.0);
    checkMapsAgainstEngine(AttentionProbe(load_model(path, torch::kCPU), input));

    // A checkpoint in a run folder brings that run's evaluation data (its config.json).
    const QString run = dir_ + "/run-7";
    std::filesystem::create_directories(run.toStdString());
    QVERIFY(QFile::copy(QString::fromStdString(path), run + "/student.safetensors"));
    write_text((run + "/config.json").toStdString(),
               R"({"model": {"preset": "fmnist_micro"}, "data": {"eval": {"source": "image-list",
                 "root": ")" +
                   (folder + "/boots").toStdString() + R"(", "channels": 1}}})");
    ready.clear();
    inspector_->setDataset(QString(), false);
    inspector_->addCheckpoint("run student", run + "/student.safetensors", true);
    QCOMPARE(inspector_->dataset(), run + "/config.json");
    inspector_->setDatasetItem(2);
    QVERIFY(ready.wait(60000));
    QCOMPARE(inspector_->probeImage().datasetSize, 3);
    QVERIFY2(inspector_->probeImage().description.endsWith("2.png"),
             qPrintable(inspector_->probeImage().description));
    // An unusable dataset is reported, naming it.
    QSignalSpy failed(controller_.get(), &EngineController::probeFailed);
    inspector_->setDataset(dir_ + "/no-such-folder");
    QVERIFY(failed.wait(60000));
    QVERIFY2(
        failed.last().at(0).toString().contains(dir_ + "/no-such-folder: no such file or folder"),
        qPrintable(failed.last().at(0).toString()));
    inspector_->setDataset(QString());  // back to Fashion-MNIST for the other cases
  }

  void colour_scales() {
    const std::string path = makeCheckpoint(dir_, "scales.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    openOnTestImage3("scales", path, ready, maps);
    if (QTest::currentTestFailed()) return;
    inspector_->setOpacity(1.0);
    inspector_->setScaleMode(ScaleMode::Shared);
    const ShownMaps shown(inspector_->rows(), inspector_->probeImage());
    for (auto check : {&TestGuiInspector::checkSharedScale, &TestGuiInspector::checkPerPaneScales,
                       &TestGuiInspector::checkLogScale, &TestGuiInspector::checkFixedRange}) {
      (this->*check)(shown);
      if (QTest::currentTestFailed()) return;
    }
  }

  // A 90 x 60 (3:2) image at a 56 x 56 input: scaled whole to 56 x 37, centred on whole patches
  // (rows 8..44), the rest padding that cannot be the query; clicks map to the right patch.
  void letterbox_keeps_the_aspect_ratio() {
    cv::Mat photo(60, 90, CV_8UC1);
    for (int y = 0; y < 60; ++y)
      for (int x = 0; x < 90; ++x) photo.at<uchar>(y, x) = uchar(40 + x * 2);
    const QString image = dir_ + "/wide.png";
    QVERIFY(cv::imwrite(image.toStdString(), photo));
    const std::string path = makeCheckpoint(dir_, "letterbox.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    inspector_->setInputSize(56);
    inspector_->setImageFile(image);
    inspector_->addCheckpoint("letterbox", QString::fromStdString(path), true);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
    const auto& probed = inspector_->probeImage();
    QCOMPARE(probed.image.size(), QSize(56, 56));
    QCOMPARE(probed.gridHeight, 14);
    QCOMPARE(probed.content, QRect(0, 8, 56, 37));
    // The displayed image: padding rows one flat colour, the content the photo's gradient.
    const QImage shown = inspector_->paneImage(AttentionInspector::ImagePaneIndex);
    const int k = inspector_->displayScale();
    QCOMPARE(shown.size(), QSize(56 * k, 56 * k));
    const QRgb pad = shown.pixel(0, 0);
    for (int y : {0, 8 * k - 1, 45 * k, 56 * k - 1})
      for (int x : {0, 28 * k, 56 * k - 1}) QCOMPARE(shown.pixel(x, y), pad);
    for (int y : {8 * k, 26 * k, 44 * k}) {
      QVERIFY(qGray(shown.pixel(2 * k, y)) < qGray(shown.pixel(53 * k, y)) - 100);
      QVERIFY(qGray(shown.pixel(53 * k, y)) > 150);
    }
    QVERIFY(!inspector_->isContentPatch(0, 5));
    QVERIFY(!inspector_->isContentPatch(1, 5));
    QVERIFY(inspector_->isContentPatch(2, 5));
    QVERIFY(inspector_->isContentPatch(11, 5));
    QVERIFY(!inspector_->isContentPatch(12, 5));
    // The default query is in the content; a click on padding changes nothing, one on the
    // content picks the patch under it.
    const int before = inspector_->query();
    QVERIFY(before >= 1 + 2 * 14 && before < 1 + 12 * 14);
    auto* pane = inspector_->pane(AttentionInspector::LinearPane);
    QTest::mouseClick(pane, Qt::LeftButton, {},
                      pane->toWidget(QPointF(inspector_->cellRect(0, 3).center())).toPoint());
    QTest::mouseClick(pane, Qt::LeftButton, {},
                      pane->toWidget(QPointF(inspector_->cellRect(13, 9).center())).toPoint());
    QCOMPARE(inspector_->query(), before);
    maps.clear();
    QCOMPARE(clickPatch(10, 12), 1 + 10 * 14 + 12);
    QVERIFY(maps.wait(10000));
    QCOMPARE(inspector_->query(), 1 + 10 * 14 + 12);
    // Arrow keys stop at the content's edge.
    for (int i = 0; i < 4; ++i) {
      maps.clear();
      QTest::keyClick(inspector_, Qt::Key_Down);
      QVERIFY(maps.wait(10000));
    }
    QCOMPARE(inspector_->query(), 1 + 11 * 14 + 12);
    inspector_->setInputSize(0);
  }

  // The exported figure holds the panes' very pixels, their strips and the caption; PDF too.
  void export_figure() {
    const std::string path = makeCheckpoint(dir_, "figure.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    inspector_->setInputSize(0);
    inspector_->setDataset(QString());
    inspector_->setDatasetItem(5);
    inspector_->addCheckpoint("figure", QString::fromStdString(path), true);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
    inspector_->setScaleMode(ScaleMode::PerPane);
    const QString png = dir_ + "/figure.png";
    QCOMPARE(inspector_->exportFigure(png), QString());
    QImage loaded(png);
    QVERIFY(!loaded.isNull());
    const auto figure = inspector_->figure();
    QVector<QRect> rects;
    QCOMPARE(loaded.size(), widgets::figureSize(figure, &rects));
    QCOMPARE(rects.size(), 4);
    const QImage soft = inspector_->paneImage(AttentionInspector::SoftmaxPane);
    QCOMPARE(rects[1].size(), soft.size());  // 280 x 280: drawn 1:1
    for (const QPoint p : {QPoint(5, 5), QPoint(140, 70), QPoint(270, 200), QPoint(33, 250)})
      QCOMPARE(loaded.pixel(rects[1].topLeft() + p), soft.pixel(p));
    // Its caption names the checkpoint, block, head, query and scale.
    QVERIFY2(
        figure.caption.contains("figure.safetensors") &&
            figure.caption.contains(
                QString("block %1, head %2").arg(inspector_->block()).arg(inspector_->head())) &&
            figure.caption.contains("per-pane scale"),
        qPrintable(figure.caption));
    QCOMPARE(figure.panes[2].ticks.last().label,
             QString::number(inspector_->paneScale(AttentionInspector::LinearPane).vmax, 'g', 3));
    const QString pdf = dir_ + "/figure.pdf";
    QCOMPARE(inspector_->exportFigure(pdf), QString());
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(5) == "%PDF-");
    QVERIFY(f.size() > 10000);
    QVERIFY(!inspector_->exportFigure(dir_ + "/no-such-dir/figure.png").isEmpty());
    inspector_->setScaleMode(ScaleMode::Shared);
  }

  // The blocks x heads window shows blocks * heads maps, each the engine's row on its own
  // scale; a click selects that block and head. Rollout shows the engine's rollout rows.
  void blocks_heads_grid_and_rollout() {
    const std::string path = makeCheckpoint(dir_, "grid.safetensors", AttentionMode::Softmax);
    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    QSignalSpy overview(inspector_, &AttentionInspector::overviewUpdated);
    inspector_->setInputSize(0);
    inspector_->setDataset(QString());
    inspector_->setDatasetItem(2);
    inspector_->addCheckpoint("grid", QString::fromStdString(path), true);
    QVERIFY(ready.wait(60000));
    QVERIFY(maps.wait(10000));
    inspector_->setOpacity(1.0);
    auto model = load_model(path, torch::kCPU);
    auto test = load_fashion_mnist(default_fashion_mnist_root(), "test", 3);
    AttentionProbe probe(model, test.images[2].unsqueeze(0));
    const int q = inspector_->query();

    inspector_->showBlockHeadGrid();
    QVERIFY(overview.wait(10000));
    auto* grid = inspector_->gridView();
    QCOMPARE(grid->blocks(), 2);
    QCOMPARE(grid->heads(), 2);
    QCOMPARE(grid->cellCount(), 4);
    for (int b = 0; b < 2; ++b)
      for (int h = 0; h < 2; ++h) {
        const auto row = probe.rows(b, h, q).softmax;
        const double top = *std::max_element(row.begin() + 1, row.end());
        const QImage cell = grid->cellImage(b, h);
        QCOMPARE(cell.size(), QSize(7, 7));
        for (int r = 0; r < 7; ++r)
          for (int c = 0; c < 7; ++c)
            QVERIFY(close(cell.pixelColor(c, r), expectedColour(row[size_t(1 + r * 7 + c)], top)));
      }
    for (auto [b, h] : {std::pair{1, 1}, std::pair{0, 1}, std::pair{1, 0}}) {
      maps.clear();
      QTest::mouseClick(grid, Qt::LeftButton, {}, grid->cellRect(b, h).center());
      QVERIFY(maps.wait(10000));
      QCOMPARE(inspector_->block(), b);
      QCOMPARE(inspector_->head(), h);
      checkMapsAgainstEngine(probe);
    }
    inspector_->gridDialog()->close();

    overview.clear();
    QTest::keyClick(inspector_, Qt::Key_R);
    QVERIFY(inspector_->rolloutShown());
    QVERIFY(overview.wait(20000));
    const auto soft = probe.rollout(q, false), lin = probe.rollout(q, true);
    QCOMPARE(inspector_->rolloutSoftmax().size(), qsizetype(soft.size()));
    double vmax = 0.0;
    for (size_t i = 0; i < soft.size(); ++i) {
      QVERIFY(std::abs(inspector_->rolloutSoftmax()[qsizetype(i)] - soft[i]) < 1e-6);
      QVERIFY(std::abs(inspector_->rolloutLinear()[qsizetype(i)] - lin[i]) < 1e-6);
      // The query's own cell (at least 0.5^depth) is left out of the scale.
      if (i >= 1 && int(i) != q) vmax = std::max({vmax, double(soft[i]), double(lin[i])});
    }
    QVERIFY(std::abs(inspector_->paneScale(AttentionInspector::SoftmaxPane).vmax - vmax) < 1e-6);
    const QImage pane = inspector_->paneImage(AttentionInspector::LinearPane);
    for (int r = 0; r < 7; ++r)
      for (int c = 0; c < 7; ++c)
        QVERIFY(close(pane.pixelColor(inspector_->cellRect(r, c).center()),
                      expectedColour(lin[size_t(1 + r * 7 + c)], vmax)));
    QVERIFY(inspector_->pane(AttentionInspector::SoftmaxPane)->title().contains("rollout"));
    QVERIFY2(inspector_->figure().caption.contains("attention rollout through 2 blocks"),
             qPrintable(inspector_->figure().caption));
    inspector_->setRollout(false);
    QVERIFY(!inspector_->pane(AttentionInspector::SoftmaxPane)->title().contains("rollout"));
  }

  void large_image_stays_interactive() {
    // A Stage-2-like student (linear attention) at 1024 x 1024: N = 65537 tokens.
    const std::string path =
        makeCheckpoint(dir_, "student_stage2.safetensors", AttentionMode::Linear);
    cv::Mat big(1024, 1024, CV_8UC1);
    cv::randu(big, 0, 255);
    cv::GaussianBlur(big, big, cv::Size(0, 0), 12.0);
    const QString image = dir_ + "/big.png";
    QVERIFY(cv::imwrite(image.toStdString(), big));

    QSignalSpy ready(controller_.get(), &EngineController::probeReady);
    QSignalSpy maps(inspector_, &AttentionInspector::mapsUpdated);
    inspector_->setInputSize(-1);
    inspector_->setImageFile(image);
    inspector_->addCheckpoint("student", QString::fromStdString(path), true);
    QVERIFY(ready.wait(120000));
    QVERIFY(maps.wait(20000));
    QCOMPARE(inspector_->probeImage().gridHeight, 256);
    QCOMPARE(inspector_->probeImage().gridWidth, 256);
    QCOMPARE(inspector_->rows().softmax.size(), qsizetype(1 + 256 * 256));

    // Each click answers with that patch's maps (the time is reported, not judged: speed
    // belongs in benchmarks).
    double worst = 0.0;
    for (auto [r, c] : {std::pair{10, 200}, std::pair{128, 128}, std::pair{250, 3}}) {
      maps.clear();
      QElapsedTimer t;
      t.start();
      const int token = clickPatch(r, c);
      QVERIFY(maps.wait(20000));
      worst = std::max(worst, double(t.elapsed()));
      QCOMPARE(inspector_->query(), token);
      QVERIFY(std::abs(token - (1 + r * 256 + c)) <= 257);  // that patch or a neighbour
    }
    // Arrow keys reach every patch exactly, however small it is on screen.
    maps.clear();
    inspector_->setQueryPatch(100, 100);
    QVERIFY(maps.wait(20000));
    maps.clear();
    QTest::keyClick(inspector_, Qt::Key_Right);
    QVERIFY(maps.wait(20000));
    QCOMPARE(inspector_->query(), 1 + 100 * 256 + 101);
    qInfo("1024 x 1024 (65537 tokens): forward %.2f s, slowest click-to-maps %.0f ms",
          inspector_->probeImage().forwardSeconds, worst);
  }
};

ADALA_TEST_MAIN(TestGuiInspector)
}  // namespace test_gui_inspector

#include "test_gui_inspector.moc"
