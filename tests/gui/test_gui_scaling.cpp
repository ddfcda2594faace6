// The Scaling tab: known points (a CSV as `adala bench scaling --csv` writes it, and the same
// points as a benchmark run in the database) drawn as log-log curves per mode with the
// softmax/linear crossover where it was computed by hand; Export CSV gives the same numbers
// back, Export PNG a real image; the form refuses a bad resolution list without launching,
// and a benchmark process (a stand-in script speaking the command's stderr protocol) is run,
// followed and plotted, or its failure shown.
#include <QtTest/QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>

#include <cmath>

#include <qcustomplot.h>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/scaling_bench_process.h"
#include "app/gui/scaling_panel.h"
#include "engine/store/run_store.h"
#include "tests/gui/gui_test_support.h"
#include "widgets/common/log_axis_ticker.h"
#include "widgets/common/plot_hover.h"
#include "widgets/runs/run_browser.h"
#include "widgets/scaling/scaling_data.h"
#include "widgets/scaling/scaling_form.h"
#include "widgets/scaling/scaling_view.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_scaling {

using namespace adala;
using adala::gui::EngineController;
using adala::gui::MainWindow;
using adala::gui::ScalingBenchProcess;
using adala::gui::ScalingPanel;
using adala::widgets::Crossover;
using adala::widgets::IntervalCrossover;
using adala::widgets::ScalingForm;
using adala::widgets::ScalingInterval;
using adala::widgets::ScalingMetric;
using adala::widgets::ScalingSample;
using adala::widgets::ScalingView;

namespace {

// Resolutions 224, 448, 896 for three modes; softmax at 1792 skipped (its note has commas
// and quotes, as the engine's notes can). Latency: softmax 10, 40, 160 ms; linear 20, 30,
// 60 ms. On log-log axes they cross between 224 and 448 where
//   d = ln(linear/softmax) goes from ln 2 to ln 0.75:  t = ln2 / (ln2 - ln0.75) = 0.70670,
//   resolution = 224 * 2^t = 365.58 px,
// linear lower above. Memory: 50, 200, 3000 vs 60, 90, 180 MB: t = ln1.2 / (ln1.2 - ln0.45),
// 224 * 2^t = 254.80 px. GFLOPs: linear lower at every resolution (no crossover).
constexpr double kLatencyCrossover = 365.58;
constexpr double kMemoryCrossover = 254.80;

const char* kEngineCsv =
    "preset,resolution,tokens,mode,chunk,batch,gmacs_model,gmacs_attention_only,gmacs_measured,"
    "gflops_model_2x,ran,note,ms_per_img,timed_runs,imgs_per_s,peak_rss_mb,peak_alloc_mb,"
    "train_ran,train_note,train_ms,train_timed_runs,train_peak_rss_mb,train_peak_alloc_mb\n"
    "vit_small,224,197,softmax,0,1,4.600000,1.500000,4.550000,9.200000,1,\"\",10.0000,3,100.0000,"
    "50.0,40.0,0,\"\",,,,\n"
    "vit_small,224,197,softmax-chunked,64,1,4.600000,1.500000,4.550000,9.200000,1,\"\",12.0000,3,"
    "83.3333,55.0,41.0,0,\"\",,,,\n"
    "vit_small,224,197,linear,0,1,4.300000,1.200000,4.250000,8.600000,1,\"\",20.0000,3,50.0000,60."
    "0,42.0,0,\"\",,,,\n"
    "vit_small,448,785,softmax,0,1,18.400000,7.000000,18.300000,36.800000,1,\"\",40.0000,3,25.0000,"
    "200.0,190.0,0,\"\",,,,\n"
    "vit_small,448,785,softmax-chunked,64,1,18.400000,7.000000,18.300000,36.800000,1,\"\",50.0000,"
    "3,20.0000,120.0,100.0,0,\"\",,,,\n"
    "vit_small,448,785,linear,0,1,17.200000,4.600000,17.100000,34.400000,1,\"\",30.0000,3,33.3333,"
    "90.0,80.0,0,\"\",,,,\n"
    "vit_small,896,3137,softmax,0,1,80.000000,40.000000,79.000000,160.000000,1,\"\",160.0000,1,6."
    "2500,3000.0,2900.0,0,\"\",,,,\n"
    "vit_small,896,3137,softmax-chunked,64,1,80.000000,40.000000,79.000000,160.000000,1,\"\",200."
    "0000,1,5.0000,400.0,380.0,0,\"\",,,,\n"
    "vit_small,896,3137,linear,0,1,69.000000,18.000000,68.500000,138.000000,1,\"\",60.0000,3,16."
    "6667,180.0,170.0,0,\"\",,,,\n"
    "vit_small,1792,12545,softmax,0,1,650.000000,330.000000,,1300.000000,0,\"skipped: needs ~26.1 "
    "GB (\"\"8.0 GB\"\", available), sorry\",,,,,,0,\"\",,,,\n";

// Latency with its spread (min, median, max ms/img) at 224, 448, 896 px, softmax and linear:
// softmax lower at 224 (14 < 18), the intervals overlap at 448 (softmax 30..50, linear
// 25..45), linear lower at 896 (70 < 150).
const char* kSpreadCsv =
    "preset,resolution,mode,ran,ms_per_img,ms_per_img_min,ms_per_img_max,peak_rss_mb,"
    "peak_rss_mb_min,peak_rss_mb_max,load_1m,rounds\n"
    "vit_small,224,softmax,1,10,8,14,50,49,52,0.5,3\n"
    "vit_small,224,linear,1,20,18,22,60,60,61,0.75,3\n"
    "vit_small,448,softmax,1,40,30,50,200,190,210,1.5,3\n"
    "vit_small,448,linear,1,30,25,45,90,88,95,2.25,3\n"
    "vit_small,896,softmax,1,160,150,170,3000,2990,3010,5.8,3\n"
    "vit_small,896,linear,1,60,55,70,180,179,181,4,3\n";

// The same medians, but wide intervals that overlap everywhere (a loaded machine).
const char* kOverlapCsv =
    "preset,resolution,mode,ran,ms_per_img,ms_per_img_min,ms_per_img_max,load_1m\n"
    "vit_small,224,softmax,1,10,5,40,5.8\n"
    "vit_small,224,linear,1,20,8,60,5.8\n"
    "vit_small,448,softmax,1,40,20,90,5.8\n"
    "vit_small,448,linear,1,30,15,100,5.8\n"
    "vit_small,896,softmax,1,160,50,400,5.8\n"
    "vit_small,896,linear,1,60,40,300,5.8\n";

QString writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  f.open(QIODevice::WriteOnly | QIODevice::Truncate);
  f.write(bytes);
  return path;
}

QString writeScript(const QString& path, const QByteArray& body) {
  writeFile(path, "#!/bin/sh\n" + body);
  QFile::setPermissions(path,
                        QFile::permissions(path) | QFileDevice::ExeOwner | QFileDevice::ExeUser);
  return path;
}

// (key, value) of a graph's points.
QVector<QPointF> pointsOf(const QCPGraph* graph) {
  QVector<QPointF> points;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
    points << QPointF(it->key, it->value);
  return points;
}

// The samples as a benchmark run (after a training run: ids 1 and 2) in a new database.
int64_t writeBenchmarkRun(const QString& db, const QVector<ScalingSample>& samples) {
  store::RunStore store(db.toStdString());
  store.create_run("training", "{}", "cpu", "", "");
  const int64_t run =
      store.create_run("bench scaling vit_small 224-1792px", "{}", "cpu", "", "", "benchmark");
  std::vector<store::BenchmarkPoint> points;
  for (const auto& s : samples) {
    store::BenchmarkPoint p;
    p.benchmark = "scaling";
    p.preset = s.preset.toStdString();
    p.mode = s.mode.toStdString();
    p.resolution = s.resolution;
    p.tokens = s.tokens;
    p.gflops = s.gflops;
    p.gflops_attention_only = s.gflopsAttention;
    p.peak_mb = s.peakMb;
    p.ms_per_img = s.msPerImg;
    p.imgs_per_s = s.imgsPerS;
    p.ran = s.ran;
    p.note = s.note.toStdString();
    points.push_back(p);
  }
  store.add_benchmark_points(run, points);
  store.set_run_status(run, adala::store::RunStatus::Done);
  return run;
}

// Entries in a plot's legend (a grid: the last row may have empty cells).
int legendEntries(QCustomPlot* plot) {
  int n = 0;
  for (int i = 0; i < plot->legend->elementCount(); ++i) n += plot->legend->item(i) != nullptr;
  return n;
}

int distinctColors(const QImage& image) {
  QSet<QRgb> colors;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colors.insert(image.pixel(x, y));
  return colors.size();
}

}  // namespace

class TestGuiScaling : public QObject {
  Q_OBJECT

  QString dir_, csv_;

  // Each plot's axis rectangle fills most of the plot's width and height.
  static void checkPlotsNotCollapsed(ScalingView& view) {
    for (int m = 0; m < adala::widgets::kScalingMetricCount; ++m) {
      auto* plot = view.plot(ScalingMetric(m));
      plot->replot();
      const QRect r = plot->axisRect()->rect();
      QVERIFY2(r.width() > plot->width() / 2 && r.height() > plot->height() / 3,
               qPrintable(QString("plot %1: axes %2 x %3 in %4 x %5")
                              .arg(m)
                              .arg(r.width())
                              .arg(r.height())
                              .arg(plot->width())
                              .arg(plot->height())));
    }
  }

  static void checkKnownCurves(ScalingView& view) {
    // GFLOPs: three solid curves, three dashed (attention + patch embed), the dashed legend
    // key, the paper's markers. Memory: three curves and the paper's. Latency: three curves.
    QCOMPARE(view.plot(ScalingMetric::Gflops)->graphCount(), 8);
    QCOMPARE(view.plot(ScalingMetric::PeakMemory)->graphCount(), 4);
    QCOMPARE(view.plot(ScalingMetric::Latency)->graphCount(), 3);
    for (int m = 0; m < adala::widgets::kScalingMetricCount; ++m) {
      auto* plot = view.plot(ScalingMetric(m));
      QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
      QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
      QVERIFY(plot->legend->visible());
    }
    // The skipped 1792 px softmax point has analytic FLOPs but no latency or memory.
    QCOMPARE(pointsOf(view.curve(ScalingMetric::Gflops, "softmax")),
             (QVector<QPointF>{{224, 4.6}, {448, 18.4}, {896, 80}, {1792, 650}}));
    QCOMPARE(pointsOf(view.curve(ScalingMetric::Latency, "softmax")),
             (QVector<QPointF>{{224, 10}, {448, 40}, {896, 160}}));
    QCOMPARE(pointsOf(view.curve(ScalingMetric::Latency, "linear")),
             (QVector<QPointF>{{224, 20}, {448, 30}, {896, 60}}));
    QCOMPARE(pointsOf(view.curve(ScalingMetric::PeakMemory, "softmax-chunked")),
             (QVector<QPointF>{{224, 55}, {448, 120}, {896, 400}}));
    QCOMPARE(pointsOf(view.attentionOnlyCurve("linear")),
             (QVector<QPointF>{{224, 1.2}, {448, 4.6}, {896, 18}}));
    // One colour per mode, and the legend names them.
    const QColor a = view.curve(ScalingMetric::Latency, "softmax")->pen().color();
    const QColor b = view.curve(ScalingMetric::Latency, "softmax-chunked")->pen().color();
    const QColor c = view.curve(ScalingMetric::Latency, "linear")->pen().color();
    QVERIFY(a != b && b != c && a != c);
    QCOMPARE(legendEntries(view.plot(ScalingMetric::Latency)), 3);
    QCOMPARE(legendEntries(view.plot(ScalingMetric::Gflops)), 5);  // 3 modes, dashed key, paper
    QVERIFY(view.plot(ScalingMetric::Latency)
                ->legend->hasItemWithPlottable(view.curve(ScalingMetric::Latency, "linear")));

    // Crossovers against the hand-computed values.
    const Crossover latency = view.crossover(ScalingMetric::Latency);
    QCOMPARE(latency.outcome, Crossover::Outcome::Crossed);
    QVERIFY2(std::abs(latency.resolution - kLatencyCrossover) < 0.01,
             qPrintable(QString::number(latency.resolution, 'f', 4)));
    QVERIFY(latency.linearLowerAbove);
    QVERIFY2(view.crossoverText(ScalingMetric::Latency).contains(QLatin1String("366 px")),
             qPrintable(view.crossoverText(ScalingMetric::Latency)));
    const Crossover memory = view.crossover(ScalingMetric::PeakMemory);
    QCOMPARE(memory.outcome, Crossover::Outcome::Crossed);
    QVERIFY(std::abs(memory.resolution - kMemoryCrossover) < 0.01);
    const Crossover flops = view.crossover(ScalingMetric::Gflops);
    QCOMPARE(flops.outcome, Crossover::Outcome::LinearLower);
    QCOMPARE(flops.fromResolution, 224);
    QCOMPARE(flops.toResolution, 896);
    QVERIFY(view.crossoverText(ScalingMetric::Gflops)
                .contains(QStringLiteral("no crossover in 224–896 px")));
    // The marker: a vertical line at the crossover on the latency plot, none on GFLOPs.
    auto verticalLineAt = [](QCustomPlot* plot) {
      for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i)))
          return line->point1->coords().x();
      return -1.0;
    };
    QVERIFY(std::abs(verticalLineAt(view.plot(ScalingMetric::Latency)) - kLatencyCrossover) < 0.01);
    ADALA_COMPARE_EXACT(verticalLineAt(view.plot(ScalingMetric::Gflops)), -1.0);  // the sentinel

    // The paper's ViT-L 1024² points.
    QCOMPARE(pointsOf(view.paperGraph(ScalingMetric::Gflops)),
             (QVector<QPointF>{{1024, 429.35}, {1024, 1241}}));
    QCOMPARE(pointsOf(view.paperGraph(ScalingMetric::PeakMemory)),
             (QVector<QPointF>{{1024, 1370}, {1024, 3280}}));
    QVERIFY(view.paperGraph(ScalingMetric::Latency) == nullptr);
    QVERIFY(view.paperGraph(ScalingMetric::Gflops)->name().contains(QLatin1String("paper ViT-L")));
    // x ticks at the measured resolutions; the paper's 1024 would touch 896's label, so it is
    // left out of the ticks but not of the range.
    auto* ticker = dynamic_cast<adala::widgets::LogAxisTicker*>(
        view.plot(ScalingMetric::Latency)->xAxis->ticker().data());
    QVERIFY(ticker);
    // The measured resolutions, whole numbers held in doubles.
    ADALA_COMPARE_EXACT(ticker->fixedTicks(), (QVector<double>{224, 448, 896, 1792}));
    QVERIFY(view.plot(ScalingMetric::Latency)->xAxis->range().contains(1024));
    QVERIFY(view.plot(ScalingMetric::Latency)->xAxis->range().contains(1792));
    QVERIFY(view.summaryText().contains(QLatin1String("sorry")));  // the skipped point's note
  }

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("scaling");
    csv_ = writeFile(dir_ + "/engine.csv", kEngineCsv);
  }

  void csv_points_are_drawn_with_crossover_and_paper_points() {
    ScalingView view;
    view.resize(1400, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    checkPlotsNotCollapsed(view);  // empty
    QString error;
    QVERIFY2(view.loadCsv(csv_, &error), qPrintable(error));
    QCOMPARE(view.samples().size(), 10);
    checkKnownCurves(view);
    checkPlotsNotCollapsed(view);
    QVERIFY(!view.samples().last().ran);
    QCOMPARE(view.samples().last().note,
             QString("skipped: needs ~26.1 GB (\"8.0 GB\", available), sorry"));

    // Paper points off: their graphs go, the curves stay.
    view.setPaperPointsVisible(false);
    QVERIFY(view.paperGraph(ScalingMetric::Gflops) == nullptr);
    QCOMPARE(view.plot(ScalingMetric::Gflops)->graphCount(), 7);
    QCOMPARE(view.plot(ScalingMetric::PeakMemory)->graphCount(), 3);
    view.setPaperPointsVisible(true);
    QCOMPARE(view.plot(ScalingMetric::PeakMemory)->graphCount(), 4);

    // A file that is no scaling CSV is refused and what is shown stays.
    const QString bad = writeFile(dir_ + "/bad.csv", "a,b\n1,2\n");
    QVERIFY(!view.loadCsv(bad, &error));
    QVERIFY2(error.contains(QLatin1String("not a scaling benchmark CSV")), qPrintable(error));
    QCOMPARE(view.samples().size(), 10);
  }

  void export_csv_gives_the_same_numbers_back() {
    ScalingView view;
    QVERIFY(view.loadCsv(csv_));
    const QString out = dir_ + "/exported.csv";
    QString error;
    QVERIFY2(view.exportCsv(out, &error), qPrintable(error));
    const auto back = adala::widgets::readScalingCsv(out, &error);
    QCOMPARE(back.size(), view.samples().size());
    for (int i = 0; i < back.size(); ++i) {
      const ScalingSample& a = view.samples()[i];
      const ScalingSample& b = back[i];
      QCOMPARE(b.preset, a.preset);
      QCOMPARE(b.mode, a.mode);
      QCOMPARE(b.resolution, a.resolution);
      QCOMPARE(b.tokens, a.tokens);
      QCOMPARE(b.ran, a.ran);
      QCOMPARE(b.note, a.note);
      const double pairs[][2] = {{a.gflops, b.gflops},
                                 {a.gflopsAttention, b.gflopsAttention},
                                 {a.peakMb, b.peakMb},
                                 {a.msPerImg, b.msPerImg},
                                 {a.imgsPerS, b.imgsPerS}};
      for (const auto& p : pairs) {
        if (std::isnan(p[0]))
          QVERIFY(std::isnan(p[1]));
        else
          ADALA_COMPARE_EXACT(p[1], p[0]);  // exactly: shortest round-trip text
      }
    }
    // The file itself: the engine's column names and the values as typed.
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    // (One column schema, engine/bench/scaling_csv.h: what the view does not know is empty.)
    QVERIFY(text.startsWith(QLatin1String(
        "preset,resolution,tokens,mode,chunk,batch,gmacs_model,gmacs_attention_only,"
        "gmacs_measured,gflops_model_2x,ran,note,ms_per_img,timed_runs,imgs_per_s,peak_rss_mb,"
        "peak_alloc_mb,train_ran,train_note,train_ms,train_timed_runs,train_peak_rss_mb,"
        "train_peak_alloc_mb,rounds,ms_per_img_min,ms_per_img_max,peak_rss_mb_min,"
        "peak_rss_mb_max,train_ms_min,train_ms_max,load_1m,matmul_gflops_min,matmul_gflops_max,"
        "unsteady,train_rounds\n")));
    QVERIFY2(text.contains(QLatin1String("vit_small,448,785,linear,,1,17.2,4.6,,,1,,30,,33.3333,90,"
                                         ",0,,,,,,,,,,,,,,,,0,\n")),
             qPrintable(text));
    QVERIFY2(text.contains(
                 QLatin1String(",\"skipped: needs ~26.1 GB (\"\"8.0 GB\"\", available), sorry\",")),
             qPrintable(text));
    // A view loaded from the export draws the same curves.
    ScalingView again;
    QVERIFY(again.loadCsv(out));
    checkKnownCurves(again);
  }

  void export_png_writes_a_real_image() {
    ScalingView view;
    view.resize(1400, 900);
    QVERIFY(view.loadCsv(csv_));
    const QString out = dir_ + "/scaling.png";
    QVERIFY(view.exportPng(out, 1500, 500));
    QVERIFY(QFileInfo(out).size() > 10000);
    QImage image(out);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1500, 500));
    QVERIFY(distinctColors(image) > 20);  // curves, text, markers: not a blank canvas
  }

  void benchmark_run_from_the_database_is_drawn_the_same() {
    const QString db = dir_ + "/runs.sqlite";
    const auto samples = adala::widgets::readScalingCsv(csv_);
    const int64_t run = writeBenchmarkRun(db, samples);
    ScalingView view;
    QString error;
    QVERIFY(!view.loadRun(db, 1, &error));  // the training run
    QVERIFY2(error.contains(QLatin1String("training run")), qPrintable(error));
    QVERIFY2(view.loadRun(db, run, &error), qPrintable(error));
    QCOMPARE(view.source(), QString("benchmark run #%1").arg(run));
    checkKnownCurves(view);

    // The panel lists it among the earlier runs and opens it from there.
    ScalingPanel panel(db);
    QCOMPARE(panel.form()->earlierRunCount(), 1);
    QCOMPARE(panel.form()->earlierRunsBox()->currentData().toLongLong(), qint64(run));
    QTest::mouseClick(panel.form()->openRunButton(), Qt::LeftButton);
    QCOMPARE(panel.view()->samples().size(), 10);
    QCOMPARE(panel.view()->crossover(ScalingMetric::Latency).outcome, Crossover::Outcome::Crossed);
  }

  void invalid_resolution_list_is_shown_and_nothing_starts() {
    ScalingPanel panel(dir_ + "/none.sqlite");
    panel.setPresets({"vit_base", "vit_small", "vit_large"});
    panel.process()->setProgram(writeScript(dir_ + "/never.sh", "touch \"$0.ran\"\n"));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ScalingForm* form = panel.form();
    QCOMPARE(form->presetBox()->currentText(), QString("vit_small"));
    const std::pair<const char*, const char*> bad[] = {{"224,abc", "\"abc\" is not a whole number"},
                                                       {"224,16", "16 px is out of range"},
                                                       {"448, 448", "448 px is listed twice"},
                                                       {" , ", "at least one resolution"}};
    for (const auto& [typed, expected] : bad) {
      form->resolutionEdit()->clear();
      QTest::keyClicks(form->resolutionEdit(), QString::fromLatin1(typed));
      QTest::mouseClick(form->runButton(), Qt::LeftButton);
      QVERIFY2(form->messageIsError(), typed);
      QVERIFY2(form->message().contains(QLatin1String(expected)), qPrintable(form->message()));
      QVERIFY(!form->running());
      QCOMPARE(panel.process()->launchCount(), 0);
    }
    // No mode chosen: refused too.
    form->resolutionEdit()->clear();
    QTest::keyClicks(form->resolutionEdit(), "224,448");
    for (const char* mode : {"softmax", "softmax-chunked", "linear"})
      form->modeBox(mode)->setChecked(false);
    QTest::keyClick(form->resolutionEdit(), Qt::Key_Return);
    QVERIFY(form->message().contains(QLatin1String("attention mode")));
    QCOMPARE(panel.process()->launchCount(), 0);
    // No process was started at all: the panel's process is idle and the script never ran.
    QVERIFY(!panel.process()->running());
    QVERIFY(!QFileInfo::exists(dir_ + "/never.sh.ran"));
  }

  void benchmark_process_is_followed_and_plotted() {
    const QString db = dir_ + "/process.sqlite";
    // Speaks like `adala bench scaling --progress jsonl`: JSON events on stderr (the recorded
    // run, progress; a text line between them is no event), then the CSV.
    const QString script =
        writeScript(dir_ + "/fake_adala.sh",
                    "csv=''; db=''\n"
                    "echo \"$@\" > \"$0.args\"\n"
                    "while [ $# -gt 0 ]; do case \"$1\" in --csv) csv=\"$2\"; shift;; --db) "
                    "db=\"$2\"; shift;; esac; shift; done\n"
                    "echo '{\"event\":\"start\",\"benchmark\":\"scaling\",\"total\":2}' >&2\n"
                    "echo \"benchmark run 42 recorded in $db\" >&2\n"
                    "echo '{\"event\":\"recorded\",\"run_id\":42}' >&2\n"
                    "echo '{\"event\":\"progress\",\"done\":0,\"total\":2,\"label\":\"224px "
                    "softmax\"}' >&2\n"
                    "echo '{\"event\":\"progress\",\"done\":1,\"total\":2,\"label\":\"224px "
                    "linear\"}' >&2\n"
                    "echo '{\"event\":\"progress\",\"done\":2,\"total\":2,\"label\":\"\"}' >&2\n"
                    "cp '" +
                        csv_.toUtf8() +
                        "' \"$csv\"\n"
                        "echo table\n");
    ScalingPanel panel(db);
    panel.setPresets({"vit_small", "vit_base"});
    panel.process()->setProgram(script);
    ScalingForm* form = panel.form();
    form->resolutionEdit()->clear();
    QTest::keyClicks(form->resolutionEdit(), "224, 448");
    form->modeBox("softmax-chunked")->setChecked(false);
    form->batchBox()->setValue(8);
    QSignalSpy progress(panel.process(), &ScalingBenchProcess::progress);
    QSignalSpy done(panel.process(), &ScalingBenchProcess::succeeded);
    QSignalSpy recorded(&panel, &ScalingPanel::benchmarkRecorded);
    QTest::mouseClick(form->runButton(), Qt::LeftButton);
    QVERIFY(form->running());
    QVERIFY(!form->runButton()->isEnabled());
    QVERIFY(form->cancelButton()->isEnabled());
    QVERIFY(done.wait(10000));
    QCOMPARE(panel.process()->launchCount(), 1);
    const QStringList args = panel.process()->arguments();
    QCOMPARE(args.mid(0, 10),
             (QStringList{"bench", "scaling", "--preset", "vit_small", "--res", "224,448",
                          "--modes", "softmax,linear", "--batch", "8"}));
    QCOMPARE(args.at(10), QString("--csv"));
    QCOMPARE(args.mid(12), (QStringList{"--db", db, "--progress", "jsonl"}));
    QCOMPARE(progress.count(), 3);
    QCOMPARE(progress.at(1).at(0).toInt(), 1);
    QCOMPARE(progress.at(1).at(2).toString(), QString("224px linear"));
    QCOMPARE(progress.at(2).at(0).toInt(), 2);
    QCOMPARE(progress.at(2).at(2).toString(), QString());
    QCOMPARE(panel.process()->runId(), qint64(42));
    QVERIFY(recorded.count() >= 1);
    QVERIFY(!form->running());
    QVERIFY(form->runButton()->isEnabled());
    QCOMPARE(panel.view()->samples().size(), 10);
    QCOMPARE(panel.view()->source(), QString("benchmark run #42"));
    QVERIFY2(form->message().contains(QLatin1String("run #42")), qPrintable(form->message()));
    QCOMPARE(panel.view()->crossover(ScalingMetric::Latency).outcome, Crossover::Outcome::Crossed);
  }

  // The form's batch: 1 by default, 1..kMaxScalingBatch, in the request, off while running.
  void form_batch_reaches_the_request() {
    ScalingForm form;
    form.setPresets({"vit_small"});
    adala::widgets::ScalingRequest request;
    QVERIFY(form.validate(&request));
    QCOMPARE(request.batch, 1);
    QCOMPARE(form.batchBox()->minimum(), 1);
    QCOMPARE(form.batchBox()->maximum(), adala::widgets::kMaxScalingBatch);
    form.setBatch(64);
    QVERIFY(form.validate(&request));
    QCOMPARE(request.batch, 64);
    form.setRunning(true);
    QVERIFY(!form.batchBox()->isEnabled());
    form.setRunning(false);
    QVERIFY(form.batchBox()->isEnabled());
  }

  // A run whose reference-matmul rate moved more than 25 % is flagged above the plots, in the
  // benchmark's words; 24 % is not.
  void unsteady_run_is_flagged_in_the_view() {
    const QByteArray head =
        "preset,resolution,mode,batch,ran,ms_per_img,matmul_gflops_min,matmul_gflops_max,"
        "unsteady\n";
    ScalingView view;
    view.resize(1200, 800);
    const QString steady = writeFile(dir_ + "/steady.csv", head +
                                                               "vit_small,224,softmax,8,1,10,100,"
                                                               "110,0\n"
                                                               "vit_small,224,linear,8,1,12,110,"
                                                               "124,0\n");
    QVERIFY(view.loadCsv(steady));
    QCOMPARE(view.unsteadyFlag(), QString());
    QVERIFY(!view.flagLabel()->isVisibleTo(&view));
    QVERIFY2(view.summaryText().contains(QLatin1String("100.0 to 124.0 GFLOP/s")),
             qPrintable(view.summaryText()));
    const QString moved = writeFile(dir_ + "/unsteady.csv", head +
                                                                "vit_small,224,softmax,8,1,10,100,"
                                                                "110,0\n"
                                                                "vit_small,224,linear,8,1,12,110,"
                                                                "126,0\n");
    QVERIFY(view.loadCsv(moved));
    QCOMPARE(view.unsteadyFlag(),
             QString("unsteady: matmul rate moved 26 % (100.0-126.0 GFLOP/s)"));
    QVERIFY(view.flagLabel()->isVisibleTo(&view));
    QVERIFY(view.flagLabel()->text().startsWith(view.unsteadyFlag()));
    QVERIFY2(view.summaryText().contains(view.unsteadyFlag()), qPrintable(view.summaryText()));
    QVERIFY(view.source().contains(QLatin1String("unsteady.csv")));
  }

  void failing_benchmark_shows_its_error() {
    const QString script =
        writeScript(dir_ + "/failing.sh",
                    "echo '{\"event\":\"progress\",\"done\":0,\"total\":1,\"label\":\"4096px "
                    "softmax\"}' >&2\n"
                    "echo '{\"event\":\"error\",\"message\":\"cannot allocate 40 GB at 4096px\"}' "
                    ">&2\n"
                    "echo 'a line that is no event' >&2\n"
                    "exit 1\n");
    ScalingPanel panel(dir_ + "/failing.sqlite");
    panel.setPresets({"vit_small"});
    panel.process()->setProgram(script);
    QSignalSpy failed(panel.process(), &ScalingBenchProcess::failed);
    panel.form()->resolutionEdit()->setText("4096");
    QTest::mouseClick(panel.form()->runButton(), Qt::LeftButton);
    QVERIFY(failed.wait(10000));
    QVERIFY(panel.form()->messageIsError());
    QVERIFY2(panel.form()->message().contains(QLatin1String("exit code 1")),
             qPrintable(panel.form()->message()));
    QVERIFY2(panel.form()->message().contains(QLatin1String("cannot allocate 40 GB")),
             qPrintable(panel.form()->message()));
    QVERIFY(!panel.form()->running());
    QVERIFY(panel.view()->samples().isEmpty());

    // A program that is not there: said so, and the form is usable again.
    panel.process()->setProgram(dir_ + "/no-such-adala");
    QTest::mouseClick(panel.form()->runButton(), Qt::LeftButton);
    QVERIFY(failed.count() == 2 || failed.wait(10000));
    QVERIFY2(panel.form()->message().contains(QLatin1String("Cannot start")),
             qPrintable(panel.form()->message()));
    QVERIFY(panel.form()->runButton()->isEnabled());
  }

  void cancel_stops_the_benchmark() {
    const QString script = writeScript(dir_ + "/slow.sh",
                                       "echo '{\"event\":\"progress\",\"done\":0,"
                                       "\"total\":4,\"label\":\"224px softmax\"}' >&2\n"
                                       "exec sleep 600\n");
    ScalingPanel panel(dir_ + "/slow.sqlite");
    panel.setPresets({"vit_small"});
    panel.process()->setProgram(script);
    QSignalSpy progress(panel.process(), &ScalingBenchProcess::progress);
    QSignalSpy cancelled(panel.process(), &ScalingBenchProcess::cancelled);
    QTest::mouseClick(panel.form()->runButton(), Qt::LeftButton);
    QVERIFY(progress.wait(10000));
    QCOMPARE(panel.form()->progressBar()->maximum(), 4);
    QTest::mouseClick(panel.form()->cancelButton(), Qt::LeftButton);
    // The script sleeps 10 minutes; cancelled arrives once the process has gone.
    QVERIFY(cancelled.count() == 1 || cancelled.wait(60000));
    QVERIFY(!panel.process()->running());
    QVERIFY(panel.form()->message().contains(QLatin1String("Cancelled")));
    QVERIFY(panel.form()->runButton()->isEnabled());
  }

  // The real `adala bench scaling` at a tiny resolution: the progress it prints, the run it
  // records (kind benchmark, its points and CSV artifact), and the plot of its CSV.
  void real_benchmark_end_to_end() {
    const QString program = ScalingBenchProcess::defaultProgram();
    if (!QFileInfo(program).isExecutable())
      QSKIP("the adala binary is not built next to the tests");
    const QString db = dir_ + "/real.sqlite";
    ScalingPanel panel(db);
    panel.setPresets({"vit_small"});
    QCOMPARE(panel.process()->program(), program);
    panel.form()->resolutionEdit()->setText("64,96");
    panel.form()->modeBox("softmax-chunked")->setChecked(false);
    QSignalSpy progress(panel.process(), &ScalingBenchProcess::progress);
    QSignalSpy done(panel.process(), &ScalingBenchProcess::succeeded);
    QSignalSpy failed(panel.process(), &ScalingBenchProcess::failed);
    QTest::mouseClick(panel.form()->runButton(), Qt::LeftButton);
    QVERIFY(done.wait(240000) || !failed.isEmpty());
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    // 2 resolutions x 2 modes x 3 interleaved rounds (the command's default): 0/12 .. 11/12, done
    QVERIFY(progress.count() >= 12);
    QCOMPARE(progress.last().at(0).toInt(), 12);
    QCOMPARE(progress.last().at(1).toInt(), 12);
    const qint64 run = panel.process()->runId();
    QVERIFY(run > 0);

    store::RunStore store(db.toStdString(), store::OpenMode::ReadOnly);
    const auto info = store.find_run(static_cast<int64_t>(run));
    QVERIFY(info.has_value());
    QCOMPARE(info->kind, std::string("benchmark"));
    QCOMPARE(info->status, std::string("done"));
    const auto points = store.benchmark_points(info->id);
    QCOMPARE(points.size(), size_t(4));
    QCOMPARE(points[0].resolution, int64_t(64));
    QCOMPARE(points[0].mode, std::string("softmax"));
    QCOMPARE(points[3].resolution, int64_t(96));
    QCOMPARE(points[3].mode, std::string("linear"));
    QCOMPARE(points[3].tokens, int64_t(37));  // (96/16)^2 + cls
    for (const auto& p : points) QVERIFY(p.ran && p.ms_per_img > 0 && p.gflops > 0);
    const auto artifacts = store.artifacts(info->id);
    QCOMPARE(artifacts.size(), size_t(1));
    QCOMPARE(artifacts[0].kind, std::string("scaling_csv"));
    QVERIFY(QFileInfo(QString::fromStdString(artifacts[0].path))
                .absolutePath()
                .endsWith(QLatin1String("/benchmarks")));

    QCOMPARE(panel.view()->samples().size(), 4);
    QCOMPARE(pointsOf(panel.view()->curve(ScalingMetric::Latency, "linear")).size(), 2);
    // Plotted from the CSV, which has GFLOPs to 6 decimals (the database: full precision).
    QVERIFY(std::abs(panel.view()->curve(ScalingMetric::Gflops, "linear")->data()->at(1)->value -
                     points[3].gflops) < 1e-6);
    QCOMPARE(panel.form()->earlierRunCount(), 1);

    // The run's points in the database carry the spread and the load (in their extras), and
    // the view drawn from the run has the same error bars as from the CSV.
    for (const auto& p : points) {
      const QJsonObject extra =
          QJsonDocument::fromJson(QByteArray::fromStdString(p.extra_json)).object();
      const double lo = extra.value("ms_per_img_min").toDouble(-1);
      const double hi = extra.value("ms_per_img_max").toDouble(-1);
      QVERIFY2(lo > 0 && lo <= p.ms_per_img && p.ms_per_img <= hi, p.extra_json.c_str());
      QVERIFY2(extra.value("load_1m").toDouble(-1) >= 0, p.extra_json.c_str());
    }
    const auto fromCsv = panel.view()->samples();
    QVERIFY(panel.openRun(run));
    const auto fromRun = panel.view()->samples();
    QCOMPARE(fromRun.size(), fromCsv.size());
    // The same measured doubles, written as round-trip text to the CSV (fmt's shortest) and to
    // the point's extra JSON (nlohmann's round-trip precision), read back: the same bits.
    for (int i = 0; i < fromRun.size(); ++i) {
      ADALA_COMPARE_EXACT(fromRun[i].msMin, fromCsv[i].msMin);
      ADALA_COMPARE_EXACT(fromRun[i].msMax, fromCsv[i].msMax);
      ADALA_COMPARE_EXACT(fromRun[i].load1m, fromCsv[i].load1m);
    }
    QVERIFY(panel.view()->errorBars(ScalingMetric::Latency, "linear"));
    QVERIFY(panel.view()->usesIntervals(ScalingMetric::Latency));
  }

  void main_window_has_the_scaling_tab() {
    const QString db = dir_ + "/window.sqlite";
    EngineController controller(db);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    // Summary, MSE plots, health, inspector, scaling, segmentation, loss & lr, features, plans.
    QCOMPARE(tabs->count(), 9);
    QCOMPARE(tabs->widget(MainWindow::ScalingTab), static_cast<QWidget*>(window.scalingPanel()));
    window.showTab(MainWindow::PlotTab);
    QTest::keyClick(&window, Qt::Key_5, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), int(MainWindow::ScalingTab));
    QVERIFY(window.openBenchmarkCsv(csv_));
    QCOMPARE(window.scalingPanel()->view()->samples().size(), 10);
    QCOMPARE(window.scalingPanel()->form()->presetBox()->itemText(0), QString("vit_small"));
  }

  // A benchmark run in the run list says so, and opening it shows the Scaling tab.
  void benchmark_run_opens_from_the_run_list() {
    const QString db = dir_ + "/browser.sqlite";
    const qint64 run = writeBenchmarkRun(db, adala::widgets::readScalingCsv(csv_));
    EngineController controller(db);
    MainWindow window(&controller);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* browser = window.runBrowser();
    QCOMPARE(browser->kindOf(run), QString("benchmark"));
    QCOMPARE(browser->kindOf(1), QString("training"));
    QCOMPARE(window.scalingPanel()->form()->earlierRunCount(), 1);
    auto* view = browser->view();
    const auto found =
        view->model()->match(view->model()->index(0, widgets::RunBrowser::StageColumn),
                             Qt::DisplayRole, QStringLiteral("benchmark · 10 point"), 1,
                             Qt::MatchStartsWith);  // "points" with the English .qm loaded
    QCOMPARE(found.size(), 1);
    window.showTab(MainWindow::PlotTab);
    const QModelIndex cell = found.first();
    view->scrollTo(cell);
    QSignalSpy opened(browser, &widgets::RunBrowser::runOpened);
    const QPoint at = view->visualRect(cell).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);  // Qt 6: the press first
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.first().first().toLongLong(), run);
    auto* tabs = window.findChild<QTabWidget*>();
    QCOMPARE(tabs->currentIndex(), int(MainWindow::ScalingTab));
    QCOMPARE(window.scalingPanel()->view()->samples().size(), 10);
    QCOMPARE(window.scalingPanel()->view()->source(), QString("benchmark run #%1").arg(run));
  }

  // The crossover from intervals: a claim only where the whole linear interval lies below
  // softmax's (or above), and from the resolution where that holds up to the largest.
  void interval_crossover_claims_only_where_intervals_separate() {
    using Order = IntervalCrossover::Order;
    const auto at = [](int r, double mid, double lo, double hi) {
      ScalingInterval i;
      i.resolution = r;
      i.median = mid;
      i.lo = lo;
      i.hi = hi;
      return i;
    };
    // Overlapping everywhere: no claim, though the medians cross.
    IntervalCrossover c = adala::widgets::findIntervalCrossover(
        {at(224, 10, 5, 40), at(448, 40, 20, 90)}, {at(224, 20, 8, 60), at(448, 30, 15, 100)});
    QVERIFY(c.comparable());
    QVERIFY(c.everyOverlap());
    QCOMPARE(c.claimFrom, 0);
    // Separated at 896 only, softmax lower at 224, overlap at 448: the claim from 896.
    c = adala::widgets::findIntervalCrossover(
        {at(224, 10, 8, 14), at(448, 40, 30, 50), at(896, 160, 150, 170)},
        {at(224, 20, 18, 22), at(448, 30, 25, 45), at(896, 60, 55, 70)});
    QCOMPARE(c.verdicts.size(), 3);
    QCOMPARE(c.verdicts[0].order, Order::SoftmaxLower);
    QCOMPARE(c.verdicts[1].order, Order::Overlap);
    QCOMPARE(c.verdicts[2].order, Order::LinearLower);
    QCOMPARE(c.claimFrom, 896);
    QVERIFY(c.linearLower);
    // Separated at 448 and 896: the claim from 448. Touching ends (45 vs 45) overlap.
    c = adala::widgets::findIntervalCrossover(
        {at(224, 10, 8, 14), at(448, 40, 36, 50), at(896, 160, 150, 170)},
        {at(224, 20, 14, 22), at(448, 30, 25, 35), at(896, 60, 55, 70)});
    QCOMPARE(c.verdicts[0].order, Order::Overlap);
    QCOMPARE(c.claimFrom, 448);
    // The largest resolution overlaps: no claim even though 224 separates.
    c = adala::widgets::findIntervalCrossover({at(224, 10, 8, 12), at(448, 40, 30, 50)},
                                              {at(224, 20, 18, 22), at(448, 30, 25, 45)});
    QCOMPARE(c.claimFrom, 0);
    QCOMPARE(c.verdicts[0].order, Order::SoftmaxLower);
    // Without a spread on one side: not comparable (the view falls back to the medians).
    c = adala::widgets::findIntervalCrossover({at(224, 10, 8, 12)},
                                              {at(224, 20, ScalingSample::kNone, 22)});
    QVERIFY(!c.comparable());
  }

  // The view: error bars from the spread, the summary's crossover sentence says "overlap" and
  // claims nothing for overlapping data, and claims from the right resolution for separated
  // data; the load is in the summary and the hover text.
  void summary_claims_only_separated_intervals() {
    ScalingView view;
    view.resize(1400, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QString error;
    QVERIFY2(view.loadCsv(writeFile(dir_ + "/overlap.csv", kOverlapCsv), &error),
             qPrintable(error));
    QVERIFY(view.usesIntervals(ScalingMetric::Latency));
    QVERIFY(!view.usesIntervals(ScalingMetric::Gflops));
    // The medians cross (softmax 10 -> 160, linear 20 -> 60), yet nothing is claimed.
    QCOMPARE(view.crossover(ScalingMetric::Latency).outcome, Crossover::Outcome::Crossed);
    const QString overlap = view.crossoverText(ScalingMetric::Latency);
    QCOMPARE(overlap, QString("no crossover claimed: intervals overlap at every resolution "
                              "(224–896 px)"));
    QVERIFY(view.summaryText().contains(QLatin1String("intervals overlap at every resolution")));
    QVERIFY(!view.summaryText().contains(QLatin1String("linear faster")));
    QVERIFY(!view.summaryText().contains(QLatin1String("≈")));
    QCOMPARE(view.crossoverLabel(ScalingMetric::Latency), QString("no claim: intervals overlap"));
    for (int i = 0; i < view.plot(ScalingMetric::Latency)->itemCount(); ++i)
      QVERIFY(!qobject_cast<QCPItemStraightLine*>(view.plot(ScalingMetric::Latency)->item(i)));
    QVERIFY2(view.summaryText().contains(QLatin1String("5.8 during the points")),
             qPrintable(view.summaryText()));

    QVERIFY(view.loadCsv(writeFile(dir_ + "/spread.csv", kSpreadCsv), &error));
    QCOMPARE(view.crossoverText(ScalingMetric::Latency),
             QString("linear faster from 896 px (intervals separate); softmax faster at 224 px "
                     "(intervals separate); between 448 and 896 px the intervals overlap — no "
                     "claim"));
    QCOMPARE(view.crossoverLabel(ScalingMetric::Latency), QString("linear faster from 896 px"));
    QVERIFY(view.summaryText().contains(QLatin1String("linear faster from 896 px")));
    // Memory: 224 separates (softmax 49..52 < linear 60..61), 448 and 896 too, linear lower.
    QCOMPARE(view.crossoverText(ScalingMetric::PeakMemory),
             QString("linear lower from 448 px (intervals separate); softmax lower at 224 px "
                     "(intervals separate)"));
    // The marker line where the claim starts.
    double line = -1;
    for (int i = 0; i < view.plot(ScalingMetric::Latency)->itemCount(); ++i)
      if (auto* l = qobject_cast<QCPItemStraightLine*>(view.plot(ScalingMetric::Latency)->item(i)))
        line = l->point1->coords().x();
    ADALA_COMPARE_EXACT(line, 896.0);  // the claim's first resolution, an int
    // Error bars: median - min below, max - median above, per point.
    QCPErrorBars* bars = view.errorBars(ScalingMetric::Latency, "linear");
    QVERIFY(bars);
    QCOMPARE(bars->dataPlottable(),
             static_cast<QCPAbstractPlottable*>(view.curve(ScalingMetric::Latency, "linear")));
    QCOMPARE(bars->dataCount(), 3);
    // Differences of whole numbers read from the CSV: exact.
    ADALA_COMPARE_EXACT(bars->data()->at(0).errorMinus, 2.0);  // 20 - 18
    ADALA_COMPARE_EXACT(bars->data()->at(2).errorPlus, 10.0);  // 70 - 60
    QVERIFY(view.errorBars(ScalingMetric::PeakMemory, "softmax"));
    QVERIFY(!view.errorBars(ScalingMetric::Gflops, "softmax"));
    // The y range holds every interval (8 .. 170 ms).
    QVERIFY(view.plot(ScalingMetric::Latency)->yAxis->range().contains(8));
    QVERIFY(view.plot(ScalingMetric::Latency)->yAxis->range().contains(170));
    QVERIFY2(view.summaryText().contains(QLatin1String("0.5 to 5.8 during the points")),
             qPrintable(view.summaryText()));
    QVERIFY(view.summaryText().contains(QLatin1String("Error bars")));
    // The hover tooltip on a point names its resolution and the load it was measured under
    // (the highest of the resolution's points: softmax 5.8, linear 4 at 896 px).
    QCustomPlot* latency = view.plot(ScalingMetric::Latency);
    latency->replot();
    auto* hover = latency->findChild<adala::widgets::PlotHover*>();
    QVERIFY(hover);
    const QCPGraph* linear = view.curve(ScalingMetric::Latency, "linear");
    const QPointF at = linear->coordsToPixels(896, 60);
    QVERIFY2(hover->textAt(at).contains(QLatin1String("896 px (load 5.8)")),
             qPrintable(hover->textAt(at)));

    // The old CSV (no spread): the medians' crossover, said to be medians only.
    QVERIFY(view.loadCsv(csv_, &error));
    QVERIFY(!view.usesIntervals(ScalingMetric::Latency));
    QVERIFY(view.crossoverText(ScalingMetric::Latency).contains(QLatin1String("medians only")));
    QVERIFY(!view.crossoverText(ScalingMetric::Gflops).contains(QLatin1String("medians only")));
    QVERIFY(!view.errorBars(ScalingMetric::Latency, "linear"));
  }

  // While the benchmark runs, each point event is drawn at once, on axes that already span the
  // requested resolutions and hold the points; the end's CSV then replaces them.
  void points_are_drawn_as_they_arrive() {
    const QString go = dir_ + "/live.go";
    QFile::remove(go);
    const QByteArray point224soft =
        R"({"event":"point","row":{"preset":"vit_small","resolution":"224","mode":"softmax",)"
        R"("ms_per_img":"10","ms_per_img_min":"8","ms_per_img_max":"14","peak_rss_mb":"50",)"
        R"("load_1m":"0.5"}})";
    const QByteArray point224lin =
        R"({"event":"point","row":{"preset":"vit_small","resolution":"224","mode":"linear",)"
        R"("ms_per_img":"20","ms_per_img_min":"18","ms_per_img_max":"22","peak_rss_mb":"60",)"
        R"("load_1m":"0.75"}})";
    // The script waits for the test's go file before its second resolution and the end.
    const QString script = writeScript(
        dir_ + "/live.sh",
        "csv=''\n"
        "while [ $# -gt 0 ]; do case \"$1\" in --csv) csv=\"$2\"; shift;; esac; shift; done\n"
        "echo '{\"event\":\"start\",\"benchmark\":\"scaling\",\"total\":4,\"preset\":"
        "\"vit_small\",\"resolutions\":[224,448,896],\"modes\":[\"softmax\",\"linear\"]}' >&2\n"
        "echo '" +
            point224soft +
            "' >&2\n"
            "echo '" +
            point224lin +
            "' >&2\n"
            "while [ ! -f '" +
            go.toUtf8() +
            "' ]; do sleep 0.05; done\n"
            "cp '" +
            dir_.toUtf8() + "/spread.csv' \"$csv\"\n");
    writeFile(dir_ + "/spread.csv", kSpreadCsv);
    ScalingPanel panel(dir_ + "/live.sqlite");
    panel.setPresets({"vit_small"});
    panel.process()->setProgram(script);
    panel.resize(1400, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.form()->resolutionEdit()->setText("224,448,896");
    panel.form()->modeBox("softmax-chunked")->setChecked(false);
    QSignalSpy done(panel.process(), &ScalingBenchProcess::succeeded);
    QTest::mouseClick(panel.form()->runButton(), Qt::LeftButton);
    ScalingView* view = panel.view();
    // Before any point: the x axis already spans the planned resolutions, and the plots keep
    // their size (an empty legend once capped their width to a strip).
    QCOMPARE(view->plannedResolutions(), (QVector<int>{224, 448, 896}));
    QVERIFY(view->samples().isEmpty());
    checkPlotsNotCollapsed(*view);
    QVERIFY2(view->summaryText().contains(QLatin1String("benchmark is running")),
             qPrintable(view->summaryText()));
    QTRY_VERIFY_WITH_TIMEOUT(view->curve(ScalingMetric::Latency, "linear") != nullptr, 20000);
    QVERIFY(panel.form()->running());
    QVERIFY(done.isEmpty());
    QCOMPARE(pointsOf(view->curve(ScalingMetric::Latency, "softmax")),
             (QVector<QPointF>{{224, 10}}));
    QCOMPARE(pointsOf(view->curve(ScalingMetric::Latency, "linear")),
             (QVector<QPointF>{{224, 20}}));
    QCOMPARE(pointsOf(view->curve(ScalingMetric::PeakMemory, "linear")),
             (QVector<QPointF>{{224, 60}}));
    // 14 - 10, whole numbers from the fake benchmark's point event: exact.
    ADALA_COMPARE_EXACT(view->errorBars(ScalingMetric::Latency, "softmax")->data()->at(0).errorPlus,
                        4.0);
    for (int m = 0; m < adala::widgets::kScalingMetricCount; ++m) {
      auto* plot = view->plot(ScalingMetric(m));
      const QCPRange x = plot->xAxis->range();
      QVERIFY2(x.contains(224) && x.contains(896) && x.lower > 100 && x.upper < 1500,
               qPrintable(QString("%1..%2").arg(x.lower).arg(x.upper)));
    }
    const QCPRange y = view->plot(ScalingMetric::Latency)->yAxis->range();
    QVERIFY2(y.contains(8) && y.contains(22) && y.upper / y.lower < 100,
             qPrintable(QString("%1..%2").arg(y.lower).arg(y.upper)));
    // Axis ticks at the planned resolutions, not a garble of log ticks.
    auto* ticker = dynamic_cast<adala::widgets::LogAxisTicker*>(
        view->plot(ScalingMetric::Latency)->xAxis->ticker().data());
    // The planned resolutions, whole numbers held in doubles.
    ADALA_COMPARE_EXACT(ticker->fixedTicks(), (QVector<double>{224, 448, 896}));
    // Two points so far: the softmax/linear comparison is over 224 px alone.
    QVERIFY2(view->crossoverText(ScalingMetric::Latency).contains(QLatin1String("224 px")),
             qPrintable(view->crossoverText(ScalingMetric::Latency)));

    writeFile(go, "go");
    QVERIFY(done.wait(20000));
    QCOMPARE(view->samples().size(), 6);
    QVERIFY(view->plannedResolutions().isEmpty());
    QCOMPARE(pointsOf(view->curve(ScalingMetric::Latency, "linear")).size(), 3);
    // The form shows what the plots show.
    QCOMPARE(panel.form()->resolutionEdit()->text(), QString("224, 448, 896"));
    QVERIFY(!panel.form()->modeBox("softmax-chunked")->isChecked());
    QVERIFY(panel.form()->modeBox("linear")->isChecked());
  }

  // Opening a CSV or a run sets the form to its preset, resolutions and modes.
  void form_follows_what_is_shown() {
    ScalingPanel panel(dir_ + "/follow.sqlite");
    panel.setPresets({"vit_small", "vit_base"});
    panel.form()->presetBox()->setCurrentText("vit_base");
    panel.form()->resolutionEdit()->setText("64");
    panel.form()->modeBox("softmax-chunked")->setChecked(false);
    QVERIFY(panel.openCsv(csv_));
    QCOMPARE(panel.form()->presetBox()->currentText(), QString("vit_small"));
    QCOMPARE(panel.form()->resolutionEdit()->text(), QString("224, 448, 896, 1792"));
    QVERIFY(panel.form()->modeBox("softmax-chunked")->isChecked());
    QVERIFY(panel.openCsv(writeFile(dir_ + "/spread2.csv", kSpreadCsv)));
    QCOMPARE(panel.form()->resolutionEdit()->text(), QString("224, 448, 896"));
    QVERIFY(!panel.form()->modeBox("softmax-chunked")->isChecked());
  }

  void log_ticks_read_at_any_range() {
    using adala::widgets::LogAxisTicker;
    // Whole numbers (a mantissa times 10^e, e >= 0; pow(10, e) is exact there): exact.
    ADALA_COMPARE_EXACT(LogAxisTicker::niceTicks(5, 60), (QVector<double>{5, 7, 10, 20, 30, 50}));
    ADALA_COMPARE_EXACT(LogAxisTicker::niceTicks(150, 6000),
                        (QVector<double>{200, 300, 500, 700, 1000, 2000, 3000, 5000}));
    ADALA_COMPARE_EXACT(LogAxisTicker::niceTicks(12, 18), (QVector<double>{15}));
    QCOMPARE(LogAxisTicker::label(2000), QString("2000"));
    QCOMPARE(LogAxisTicker::label(0.5), QString("0.5"));
  }
};

ADALA_TEST_MAIN(TestGuiScaling)
}  // namespace test_gui_scaling

#include "test_gui_scaling.moc"
