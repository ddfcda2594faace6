// The attention inspector in the real window: clicking a patch makes it the query, and the
// softmax, linear and difference maps show exactly the rows the engine computes directly
// (checked pixel by pixel through OpenCV's colour map); arrow keys and the block slider move
// the query and the block; a 1024 x 1024 image stays interactive.
#include <torch/torch.h>

#include <QtTest/QtTest>

#include <QElapsedTimer>
#include <QFile>
#include <QSlider>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "engine/analysis/attention_probe.h"
#include "engine/core/load_weights.h"
#include "engine/core/linear_eps_scope.h"
#include "engine/core/precision.h"
#include "engine/core/text_file.h"
#include "engine/data/fashion_mnist.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/attention_inspector.h"
#include "widgets/image_pane.h"

using namespace adala;
using adala::gui::EngineController;
using adala::gui::MainWindow;
using adala::widgets::AttentionInspector;

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
      QCOMPARE(shown.softmax[qsizetype(i)], rows.softmax[i]);
      QCOMPARE(shown.linear[qsizetype(i)], rows.linear[i]);
    }
    QCOMPARE(shown.kl, rows.kl);
    QCOMPARE(shown.mse, rows.mse);
    const int prefix = static_cast<int>(probe.num_prefix_tokens());
    double vmax = 0.0;
    for (size_t i = size_t(prefix); i < rows.softmax.size(); ++i)
      vmax = std::max({vmax, double(rows.softmax[i]), double(rows.linear[i])});
    QCOMPARE(inspector_->scaleMax(), vmax);
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
    QCOMPARE(inspector_->rows().headKl[1], probe.rows(1, 1, inspector_->query()).kl);
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

QTEST_MAIN(TestGuiInspector)
#include "test_gui_inspector.moc"
