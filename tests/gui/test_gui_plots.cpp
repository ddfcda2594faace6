// The workbench's plots as a person uses them (offscreen): log axes labelled at every decade
// with 2x / 5x sub-ticks, legends beside the data whose entries hide and show their curve on a
// click, hover tooltips with the point's value, the EMA smoothing slider, the x axis by step
// or by recorded wall time, and one colour per attention mode shared with the reports.
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QSlider>
#include <QTest>
#include <QToolTip>

#include <cmath>

#include <qcustomplot.h>

#include "engine/report/chart_palette.h"
#include "engine/store/run_store.h"
#include "gui_test_support.h"
#include "widgets/runs/attention_mse_plot.h"
#include "widgets/runs/health_heatmap.h"
#include "widgets/common/log_axis_ticker.h"
#include "widgets/common/plot_hover.h"
#include "widgets/common/plot_style.h"
#include "widgets/runs/run_types.h"
#include "widgets/scaling/scaling_view.h"
#include "engine/report/report_document.h"
#include "engine/report/report_model.h"
#include "tests/report/report_fixture.h"
#include "tests/support/test_suite.h"

// Its own namespace: a unity build compiles several suites in one unit (tests/CMakeLists.txt).
namespace test_gui_plots {

using adala::widgets::AttentionMsePlot;
using adala::widgets::LogAxisTicker;
using adala::widgets::PlotHover;

namespace {

bool sameValue(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

bool sameValues(const QVector<double>& a, const QVector<double>& b) {
  if (a.size() != b.size()) return false;
  for (int i = 0; i < a.size(); ++i)
    if (!sameValue(a[i], b[i])) return false;
  return true;
}

QVector<double> valuesOf(const QCPGraph* g) {
  QVector<double> v;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) v << it->value;
  return v;
}

QVector<double> keysOf(const QCPGraph* g) {
  QVector<double> v;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) v << it->key;
  return v;
}

// The Stage-1 MSE of block b at step s (1..20): from ~1 down to ~1e-5, with some noise, so that
// smoothing changes it.
double blockMse(int run, int b, int step) {
  return std::pow(10.0, -5.0 * (step - 1) / 19.0) * (1.0 + 0.3 * ((step % 3) - 1)) / (1 + run + b);
}

constexpr double kWallStart = 1.7e9;

// Runs with four blocks of Stage-1 MSE and a Stage-2 loss over 20 steps; `timed` runs record a
// wall time per logged step (2.5 s apart, Stage 2 starting 100 s after Stage 1).
QList<qint64> writeRuns(const QString& path, int runs, bool timed = true) {
  adala::store::RunStore store(path.toStdString());
  QList<qint64> ids;
  for (int r = 0; r < runs; ++r) {
    const int64_t id = store.create_run("plots-" + std::to_string(r), "{}", "cpu", "", "");
    for (int stage : {1, 2}) {
      const std::string name = adala::widgets::stageNames()[stage].toStdString();
      store.begin_stage(id, name, stage, 20);
      for (int step = 1; step <= 20; ++step) {
        if (stage == 1)
          for (int b = 0; b < 4; ++b)
            store.add_metric(id, name, step, "block_mse", b, blockMse(r, b, step));
        store.add_metric(id, name, step, "loss", -1, blockMse(r, 0, step) * 2);
        if (timed)
          store.add_metric(id, name, step, "wall_time", -1,
                           kWallStart + (stage - 1) * 100 + 2.5 * step);
      }
      store.end_stage(id, name, adala::store::RunStatus::Done);
    }
    ids << id;
  }
  store.flush();
  return ids;
}

QVector<double> ema(const QVector<double>& y, double w) {
  QVector<double> out;
  double s = 0;
  for (int i = 0; i < y.size(); ++i) {
    s = i == 0 ? y[i] : w * s + (1 - w) * y[i];
    out << s;
  }
  return out;
}

void showAndLayOut(QWidget& w) {
  w.resize(1400, 900);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
}

}  // namespace

class TestGuiPlots : public QObject {
  Q_OBJECT

  QString dir_;

 private slots:
  void initTestCase() {
    gui_test::isolateSettings();
    dir_ = gui_test::freshDir("plots");
  }

  void log_ticker_labels_every_decade_with_2x_5x_subticks() {
    LogAxisTicker ticker;
    QVector<double> ticks, subTicks;
    QVector<QString> labels;
    ticker.generate(QCPRange(1e-5, 1), QLocale::c(), QLatin1Char('g'), 3, ticks, &subTicks,
                    &labels);
    QVERIFY2(sameValues(ticks, {1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1}),
             qPrintable(QString::number(ticks.size())));
    QCOMPARE(labels.size(), ticks.size());
    for (const QString& l : labels) QVERIFY(!l.isEmpty());
    // One notation per side of 0.01: every decade below it as an exponent (10⁻⁴, not 0.0001).
    QCOMPARE(QStringList(labels.begin(), labels.end()),
             QStringList({"1e-5", "1e-4", "1e-3", "0.01", "0.1", "1"}));
    QCOMPARE(LogAxisTicker::label(2.5e-3), QString("2.5e-3"));
    QCOMPARE(LogAxisTicker::label(0.05), QString("0.05"));
    QVector<double> expectedSub;
    for (double d = 1e-5; d < 1; d *= 10) expectedSub << 2 * d << 5 * d;
    QVERIFY(sameValues(subTicks, expectedSub));
    // Within a decade the 1-2-5 ticks stay (no decade to label).
    ticker.generate(QCPRange(0.02, 0.09), QLocale::c(), QLatin1Char('g'), 3, ticks, &subTicks,
                    &labels);
    QVERIFY(sameValues(ticks, LogAxisTicker::niceTicks(0.02, 0.09, LogAxisTicker::kMaxInDecade)));
    QVERIFY(ticks.size() <= LogAxisTicker::kMaxInDecade);
    // A short Stage-1 loss axis (3e-4 .. 3e-3): few enough labels not to stack in a small plot.
    ticker.generate(QCPRange(3e-4, 3e-3), QLocale::c(), QLatin1Char('g'), 3, ticks, &subTicks,
                    &labels);
    QCOMPARE(QStringList(labels.begin(), labels.end()), QStringList({"5e-4", "1e-3", "2e-3"}));
    QVERIFY(subTicks.isEmpty());
  }

  void mse_plot_labels_every_decade_where_the_data_lie() {
    AttentionMsePlot plot;
    showAndLayOut(plot);
    QVERIFY(plot.loadRuns(dir_ + "/decades.sqlite", writeRuns(dir_ + "/decades.sqlite", 1)));
    QVERIFY(plot.logScale());
    QCustomPlot* p = plot.stage1Plot();
    p->replot(QCustomPlot::rpImmediateRefresh);
    // Data from ~1 down to ~2e-6: every decade in between is a labelled tick.
    const QVector<double> ticks = p->yAxis->tickVector();
    const QVector<QString> labels = p->yAxis->tickVectorLabels();
    for (double d : {1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0}) {
      int at = -1;
      for (int i = 0; i < ticks.size(); ++i)
        if (sameValue(ticks[i], d)) at = i;
      QVERIFY2(at >= 0, qPrintable(QString("no tick at %1").arg(d)));
      QVERIFY(!labels[at].isEmpty());
    }
    QVERIFY(p->yAxis->subTicks());
  }

  void legend_sits_beside_the_data_and_a_click_toggles_a_curve() {
    AttentionMsePlot plot;
    showAndLayOut(plot);
    const QString db = dir_ + "/compare.sqlite";
    QVERIFY(plot.loadRuns(db, writeRuns(db, 3)));
    QCustomPlot* p = plot.stage1Plot();
    QCOMPARE(p->graphCount(), 12);  // 3 runs x 4 blocks
    p->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(!p->legend->outerRect().intersects(p->axisRect()->rect()));
    QCOMPARE(p->legend->itemCount(), 12);

    QCPGraph* g = p->graph(5);
    QCPAbstractLegendItem* item = p->legend->itemWithPlottable(g);
    QVERIFY(item);
    const QPoint at = item->outerRect().center();
    QTest::mouseClick(p, Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(!g->visible());
    for (int i = 0; i < p->graphCount(); ++i)
      if (i != 5) QVERIFY(p->graph(i)->visible());
    QTest::mouseClick(p, Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(g->visible());

    // Hidden stays hidden when the plot is rebuilt (here: the x axis changes).
    QTest::mouseClick(p, Qt::LeftButton, Qt::NoModifier, at);
    plot.setXAxis(AttentionMsePlot::XAxis::WallTime);
    QVERIFY(!p->graph(5)->visible());

    // The Stage-2 plot of a comparison: its legend is under the axes.
    QCustomPlot* f = plot.stage2Plot();
    f->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(f->legend->visible());
    QVERIFY(!f->legend->outerRect().intersects(f->axisRect()->rect()));
  }

  void hover_tooltip_gives_the_value() {
    AttentionMsePlot plot;
    showAndLayOut(plot);
    const QString db = dir_ + "/hover.sqlite";
    QVERIFY(plot.loadRuns(db, writeRuns(db, 1)));
    QCustomPlot* p = plot.stage1Plot();
    p->replot(QCustomPlot::rpImmediateRefresh);
    QCPGraph* g = p->graph(2);  // block 2
    auto it = g->data()->constBegin() + 7;
    const QPointF pixel = g->coordsToPixels(it->key, it->value);
    QTest::mouseMove(p, pixel.toPoint());
    const QString text = plot.stage1Hover()->lastText();
    QVERIFY2(text.contains(PlotHover::valueText(it->value)), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("block 2")));
    QVERIFY(text.contains(QLatin1String("step 8")));
    QCOMPARE(QToolTip::text(), text);
    // Far from every point: no tooltip.
    QTest::mouseMove(p,
                     QPoint(p->axisRect()->rect().center().x(), p->axisRect()->rect().top() + 3));
    QVERIFY(plot.stage1Hover()->lastText().isEmpty());
  }

  void heatmap_hover_gives_the_cell_value() {
    adala::widgets::HealthHeatmap map;
    showAndLayOut(map);
    const QString key = adala::widgets::HealthHeatmap::healthKeys().first();
    QVector<adala::widgets::HealthSample> samples;
    for (int step = 10; step <= 50; step += 10)
      for (int b = 0; b < 3; ++b)
        samples.push_back({adala::widgets::stageNames()[1], step, key, b, 1e-4 * (b + 1) * step});
    map.setSamples(samples);
    QVERIFY(map.setKey(key));
    map.plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QPoint at(int(map.plot()->xAxis->coordToPixel(30)),
                    int(map.plot()->yAxis->coordToPixel(2)));
    QTest::mouseMove(map.plot(), at);
    const QString text = map.lastHoverText();
    QVERIFY2(text.contains(QString::number(1e-4 * 3 * 30, 'g', 6)), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("block 2")));
    QVERIFY(text.contains(QLatin1String("step 30")));
  }

  void smoothing_slider_plots_the_ema() {
    AttentionMsePlot plot;
    showAndLayOut(plot);
    const QString db = dir_ + "/smooth.sqlite";
    QVERIFY(plot.loadRuns(db, writeRuns(db, 1)));
    QCPGraph* g = plot.stage1Plot()->graph(1);
    QVector<double> raw;
    for (int step = 1; step <= 20; ++step) raw << blockMse(0, 1, step);
    QVERIFY(sameValues(valuesOf(g), raw));

    QSlider* slider = plot.smoothingSlider();
    slider->setFocus();
    for (int i = 0; i < 6; ++i) QTest::keyClick(slider, Qt::Key_PageUp);  // 6 x page step 10
    QCOMPARE(slider->value(), 60);
    // 60 / 100.0, correctly rounded: the double nearest 0.6, as the literal is.
    ADALA_COMPARE_EXACT(plot.smoothing(), 0.6);
    QVERIFY(sameValues(valuesOf(g), ema(raw, 0.6)));
    QVERIFY(!sameValues(valuesOf(g), raw));
    QCPGraph* f = plot.stage2Plot()->graph(0);
    QVector<double> loss;
    for (int step = 1; step <= 20; ++step) loss << blockMse(0, 0, step) * 2;
    QVERIFY(sameValues(valuesOf(f), ema(loss, 0.6)));
    QVERIFY(plot.stage1Hover()
                ->textAt(g->coordsToPixels(g->data()->at(3)->key, g->data()->at(3)->value))
                .contains(QLatin1String("smoothed")));

    QTest::keyClick(slider, Qt::Key_Home);
    QVERIFY(sameValues(valuesOf(g), raw));
  }

  void x_axis_by_wall_time() {
    AttentionMsePlot plot;
    showAndLayOut(plot);
    const QString db = dir_ + "/wall.sqlite";
    QVERIFY(plot.loadRuns(db, writeRuns(db, 1)));
    QCPGraph* g = plot.stage1Plot()->graph(0);
    QVector<double> steps;
    for (int step = 1; step <= 20; ++step) steps << step;
    QVERIFY(sameValues(keysOf(g), steps));

    QComboBox* box = plot.xAxisBox();
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Down);
    QCOMPARE(plot.xAxis(), AttentionMsePlot::XAxis::WallTime);
    // Seconds since the run's first logged step (Stage 1 step 1 at kWallStart + 2.5).
    QVector<double> seconds;
    for (int step = 1; step <= 20; ++step) seconds << 2.5 * (step - 1);
    QVERIFY(sameValues(keysOf(plot.stage1Plot()->graph(0)), seconds));
    QVector<double> stage2;
    for (int step = 1; step <= 20; ++step) stage2 << 100 + 2.5 * (step - 1);
    QVERIFY(sameValues(keysOf(plot.stage2Plot()->graph(0)), stage2));
    QVERIFY(plot.stage1Plot()->xAxis->label().contains(QLatin1String("wall time")));

    // A run recorded without wall times is not drawn against time, and the summary says so.
    const QString old = dir_ + "/untimed.sqlite";
    QVERIFY(plot.loadRuns(old, writeRuns(old, 1, false)));
    QCOMPARE(plot.stage1PointCount(0), 0);
    bool said = false;
    for (QLabel* l : plot.findChildren<QLabel*>())
      said = said || l->text().contains(QLatin1String("no wall times"));
    QVERIFY(said);
    QTest::keyClick(box, Qt::Key_Up);
    QCOMPARE(plot.stage1PointCount(0), 20);
  }

  void live_steps_carry_their_wall_time() {
    AttentionMsePlot plot;
    plot.startLiveRun(QStringLiteral("live"));
    QVector<adala::widgets::StepUpdate> steps;
    for (int s = 1; s <= 5; ++s) {
      adala::widgets::StepUpdate u;
      u.stage = adala::widgets::stageNames()[1];
      u.step = s;
      u.perBlockMse = {0.1 * s, 0.2 * s};
      u.extra.insert(QStringLiteral("wall_time"), kWallStart + 10.0 * s);
      steps << u;
    }
    plot.appendSteps(steps);
    plot.setXAxis(AttentionMsePlot::XAxis::WallTime);
    QVERIFY(sameValues(keysOf(plot.stage1Plot()->graph(1)), {0, 10, 20, 30, 40}));
  }

  void mode_colours_are_the_reports() {
    using adala::widgets::ScalingView;
    for (const char* mode : {"softmax", "linear", "softmax-chunked", "teacher", "student"}) {
      const auto rgb = adala::report::mode_color(mode);
      QCOMPARE(ScalingView::modeColor(QString::fromLatin1(mode)), QColor(rgb.r, rgb.g, rgb.b));
    }
    QVERIFY(ScalingView::modeColor("softmax") != ScalingView::modeColor("linear"));
    QCOMPARE(ScalingView::modeColor("teacher"), ScalingView::modeColor("softmax"));
    QCOMPARE(ScalingView::modeColor("student"), ScalingView::modeColor("linear"));
    // The report's scaling chart draws each mode in the workbench's colour.
    const report_test::Database d = report_test::make_database(QStringLiteral("plots-colours"));
    adala::store::RunStore store(d.path.toStdString(), adala::store::OpenMode::ReadOnly);
    const auto doc =
        adala::report::build_report_document(adala::report::load_report_model(store, {d.figures}));
    int checked = 0;
    for (const auto& figure : doc.figures)
      for (const auto& panel : figure.chart.panels)
        for (const auto& series : panel.series)
          if (series.name == "softmax" || series.name == "linear") {
            QCOMPARE(QColor(series.color.r, series.color.g, series.color.b),
                     ScalingView::modeColor(QString::fromStdString(series.name)));
            ++checked;
          }
    QVERIFY(checked >= 2);
    QDir(d.dir).removeRecursively();
  }

  void cleanupTestCase() { QDir(dir_).removeRecursively(); }
};

ADALA_TEST_MAIN(TestGuiPlots)
}  // namespace test_gui_plots

#include "test_gui_plots.moc"
